package session

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// menu is the move menu: the seat's legal moves grouped by what they act on
// (a card, an action), in the order the game's Board gives them. Every
// legal move is in exactly one group, so every legal move is reachable
// with the group and move keys.
type menu struct {
	groups []kit.MoveGroup
	group  int // selected group
	item   int // selected move within the group
	filter string
	undo   bool // the groups hold the undo move (asked at every frame)
	// drawn are the last two drawings (menuView), newest first: a board
	// asks for the menu at two heights a frame. A new menu, as the board
	// changes, has none; within one, what is selected is in their key.
	drawn [2]menuDrawing
}

// menuDrawing is the menu drawn under key.
type menuDrawing struct {
	key  menuKey
	text string
}

// menuKey is what a drawing of the menu depends on besides its groups.
type menuKey struct {
	w, h           int
	styles         *kit.Styles
	lang           *lang.Printer
	pending, armed bool
	group, item    int
	filter         string
}

// newMenu offers groups, keeping old's place (restore).
func newMenu(groups []kit.MoveGroup, old menu) menu {
	m := menu{groups: groups, filter: old.filter, undo: holdsUndo(groups)}
	m.restore(old)
	if len(groups) > 0 && sameWords(old.groups, groups) {
		// An update mostly leaves a seat's moves as they were (another
		// seat moved): its drawings hold, their keys saying where the
		// menu is.
		m.drawn = old.drawn
	}
	return m
}

// sameWords reports whether a and b draw the same (view reads a group's
// key, its title and its moves' labels).
func sameWords(a, b []kit.MoveGroup) bool {
	return slices.EqualFunc(a, b, func(x, y kit.MoveGroup) bool {
		return x.Key == y.Key && x.Title == y.Title &&
			slices.EqualFunc(x.Moves, y.Moves, func(p, q kit.MenuMove) bool { return p.Label == q.Label })
	})
}

// restore keeps the menu's place after an update: on the move old had
// selected if it is still offered; else in the same group, on the move
// nearest the one selected; else on the group nearest old's among those
// still offered, in old's order. With nothing of old's left it opens on
// the first group. Never on Take back while anything else is offered: a
// stray enter there would take back what the player just did.
func (m *menu) restore(old menu) {
	gs := m.visible()
	if len(gs) == 0 {
		return
	}
	m.group, m.item = 0, 0
	index := func(key string) int {
		for i, g := range gs {
			if g.Key == key {
				return i
			}
		}
		return -1
	}
	if og, ok := old.selectedGroup(); ok {
		if i := index(og.Key); i >= 0 {
			m.group, m.item = i, min(max(old.item, 0), len(gs[i].Moves)-1)
			if mv, ok := old.selected(); ok {
				for j, x := range gs[i].Moves {
					if x.Label == mv.Label {
						m.group, m.item = i, j
						m.offUndo()
						return // the same move: the player's own choice stays
					}
				}
			}
		} else {
			m.group = nearest(old.visible(), old.group, index)
		}
	}
	m.offUndo()
	m.offLoss()
}

// offLoss moves the selection off a move that loses something (Loses)
// to the nearest in its group that loses nothing, if there is one: a
// line the menu lands on by itself must be safe to play.
func (m *menu) offLoss() {
	g, ok := m.selectedGroup()
	if !ok || m.item < 0 || m.item >= len(g.Moves) || g.Moves[m.item].Loses == "" {
		return
	}
	for d := 1; d < len(g.Moves); d++ {
		for _, j := range [2]int{m.item + d, m.item - d} {
			if j >= 0 && j < len(g.Moves) && g.Moves[j].Loses == "" {
				m.item = j
				return
			}
		}
	}
}

// nearest is the index (by at) of the group of was nearest to was[from]
// that is still offered, the one before first: a game ranks the groups
// that end or cost something last. 0 when none is.
func nearest(was []kit.MoveGroup, from int, at func(key string) int) int {
	for d := 1; d < len(was); d++ {
		for _, j := range [2]int{from - d, from + d} {
			if j >= 0 && j < len(was) {
				if i := at(was[j].Key); i >= 0 {
					return i
				}
			}
		}
	}
	return 0
}

// offUndo moves the selection off the Take back group to its nearest
// neighbour, the group before it first (the one after is Done).
func (m *menu) offUndo() {
	gs := m.visible()
	if !m.undo || len(gs) < 2 || !isUndoGroup(gs[m.group]) {
		return
	}
	if m.group > 0 {
		m.group--
	} else {
		m.group++
	}
	m.item = 0
}

// isUndoGroup reports whether g is the Take back group: its one move
// takes a move back.
func isUndoGroup(g kit.MoveGroup) bool {
	return len(g.Moves) == 1 && holdsUndo([]kit.MoveGroup{g})
}

// searchKey is the key of the group of a search's moves.
const searchKey = "search"

// visible returns the groups on offer: all of them, or while a search is
// typed one group of the matching moves; none when the search matches
// nothing (the view says so, and how to get every move back).
func (m menu) visible() []kit.MoveGroup {
	if m.filter == "" {
		return m.groups
	}
	f := strings.ToLower(m.filter)
	res := kit.MoveGroup{Key: searchKey} // titled where it is drawn, in the reader's language
	for _, g := range m.groups {
		for _, mv := range g.Moves {
			if strings.Contains(strings.ToLower(g.Title+" "+mv.Label), f) {
				res.Moves = append(res.Moves, mv)
			}
		}
	}
	if len(res.Moves) == 0 {
		return nil
	}
	return []kit.MoveGroup{res}
}

// unmatched reports whether a search is typed that matches no move.
func (m menu) unmatched() bool { return m.filter != "" && len(m.visible()) == 0 }

// clearFilter ends the search and shows every move, keeping the
// selection on the move the search had selected.
func (m *menu) clearFilter() {
	mv, ok := m.selected()
	m.filter, m.group, m.item = "", 0, 0
	if !ok {
		return
	}
	for i, g := range m.groups {
		for j, x := range g.Moves {
			if bytes.Equal(x.Move, mv.Move) {
				m.group, m.item = i, j
				return
			}
		}
	}
}

func (m menu) selectedGroup() (kit.MoveGroup, bool) {
	gs := m.visible()
	if m.group < 0 || m.group >= len(gs) {
		return kit.MoveGroup{}, false
	}
	return gs[m.group], true
}

func (m menu) selected() (kit.MenuMove, bool) {
	g, ok := m.selectedGroup()
	if !ok || m.item < 0 || m.item >= len(g.Moves) {
		return kit.MenuMove{}, false
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
	m.offLoss()
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

// menuPage is how far PgUp and PgDn move in a group's moves.
const menuPage = 5

// maxInt is past the end of any list: toItem(maxInt) is the last move.
const maxInt = int(^uint(0) >> 1)

// jump moves the selection within the group for ↑/↓ (k/j), Home/End and
// PgUp/PgDn, and reports whether k was one of them.
func (m *menu) jump(k keyName) bool {
	km := &gameKeyMap // not a copy: read only
	switch {
	case key.Matches(k, km.Down):
		m.stepItem(1)
	case key.Matches(k, km.Up):
		m.stepItem(-1)
	case key.Matches(k, km.First):
		m.toItem(0)
	case key.Matches(k, km.Last):
		m.toItem(maxInt)
	case key.Matches(k, km.PageUp):
		m.toItem(m.item - menuPage)
	case key.Matches(k, km.PageDown):
		m.toItem(m.item + menuPage)
	default:
		return false
	}
	return true
}

// toItem selects move i of the group, clamped to its moves (Home, End,
// PgUp, PgDn).
func (m *menu) toItem(i int) {
	if g, ok := m.selectedGroup(); ok && len(g.Moves) > 0 {
		m.item = min(max(i, 0), len(g.Moves)-1)
	}
}

// setFilter changes the search and selects its first result that loses
// nothing.
func (m *menu) setFilter(f string) {
	m.filter = f
	m.group, m.item = 0, 0
	m.offLoss()
}

// differing is move i's label for a line w wide. A label too long for it
// that begins as another move of the group does would be cut where the
// two differ: the shared words give way to "…", but for the last, so the
// line shows what differs ("… discarding Mega Factory", "… for energy").
// A cut whose words end another move's label as well would show two
// moves alike ("… the blueprints" for metal and for energy), so the cut
// backs off to fewer shared words until what it shows is this move's own.
func differing(moves []kit.MenuMove, i, w int) string {
	label := moves[i].Label
	if kit.Width(label) <= w {
		return label
	}
	words := strings.Split(label, " ")
	var cuts []int // how many leading words label shares with each other move
	for j, mv := range moves {
		if j == i {
			continue
		}
		other := strings.Split(mv.Label, " ")
		n := 0
		for n < len(words)-1 && n < len(other) && words[n] == other[n] {
			n++
		}
		cuts = append(cuts, n)
	}
	slices.Sort(cuts)
	for _, n := range slices.Backward(slices.Compact(cuts)) {
		if n < 2 {
			break
		}
		tail := strings.Join(words[n-1:], " ")
		if !slices.ContainsFunc(moves, func(mv kit.MenuMove) bool {
			return mv.Label != label && (mv.Label == tail || strings.HasSuffix(mv.Label, " "+tail))
		}) {
			return "… " + tail
		}
	}
	return label
}

// view draws the menu in w×h: the group title with its position, then the
// group's moves scrolled to keep the selection in sight. An armed
// selection (a costly move waiting for its second enter) is marked ⏎.
func (m menu) view(t kit.Theme, w, h int, armed bool) string {
	gs := m.visible()
	if len(gs) == 0 || h < 2 {
		if m.filter != "" {
			return t.Title.Render(t.L.T("session.menu.title")) + "\n" + t.Bad.Render(t.L.T("session.menu.noMatch", "Search", m.filter)) +
				"\n" + t.Dim.Render(t.L.T("session.menu.allAgain"))
		}
		return t.Title.Render(t.L.T("session.menu.title")) + "\n" + t.Dim.Render(t.L.T("session.menu.nothing"))
	}
	g := gs[min(m.group, len(gs)-1)]
	head := t.Title.Render(fmt.Sprintf("%s %d/%d", t.L.T("session.menu.title"), m.group+1, len(gs)))
	if g.Key == searchKey {
		g.Title = t.L.T("session.menu.matching", "Search", m.filter)
	}
	title := "◂ " + t.Accent.Render(g.Title) + " ▸"
	lines := []string{head + " " + title}
	if kit.Width(lines[0]) > w && h > 2 {
		// A long title gets a line of its own rather than being cut.
		lines = []string{head, title}
	}
	// The selected move is shown whole, wrapped if need be, so a long
	// label is never cut where it matters; its extra lines come out of
	// the rows, so the "… more" line is never cut instead.
	var selected []string
	if m.item >= 0 && m.item < len(g.Moves) {
		selected = kit.WrapItems("", strings.Fields(g.Moves[m.item].Label), " ", max(10, w-2))
	}
	rows := h - len(lines)
	if len(g.Moves)+max(0, len(selected)-1) > rows {
		rows = max(1, rows-1) // keep a line for "… more"
	}
	if len(selected) > rows { // a tiny menu: the label ends in a marker
		selected = selected[:rows]
		selected[rows-1] += "…"
	}
	extra := max(0, len(selected)-1)
	shown := max(1, rows-extra)
	start := 0
	if m.item >= shown {
		start = m.item - shown + 1
	}
	mark, style := "▸ ", t.Selected
	if armed {
		mark, style = "⏎ ", t.Accent
	}
	for i := start; i < len(g.Moves) && i < start+shown; i++ {
		if i != m.item {
			lines = append(lines, "  "+differing(g.Moves, i, w-2))
			continue
		}
		for j, part := range selected {
			if j == 0 {
				lines = append(lines, mark+style.Render(part))
			} else {
				lines = append(lines, "  "+style.Render(part))
			}
		}
	}
	if more := len(g.Moves) - (start + shown); more > 0 {
		lines = append(lines, t.Dim.Render("  … "+t.L.N("session.menu.more", more)+" (↓)"))
	}
	return strings.Join(lines, "\n")
}
