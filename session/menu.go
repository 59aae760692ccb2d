package session

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/smokestack/smokestack/engine/factories"
)

// menu is the move menu: the seat's legal moves grouped by what they act on
// (a marketplace slot, a card in hand, a building, the Headquarters), in
// the engine's order. Every legal move is in exactly one group, so every
// legal move is reachable with the group and move keys.
type menu struct {
	groups []moveGroup
	group  int // selected group
	item   int // selected move within the group
	filter string
}

// moveGroup is the moves about one thing.
type moveGroup struct {
	key   string // identity across updates ("build:Foundry")
	title string
	card  cardRef // the card the group is about, if any
	moves []menuMove
}

// menuMove is one legal move with its menu label.
type menuMove struct {
	move  factories.Move
	label string
}

// newMenu groups v.Legal, keeping the selection of old where the same
// group and move are still there.
func newMenu(v *factories.View, old menu) menu {
	m := menu{filter: old.filter}
	if v == nil {
		return m
	}
	index := map[string]int{}
	for _, mv := range v.Legal {
		k, title, card := groupOf(v, mv)
		i, ok := index[k]
		if !ok {
			i = len(m.groups)
			index[k] = i
			m.groups = append(m.groups, moveGroup{key: k, title: title, card: card})
		}
		m.groups[i].moves = append(m.groups[i].moves, menuMove{move: mv, label: mv.Describe(*v)})
	}
	// The engine lists moves in its own order; the menu opens on what a
	// player most likely wants, and keeps the paid refresh and Done, which
	// end or cost something, last, where a careless enter cannot reach them.
	slices.SortStableFunc(m.groups, func(a, b moveGroup) int {
		return cmp.Compare(kindRank[a.moves[0].move.Kind], kindRank[b.moves[0].move.Kind])
	})
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
		if ng.key != g.key {
			continue
		}
		m.group = i
		if mv, ok := old.selected(); ok {
			for j, x := range ng.moves {
				if x.label == mv.label {
					m.item = j
				}
			}
		}
		m.item = min(m.item, len(ng.moves)-1)
		return
	}
}

// kindRank orders the menu's groups: dice to set first, then the market,
// then building and working, then the moves that cost or end something.
var kindRank = map[factories.MoveKind]int{
	factories.SetDice: 0, factories.Choose: 1,
	factories.Take: 2, factories.Hire: 3,
	factories.Build: 4, factories.Activate: 5, factories.Place: 6,
	factories.DiscardDown: 7, factories.Refresh: 8, factories.Pass: 9, factories.Done: 10,
}

// groupOf says which group a move belongs to and what the group is called.
func groupOf(v *factories.View, mv factories.Move) (key, title string, card cardRef) {
	switch mv.Kind {
	case factories.Take:
		c := blueprintAt(v, mv.Slot)
		return fmt.Sprintf("take:%d", mv.Slot), fmt.Sprintf("Blueprint %d: %s", mv.Slot+1, c.Name()), cardRef{blueprint: c, ok: c != factories.None}
	case factories.Hire:
		c := contractorAt(v, mv.Slot)
		return fmt.Sprintf("hire:%d", mv.Slot), fmt.Sprintf("Contractor %d: %s", mv.Slot+1, c.Name()), cardRef{contractor: c, isContractor: true, ok: c != factories.None}
	case factories.Refresh:
		return "refresh", "Refresh a row", cardRef{}
	case factories.Pass:
		return "pass", "Pass", cardRef{}
	case factories.SetDice:
		return "setdice", "Foreman dice", cardRef{}
	case factories.Choose:
		return fmt.Sprintf("choose:%v", mv.Dice), "Specialist die", cardRef{}
	case factories.Build:
		return "build:" + mv.Card.Name(), "Build " + mv.Card.Name(), cardRef{blueprint: mv.Card, ok: true}
	case factories.Place:
		return "place", "Headquarters", cardRef{}
	case factories.Activate:
		return "activate:" + mv.Card.Name(), "Activate " + mv.Card.Name(), cardRef{blueprint: mv.Card, ok: true}
	case factories.DiscardDown:
		return "discard", "Discard down to the limits", cardRef{}
	case factories.Done:
		return "done", "Done", cardRef{}
	}
	return string(mv.Kind), string(mv.Kind), cardRef{}
}

func blueprintAt(v *factories.View, slot int) factories.Card {
	if slot < 0 || slot >= len(v.Market.Blueprints) {
		return factories.None
	}
	return v.Market.Blueprints[slot]
}

func contractorAt(v *factories.View, slot int) factories.Contractor {
	if slot < 0 || slot >= len(v.Market.Contractors) {
		return factories.None
	}
	return v.Market.Contractors[slot]
}

// visible returns the groups on offer: all of them, or while a search is
// typed one group of the matching moves.
func (m menu) visible() []moveGroup {
	if m.filter == "" {
		return m.groups
	}
	f := strings.ToLower(m.filter)
	res := moveGroup{key: "search", title: "Moves matching “" + m.filter + "”"}
	for _, g := range m.groups {
		for _, mv := range g.moves {
			if strings.Contains(strings.ToLower(g.title+" "+mv.label), f) {
				res.moves = append(res.moves, mv)
			}
		}
	}
	return []moveGroup{res}
}

func (m menu) selectedGroup() (moveGroup, bool) {
	gs := m.visible()
	if m.group < 0 || m.group >= len(gs) {
		return moveGroup{}, false
	}
	return gs[m.group], true
}

func (m menu) selected() (menuMove, bool) {
	g, ok := m.selectedGroup()
	if !ok || m.item < 0 || m.item >= len(g.moves) {
		return menuMove{}, false
	}
	return g.moves[m.item], true
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
	if !ok || len(g.moves) == 0 {
		return
	}
	n := len(g.moves)
	m.item = ((m.item+d)%n + n) % n
}

// setFilter changes the search and selects its first result.
func (m *menu) setFilter(f string) {
	m.filter = f
	m.group, m.item = 0, 0
}

// view draws the menu in w×h: the group title with its position, then the
// group's moves scrolled to keep the selection in sight.
func (m menu) view(t Theme, w, h int) string {
	gs := m.visible()
	if len(gs) == 0 || h < 2 {
		if m.filter != "" {
			return t.Title.Render("MOVES") + "\n" + t.Dim.Render("no move matches “"+m.filter+"”")
		}
		return t.Title.Render("MOVES") + "\n" + t.Dim.Render("nothing to do right now")
	}
	g := gs[min(m.group, len(gs)-1)]
	lines := []string{t.Title.Render(fmt.Sprintf("MOVES %d/%d", m.group+1, len(gs))) + " ◂ " + t.Accent.Render(g.title) + " ▸"}
	rows := h - 1
	if len(g.moves) > rows {
		rows = max(1, h-2) // keep a line for "… more"
	}
	start := 0
	if m.item >= rows {
		start = m.item - rows + 1
	}
	for i := start; i < len(g.moves) && i < start+rows; i++ {
		label := g.moves[i].label
		if i == m.item {
			// The selected move is shown whole, wrapped if need be, so a
			// long label is never cut where it matters.
			for j, part := range wrapItems("", strings.Fields(label), " ", max(10, w-2)) {
				if j == 0 {
					lines = append(lines, "▸ "+t.Selected.Render(part))
				} else {
					lines = append(lines, "  "+t.Selected.Render(part))
				}
			}
		} else {
			lines = append(lines, "  "+label)
		}
	}
	if more := len(g.moves) - (start + rows); more > 0 {
		lines = append(lines, t.Dim.Render(fmt.Sprintf("  … %d more (↓)", more)))
	}
	return strings.Join(lines, "\n")
}
