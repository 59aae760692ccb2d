package factories

import (
	"fmt"
	"slices"
	"strings"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/session"
)

// The board's widgets: each draws one part of the game from the seat's view
// and returns lines no wider than asked (fit cuts anything longer).

// marketView draws the marketplace: four blueprints with tool, cost and
// prestige, and the four contractors under their tool tokens.
func marketView(t session.Theme, v *factories.View, w int) string {
	lines := []string{t.Title.Render("MARKETPLACE") + t.Dim.Render(fmt.Sprintf("  deck %d · discard %d", v.DeckSize, v.DiscardSize))}
	nameW := max(10, min(18, w-23))
	for i, c := range v.Market.Blueprints {
		if c == factories.None {
			lines = append(lines, fmt.Sprintf("%d %s", i+1, t.Dim.Render("(empty)")))
			continue
		}
		b := c.Info()
		lines = append(lines, fmt.Sprintf("%d %-*s %s  %s  ★%d", i+1, nameW, b.Name, padTool(t, b.Tool),
			costShort(b.Metal, b.Energy), b.Prestige))
	}
	lines = append(lines, t.Dim.Render(fmt.Sprintf("  contractors (token → card) · deck %d", v.ContractorDeck)))
	for i, c := range v.Market.Contractors {
		name := t.Dim.Render("(empty)")
		if c != factories.None {
			name = c.Name()
			if e := c.Info().Energy; e > 0 {
				name += t.Dim.Render(fmt.Sprintf(" +%de", e))
			}
		}
		lines = append(lines, fmt.Sprintf("%d %s → %s", i+1, padTool(t, v.Market.Tools[i]), name))
	}
	return strings.Join(lines, "\n")
}

// padTool draws a tool token padded to a fixed width so columns line up.
func padTool(t session.Theme, tool factories.Tool) string {
	mark := toolMarks[t.Name][tool]
	width := 6
	if mark != "" {
		width = 8
	}
	return toolText(t, tool) + strings.Repeat(" ", max(0, width-len([]rune(mark+string(tool)))))
}

// costShort is a cost for a table cell: "2m 1e", "free".
func costShort(metal, energy int) string {
	switch {
	case metal == 0 && energy == 0:
		return "free "
	case energy == 0:
		return fmt.Sprintf("%dm   ", metal)
	case metal == 0:
		return fmt.Sprintf("   %de", energy)
	}
	return fmt.Sprintf("%dm %de", metal, energy)
}

// resources is a player's metal, energy, goods and prestige in one line.
func resources(p factories.PlayerView) string {
	return fmt.Sprintf("metal %d · energy %d · goods %d · ★%d", p.Metal, p.Energy, p.Goods, p.Prestige)
}

// diceView draws a player's dice: unplaced as "4", placed as "(4)", extra
// dice that leave at round end with a "+", unset dice as "?".
func diceView(p factories.PlayerView) string {
	if len(p.Dice) == 0 {
		return "dice: none"
	}
	var free, placed []string
	for _, d := range p.Dice {
		s := "?"
		if d.Value > 0 {
			s = fmt.Sprint(d.Value)
		}
		if d.Extra {
			s = "+" + s
		}
		if d.Placed {
			placed = append(placed, "("+s+")")
		} else {
			free = append(free, s)
		}
	}
	out := "dice: " + strings.Join(free, " ")
	if len(free) == 0 {
		out = "dice: all placed"
	}
	if len(placed) > 0 {
		out += "   placed: " + strings.Join(placed, " ")
	}
	var hired []string
	if p.Foreman {
		hired = append(hired, "Foreman")
	}
	if p.HiredHands > 0 {
		hired = append(hired, fmt.Sprintf("Hired Hands×%d", p.HiredHands))
	}
	if p.Specialists > 0 {
		hired = append(hired, fmt.Sprintf("Specialist×%d", p.Specialists))
	}
	if len(hired) > 0 {
		out += "   hired: " + strings.Join(hired, ", ")
	}
	return out
}

// hqView draws the Headquarters with the dice placed on each action.
func hqView(hq factories.Headquarters) string {
	slot := func(vals []int) string {
		if len(vals) == 0 {
			return "-"
		}
		var s []string
		for _, v := range vals {
			s = append(s, fmt.Sprint(v))
		}
		return strings.Join(s, ",")
	}
	return fmt.Sprintf("HQ: research %s · generate %s · mine %s", slot(hq.Research), slot(hq.Generate), slot(hq.Mine))
}

// buildingLabel names a compound building with the dice on it; "✓" marks
// one already activated this round.
func buildingLabel(b factories.Building) string {
	s := b.Card.Name()
	if len(b.Dice) > 0 {
		var d []string
		for _, v := range b.Dice {
			d = append(d, fmt.Sprint(v))
		}
		s += "[" + strings.Join(d, ",") + "]"
	}
	if b.Copied != "" {
		s += "=" + b.Copied
	}
	if b.Used {
		s += "✓"
	}
	return s
}

// compoundView lists a compound's buildings, wrapped to w.
func compoundView(prefix string, compound []factories.Building, w int) []string {
	if len(compound) == 0 {
		return []string{prefix + "(no buildings yet)"}
	}
	var items []string
	for _, b := range compound {
		items = append(items, buildingLabel(b))
	}
	return session.WrapItems(prefix, items, " · ", w)
}

// handView lists the seat's own hand with each card's tool, wrapped to w.
func handView(t session.Theme, hand []factories.Card, w int) []string {
	if len(hand) == 0 {
		return []string{"hand: empty"}
	}
	cards := slices.Clone(hand)
	slices.SortStableFunc(cards, func(a, b factories.Card) int { return strings.Compare(a.Name(), b.Name()) })
	var items []string
	for _, c := range cards {
		items = append(items, c.Name()+t.Dim.Render(" ("+string(c.Info().Tool)+")"))
	}
	return session.WrapItems(fmt.Sprintf("hand (%d): ", len(hand)), items, " · ", w)
}

// youView draws the seat's own area: resources, dice, Headquarters,
// compound and hand.
func youView(t session.Theme, v *factories.View, s session.Seats, w int) string {
	p := v.You()
	lines := []string{t.Title.Render("YOU (" + s.Name(v.Seat) + ")"), resources(p), diceView(p), hqView(p.HQ)}
	lines = append(lines, compoundView("compound: ", p.Compound, w)...)
	lines = append(lines, handView(t, v.Hand, w)...)
	return strings.Join(lines, "\n")
}

// opponentView draws another seat: name and state, hand size, resources,
// dice in the work phase, then its compound. Only the hand size is shown,
// never a hand. Compact drawing keeps to two lines, for full tables.
func opponentView(t session.Theme, v *factories.View, p factories.PlayerView, s session.Seats, w int, compact bool) string {
	state := ""
	switch {
	case v.Phase == factories.GameOver:
	case v.Phase == factories.MarketPhase && v.Turn == p.Seat:
		state = t.Accent.Render(" ▶ choosing")
	case v.Phase == factories.WorkPhase && p.Done:
		state = t.Dim.Render(" ✓ done")
	case v.Phase == factories.WorkPhase:
		state = t.Accent.Render(" … working")
	}
	name := t.Title.Render(s.Name(p.Seat)) + state
	if compact {
		head := name + fmt.Sprintf("  hand %d · goods %d · ★%d · m%d e%d", p.HandSize, p.Goods, p.Prestige, p.Metal, p.Energy)
		var items []string
		for _, b := range p.Compound {
			items = append(items, buildingLabel(b))
		}
		if len(items) == 0 {
			items = []string{"(no buildings)"}
		}
		return head + "\n  " + strings.Join(items, " · ")
	}
	lines := []string{name, fmt.Sprintf("  hand %d · ", p.HandSize) + resources(p)}
	if v.Phase == factories.WorkPhase && len(p.Dice) > 0 {
		lines = append(lines, "  "+diceView(p))
	}
	lines = append(lines, compoundView("  ", p.Compound, w)...)
	return strings.Join(lines, "\n")
}

// machineView draws The Machine, the solo opponent.
func machineView(t session.Theme, m *factories.Machine, w int) string {
	var names []string
	for _, c := range m.Compound {
		names = append(names, c.Name())
	}
	head := t.Title.Render("THE MACHINE") + fmt.Sprintf("  goods %d", m.Goods)
	if m.Roll != [5]int{} {
		head += fmt.Sprintf(" · last roll %v", m.Roll)
	}
	lines := []string{head}
	if len(names) == 0 {
		return lines[0]
	}
	return strings.Join(append(lines, session.WrapItems("  ", names, " · ", w)...), "\n")
}

// othersView draws every seat but the viewer's (all seats for a
// spectator), and The Machine in solo play, compactly when the full
// drawing would not fit in h lines.
func othersView(t session.Theme, v *factories.View, s session.Seats, w, h int) string {
	draw := func(compact bool) string {
		var blocks []string
		for _, p := range v.Players {
			if p.Seat != v.Seat {
				blocks = append(blocks, opponentView(t, v, p, s, w, compact))
			}
		}
		if v.Machine != nil {
			blocks = append(blocks, machineView(t, v.Machine, w))
		}
		return strings.Join(blocks, "\n")
	}
	if full := draw(false); strings.Count(full, "\n") < h {
		return full
	}
	return draw(true)
}
