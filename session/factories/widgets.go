package factories

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/session/kit"
)

// The board's widgets: each draws one part of the game from the seat's view
// and returns lines no wider than asked (fit cuts anything longer).

// marketView draws the marketplace: four blueprints with tool, cost and
// prestige, and the four contractors under their tool tokens.
func marketView(t kit.Theme, v *factories.View, w int) string {
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
func padTool(t kit.Theme, tool factories.Tool) string {
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

// diceView draws a player's dice in the work phase: the free ones' values,
// extra dice that leave at round end with a "+", unset dice as "?", and
// how many are placed. In the market phase the dice wait for the next roll, so the
// last round's faces are not shown as if they were this round's.
func diceView(v *factories.View, p factories.PlayerView) string {
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
	out := ""
	switch {
	case v.Phase == factories.MarketPhase:
		out = "dice: rolled when the work phase begins"
	case len(p.Dice) == 0:
		out = "dice: none"
	default:
		// Placed dice show where they were placed (the Headquarters, a
		// building's [3,4]): here only the free ones and how many are out.
		var free []string
		placed := 0
		for _, d := range p.Dice {
			s := "?"
			if d.Value > 0 {
				s = fmt.Sprint(d.Value)
			}
			if d.Extra {
				s = "+" + s
			}
			if d.Placed {
				placed++
			} else {
				free = append(free, s)
			}
		}
		out = "dice: " + strings.Join(free, " ")
		switch {
		case len(free) == 0:
			out = "dice: all placed"
		case placed > 0:
			out += fmt.Sprintf(" · %d placed", placed)
		}
	}
	if len(hired) > 0 {
		out += " · hired " + strings.Join(hired, ", ")
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

// moreMark ends a list cut short to fit: how many items it leaves out and
// the key that shows every card.
func moreMark(t kit.Theme, n int) string {
	return t.Dim.Render(fmt.Sprintf("+%d more (i)", n))
}

// listLines wraps items after prefix into at most max lines of width w.
// When they need more, the last line ends with a "+N more (i)" mark
// instead: a list is shortened, never cut silently.
func listLines(t kit.Theme, prefix string, items []string, w, max int) []string {
	lines := kit.WrapItems(prefix, items, " · ", w)
	if len(lines) <= max || max < 1 {
		return lines
	}
	for n := len(items) - 1; n >= 0; n-- {
		kept := append(append([]string{}, items[:n]...), moreMark(t, len(items)-n))
		if lines := kit.WrapItems(prefix, kept, " · ", w); len(lines) <= max {
			return lines
		}
	}
	return []string{prefix + moreMark(t, len(items))}
}

// compoundLines lists a compound's buildings in at most max lines of w.
func compoundLines(t kit.Theme, prefix string, compound []factories.Building, w, max int) []string {
	if len(compound) == 0 {
		return []string{prefix + t.Dim.Render("no buildings yet")}
	}
	items := make([]string, len(compound))
	for i, b := range compound {
		items[i] = buildingLabel(b)
	}
	return listLines(t, prefix, items, w, max)
}

// handLines lists the seat's own hand grouped by tool, one line a tool,
// since building takes a discard of the same tool: what the seat can pay
// with shows at a glance. At most max lines of w.
func handLines(t kit.Theme, hand []factories.Card, w, max int) []string {
	if len(hand) == 0 {
		return []string{"hand: empty"}
	}
	byTool := map[factories.Tool][]string{}
	for _, c := range hand {
		tool := c.Info().Tool
		byTool[tool] = append(byTool[tool], c.Name())
	}
	head := fmt.Sprintf("hand (%d) ", len(hand))
	indent := strings.Repeat(" ", len(head))
	var lines []string
	for _, tool := range factories.Tools() {
		names := byTool[tool]
		if len(names) == 0 {
			continue
		}
		slices.Sort(names)
		prefix := indent
		if len(lines) == 0 {
			prefix = head
		}
		label := toolText(t, tool) + ": "
		hang := indent + strings.Repeat(" ", ansi.StringWidth(label))
		lines = append(lines, kit.WrapHanging(prefix+label, hang, names, " · ", w)...)
	}
	if len(lines) <= max {
		return lines
	}
	// Too many to list by tool: the names alone, shortened with a mark.
	var names []string
	for _, c := range hand {
		names = append(names, c.Name())
	}
	slices.Sort(names)
	return listLines(t, head, names, w, max)
}

// score is a seat's points so far: goods and prestige.
func score(p factories.PlayerView) int { return p.Goods + p.Prestige }

// machineScore is The Machine's points: a point a good, a building, and
// one more a Monument.
func machineScore(m *factories.Machine) int {
	n := m.Goods + len(m.Compound)
	for _, c := range m.Compound {
		if c.Info().Type == factories.Monument {
			n++
		}
	}
	return n
}

// youView draws the seat's own area in at most h lines: resources, dice,
// Headquarters, compound and hand, shortened (with marks) to fit.
func youView(t kit.Theme, v *factories.View, s kit.Seats, w, h int) string {
	p := v.You()
	title := t.Title.Render("YOU") + " " + s.Label(t, v.Seat)
	if v.Machine != nil {
		title += fmt.Sprintf(" · %d vs The Machine %d", score(p), machineScore(v.Machine))
	}
	lines := []string{title, resources(p), diceView(v, p), hqView(p.HQ)}
	room := h - len(lines)
	hand := handLines(t, v.Hand, w, max(1, room-1))
	compound := compoundLines(t, "compound: ", p.Compound, w, max(1, room-len(hand)))
	lines = append(lines, compound...)
	lines = append(lines, hand...)
	return strings.Join(lines, "\n")
}

// seatState is a seat's state mark: choosing in the market, working or
// done in the work phase.
func seatState(t kit.Theme, v *factories.View, seat int, done bool) string {
	switch {
	case v.Phase == factories.MarketPhase && v.Turn == seat:
		return t.Accent.Render("▶ choosing")
	case v.Phase == factories.WorkPhase && done:
		return t.Dim.Render("✓ done")
	case v.Phase == factories.WorkPhase:
		return t.Accent.Render("… working")
	}
	return ""
}

// othersView draws every seat but the viewer's (all seats for a
// spectator), and The Machine in solo play, in at most h lines of w. Each
// seat gets its name and state, a line of numbers and its compound; when
// lines are short, the compound is shortened with a mark and then the
// numbers share the name's line. Only hand sizes are shown, never a hand.
func othersView(t kit.Theme, v *factories.View, s kit.Seats, w, h int) string {
	var others []factories.PlayerView
	for _, p := range v.Players {
		if p.Seat != v.Seat {
			others = append(others, p)
		}
	}
	var lines []string
	if v.Machine != nil {
		lines = machineView(t, v.Machine, w, max(1, h-3*len(others)-1))
	}
	room := h - len(lines)
	for i, p := range others {
		budget := room / (len(others) - i) // an even share of what is left
		seat := seatLines(t, v, s, p, w, budget)
		room -= len(seat)
		lines = append(lines, seat...)
	}
	return strings.Join(lines, "\n")
}

// seatLines draws one other seat in about budget lines (at least one).
func seatLines(t kit.Theme, v *factories.View, s kit.Seats, p factories.PlayerView, w, budget int) []string {
	name := s.Label(t, p.Seat)
	if st := seatState(t, v, p.Seat, p.Done); st != "" {
		name += " " + st
	}
	numbers := fmt.Sprintf("goods %d ★%d · hand %d · %dm %de", p.Goods, p.Prestige, p.HandSize, p.Metal, p.Energy)
	dice := v.Phase == factories.WorkPhase && len(p.Dice) > 0
	switch {
	case budget >= 4 && dice:
		return append([]string{name, "  " + numbers, "  " + diceView(v, p)}, compoundLines(t, "  ", p.Compound, w, budget-3)...)
	case budget >= 3:
		return append([]string{name, "  " + numbers}, compoundLines(t, "  ", p.Compound, w, budget-2)...)
	case budget == 2 && ansi.StringWidth(name+"  "+numbers) <= w:
		return append([]string{name + "  " + numbers}, compoundLines(t, "  ", p.Compound, w, 1)...)
	case budget == 2:
		return []string{name, "  " + numbers + fmt.Sprintf(" · %d bldg (i)", len(p.Compound))}
	}
	return []string{name + "  " + numbers}
}

// machineView draws The Machine, the solo opponent: its score, goods and
// last roll, then its compound in at most h more lines.
func machineView(t kit.Theme, m *factories.Machine, w, h int) []string {
	lines := []string{t.Title.Render("THE MACHINE") + fmt.Sprintf("  %d points · %d goods", machineScore(m), m.Goods)}
	if m.Roll != [5]int{} {
		roll := fmt.Sprintf("  last roll %d %d %d %d %d", m.Roll[0], m.Roll[1], m.Roll[2], m.Roll[3], m.Roll[4])
		if legend := " (green red blue purple yellow)"; ansi.StringWidth(roll+legend) <= w {
			roll += t.Dim.Render(legend)
		}
		lines = append(lines, roll)
	}
	var names []string
	for _, c := range m.Compound {
		names = append(names, c.Name())
	}
	if len(names) == 0 {
		return lines
	}
	return append(lines, listLines(t, "  ", names, w, max(1, h-len(lines)))...)
}
