package session

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// menu is the move menu: the seat's legal moves grouped by what they act on
// (a card, an action), in the order the game's Board gives them. Every
// legal move is in exactly one group, so every legal move is reachable
// with the group and move keys.
type menu struct {
	groups []MoveGroup
	group  int // selected group
	item   int // selected move within the group
	filter string
}

// newMenu offers groups, keeping the selection of old where the same group
// and move are still there.
func newMenu(groups []MoveGroup, old menu) menu {
	m := menu{groups: groups, filter: old.filter}
	m.restore(old)
	return m
}

// restore selects what old had selected, if it is still offered.
func (m *menu) restore(old menu) {
	g, ok := old.selectedGroup()
	if !ok {
		return
	}
	for i, ng := range m.visible() {
		if ng.Key != g.Key {
			continue
		}
		m.group = i
		if mv, ok := old.selected(); ok {
			for j, x := range ng.Moves {
				if x.Label == mv.Label {
					m.item = j
				}
			}
		}
		m.item = min(m.item, len(ng.Moves)-1)
		return
	}
}

// visible returns the groups on offer: all of them, or while a search is
// typed one group of the matching moves.
func (m menu) visible() []MoveGroup {
	if m.filter == "" {
		return m.groups
	}
	f := strings.ToLower(m.filter)
	res := MoveGroup{Key: "search", Title: "Moves matching “" + m.filter + "”"}
	for _, g := range m.groups {
		for _, mv := range g.Moves {
			if strings.Contains(strings.ToLower(g.Title+" "+mv.Label), f) {
				res.Moves = append(res.Moves, mv)
			}
		}
	}
	return []MoveGroup{res}
}

func (m menu) selectedGroup() (MoveGroup, bool) {
	gs := m.visible()
	if m.group < 0 || m.group >= len(gs) {
		return MoveGroup{}, false
	}
	return gs[m.group], true
}

func (m menu) selected() (MenuMove, bool) {
	g, ok := m.selectedGroup()
	if !ok || m.item < 0 || m.item >= len(g.Moves) {
		return MenuMove{}, false
	}
	return g.Moves[m.item], true
}

// stepGroup moves the group selection by d, wrapping around.
func (m *menu) stepGroup(d int) {
	n := len(m.visible())
	if n == 0 {
		return
	}
	m.group = ((m.group+d)%n + n) % n
	m.item = 0
}

// stepItem moves the move selection by d within the group, wrapping.
func (m *menu) stepItem(d int) {
	g, ok := m.selectedGroup()
	if !ok || len(g.Moves) == 0 {
		return
	}
	n := len(g.Moves)
	m.item = ((m.item+d)%n + n) % n
}

// setFilter changes the search and selects its first result.
func (m *menu) setFilter(f string) {
	m.filter = f
	m.group, m.item = 0, 0
}

// view draws the menu in w×h: the group title with its position, then the
// group's moves scrolled to keep the selection in sight. An armed
// selection (a costly move waiting for its second enter) is marked ⏎.
func (m menu) view(t Theme, w, h int, armed bool) string {
	gs := m.visible()
	if len(gs) == 0 || h < 2 {
		if m.filter != "" {
			return t.Title.Render("MOVES") + "\n" + t.Dim.Render("no move matches “"+m.filter+"”")
		}
		return t.Title.Render("MOVES") + "\n" + t.Dim.Render("nothing to do right now")
	}
	g := gs[min(m.group, len(gs)-1)]
	head := t.Title.Render(fmt.Sprintf("MOVES %d/%d", m.group+1, len(gs)))
	title := "◂ " + t.Accent.Render(g.Title) + " ▸"
	lines := []string{head + " " + title}
	if ansi.StringWidth(lines[0]) > w && h > 2 {
		// A long title gets a line of its own rather than being cut.
		lines = []string{head, title}
	}
	rows := h - len(lines)
	if len(g.Moves) > rows {
		rows = max(1, rows-1) // keep a line for "… more"
	}
	start := 0
	if m.item >= rows {
		start = m.item - rows + 1
	}
	for i := start; i < len(g.Moves) && i < start+rows; i++ {
		label := g.Moves[i].Label
		if i == m.item {
			// The selected move is shown whole, wrapped if need be, so a
			// long label is never cut where it matters.
			mark, style := "▸ ", t.Selected
			if armed {
				mark, style = "⏎ ", t.Accent
			}
			for j, part := range WrapItems("", strings.Fields(label), " ", max(10, w-2)) {
				if j == 0 {
					lines = append(lines, mark+style.Render(part))
				} else {
					lines = append(lines, "  "+style.Render(part))
				}
			}
		} else {
			lines = append(lines, "  "+label)
		}
	}
	if more := len(g.Moves) - (start + rows); more > 0 {
		lines = append(lines, t.Dim.Render(fmt.Sprintf("  … %d more (↓)", more)))
	}
	return strings.Join(lines, "\n")
}
