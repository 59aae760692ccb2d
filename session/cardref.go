package session

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/engine/factories"
)

// cardRef points at a printed card the seat can see: a blueprint or a
// contractor, and where it lies.
type cardRef struct {
	blueprint    factories.Card
	contractor   factories.Contractor
	isContractor bool
	ok           bool
	where        string
}

func (c cardRef) name() string {
	if c.isContractor {
		return c.contractor.Name()
	}
	return c.blueprint.Name()
}

// visibleCards lists every card the view shows, once per name, in board
// order: marketplace, hand, then each compound. It reads only the view, so
// it can list nothing the seat may not see.
func visibleCards(v *factories.View, names []string) []cardRef {
	var out []cardRef
	seen := map[string]bool{}
	add := func(c cardRef) {
		if !c.ok || seen[c.name()] {
			return
		}
		seen[c.name()] = true
		out = append(out, c)
	}
	if v == nil {
		return nil
	}
	for i, c := range v.Market.Blueprints {
		add(cardRef{blueprint: c, ok: c != factories.None, where: fmt.Sprintf("marketplace blueprint %d", i+1)})
	}
	for i, c := range v.Market.Contractors {
		add(cardRef{contractor: c, isContractor: true, ok: c != factories.None,
			where: fmt.Sprintf("marketplace contractor %d (%s token)", i+1, v.Market.Tools[i])})
	}
	for _, c := range v.Hand {
		add(cardRef{blueprint: c, ok: true, where: "your hand"})
	}
	for _, p := range v.Players {
		for _, b := range p.Compound {
			add(cardRef{blueprint: b.Card, ok: true, where: seatName(names, p.Seat, v.Seat) + " compound"})
		}
	}
	if v.Machine != nil {
		for _, c := range v.Machine.Compound {
			add(cardRef{blueprint: c, ok: true, where: "The Machine's compound"})
		}
	}
	return out
}

// cardText is the full printed card.
func cardText(t Theme, c cardRef, w int) string {
	wrap := lipgloss.NewStyle().Width(w)
	if c.isContractor {
		info := c.contractor.Info()
		cost := "discard a blueprint with the slot's tool"
		if info.Energy > 0 {
			cost += fmt.Sprintf(" and pay %d energy", info.Energy)
		}
		return strings.Join([]string{
			t.Title.Render(info.Name) + t.Dim.Render("  contractor"),
			"To hire: " + cost,
			wrap.Render(info.Text),
			t.Dim.Render("on the board: " + c.where),
		}, "\n")
	}
	info := c.blueprint.Info()
	return strings.Join([]string{
		t.Title.Render(info.Name) + t.Dim.Render("  "+string(info.Type)+" blueprint · ") + t.Tool(info.Tool),
		fmt.Sprintf("To build: %s · Prestige %d", costText(info.Metal, info.Energy), info.Prestige),
		wrap.Render(info.Text),
		t.Dim.Render("on the board: " + c.where),
	}, "\n")
}

// costText words a build cost: "2 metal 1 energy", "free".
func costText(metal, energy int) string {
	var parts []string
	if metal > 0 {
		parts = append(parts, fmt.Sprintf("%d metal", metal))
	}
	if energy > 0 {
		parts = append(parts, fmt.Sprintf("%d energy", energy))
	}
	if len(parts) == 0 {
		return "free"
	}
	return strings.Join(parts, " ")
}

// cardOverlay is the card reference: the selected card's full text above
// the list of every card on the board.
func cardOverlay(t Theme, cards []cardRef, sel, w, h int) string {
	if len(cards) == 0 {
		return t.Title.Render("CARD REFERENCE") + "\n\nno cards on the board yet"
	}
	sel = min(max(sel, 0), len(cards)-1)
	top := t.Title.Render("CARD REFERENCE") + t.Dim.Render(fmt.Sprintf("  %d/%d  ↑/↓ browse · esc close", sel+1, len(cards))) +
		"\n\n" + cardText(t, cards[sel], w) + "\n"
	rows := h - lipgloss.Height(top) - 1
	if rows < 1 {
		return top
	}
	start := max(0, sel-rows/2)
	if start+rows > len(cards) {
		start = max(0, len(cards)-rows)
	}
	lines := []string{}
	for i := start; i < len(cards) && len(lines) < rows; i++ {
		label := cards[i].name() + t.Dim.Render("  "+cards[i].where)
		if i == sel {
			lines = append(lines, "▸ "+t.Selected.Render(cards[i].name())+t.Dim.Render("  "+cards[i].where))
		} else {
			lines = append(lines, "  "+label)
		}
	}
	return top + "\n" + strings.Join(lines, "\n")
}
