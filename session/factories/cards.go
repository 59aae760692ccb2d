package factories

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/session/kit"
)

// Card keys tell blueprints from contractors: "blueprint:Foundry",
// "contractor:Architect".
func blueprintRef(c factories.Card, where string) kit.CardRef {
	return kit.CardRef{Key: "blueprint:" + c.Name(), Name: c.Name(), Where: where}
}

func contractorRef(c factories.Contractor, where string) kit.CardRef {
	return kit.CardRef{Key: "contractor:" + c.Name(), Name: c.Name(), Where: where}
}

// boardRules are the parts of the board that are not cards, as the card
// reference explains them: i on the Headquarters, a refresh or Done
// explains that, not some card.
var boardRules = map[string]struct{ name, text string }{
	"headquarters": {"Headquarters", "Three actions, each with 3 places for dice. Research takes any die: draw 1 blueprint. " +
		"Generate takes a 1, 2 or 3: gain that much energy. Mine takes a 4, 5 or 6: gain 1 metal. " +
		"Matching bonus: a die showing the same number as one already on that action gives 1 more " +
		"(a blueprint, energy or metal); three alike give 2 more in all."},
	"refresh": {"Refreshing a row", "Once in your market turn, before you take or hire, you may pay 1 metal or 1 energy " +
		"to replace all 4 blueprints or all 4 contractors in the marketplace with new ones."},
	"pass": {"Passing", "You may pass your market turn only when you can neither take a blueprint nor hire a contractor."},
	"limits": {"Limits at the end of the work phase", "When you are done working you keep at most 12 resources " +
		"(metal and energy together) and 10 cards in hand; you choose what to discard."},
	"done": {"Done", "Say you have finished the work phase: you can do nothing more this round. When every seat is done " +
		"the round ends (in solo play The Machine takes its turn first) and the next market phase begins."},
	"undo": {"Taking a move back", "u takes back your last move of this work phase, then the one before, as long as they " +
		"drew, showed and rolled nothing: a research or any other draw, a build (it shows a card from your hand), " +
		"the Black Market, a roll or reroll, triggering the end, and Done stand for good, with every move before them. " +
		"The others see the board as it was; their log says only that you took a move back. " +
		"The market phase has nothing to take back: every move there shows new cards or passes the turn."},
}

func ruleRef(key, where string) *kit.CardRef {
	r := boardRules[key]
	return &kit.CardRef{Key: "rule:" + key, Name: r.name, Where: where}
}

// Cards implements kit.Board: every card the view shows, once per
// name, in board order: marketplace, hand, then each compound, and the
// Headquarters. It reads only the view, so it can list nothing the seat
// may not see.
func (b *board) Cards(s kit.Seats) []kit.CardRef {
	v := b.v
	var out []kit.CardRef
	seen := map[string]bool{}
	add := func(c kit.CardRef) {
		if !seen[c.Key] {
			seen[c.Key] = true
			out = append(out, c)
		}
	}
	for i, c := range v.Market.Blueprints {
		if c != factories.None {
			add(blueprintRef(c, fmt.Sprintf("marketplace blueprint %d", i+1)))
		}
	}
	for i, c := range v.Market.Contractors {
		if c != factories.None {
			add(contractorRef(c, fmt.Sprintf("marketplace contractor %d (%s token)", i+1, v.Market.Tools[i])))
		}
	}
	for _, c := range v.Hand {
		add(blueprintRef(c, "your hand"))
	}
	for _, p := range v.Players {
		for _, bl := range p.Compound {
			add(blueprintRef(bl.Card, s.Whose(p.Seat)+" compound"))
		}
	}
	if v.Machine != nil {
		for _, c := range v.Machine.Compound {
			add(blueprintRef(c, "The Machine's compound"))
		}
	}
	add(*ruleRef("headquarters", "your board"))
	for _, key := range []string{"refresh", "limits", "done"} {
		add(*ruleRef(key, "how to play"))
	}
	if slices.ContainsFunc(v.Legal, func(m factories.Move) bool { return m.Kind == factories.Undo }) {
		add(*ruleRef("undo", "how to play"))
	}
	return out
}

// CardText implements kit.Board: the full printed card.
func (b *board) CardText(t kit.Theme, c kit.CardRef, w int) string {
	wrap := lipgloss.NewStyle().Width(w)
	kind, name, _ := strings.Cut(c.Key, ":")
	if r, ok := boardRules[name]; ok && kind == "rule" {
		// The last line, which a preview leaves out, points to the rules.
		return strings.Join([]string{t.Title.Render(r.name) + t.Dim.Render("  how it works"), wrap.Render(r.text),
			t.Dim.Render("more in the rules: press r")}, "\n")
	}
	if kind == "contractor" {
		found := factories.ContractorsNamed(name)
		if len(found) == 0 {
			return t.Title.Render(c.Name) + "\n" + t.Dim.Render("not a card of this game")
		}
		info := found[0].Info()
		cost := "discard a blueprint with the slot's tool"
		if info.Energy > 0 {
			cost += fmt.Sprintf(" and pay %d energy", info.Energy)
		}
		return strings.Join([]string{
			t.Title.Render(info.Name) + t.Dim.Render("  contractor"),
			"To hire: " + cost,
			wrap.Render(info.Text),
			t.Dim.Render("on the board: " + c.Where),
		}, "\n")
	}
	found := factories.CardsNamed(name)
	if len(found) == 0 {
		return t.Title.Render(c.Name) + "\n" + t.Dim.Render("not a card of this game")
	}
	info := found[0].Info()
	return strings.Join([]string{
		t.Title.Render(info.Name) + t.Dim.Render("  "+string(info.Type)+" blueprint · ") + toolText(t, info.Tool),
		fmt.Sprintf("To build: %s · Prestige %d", costText(info.Metal, info.Energy), info.Prestige),
		wrap.Render(info.Text),
		t.Dim.Render("on the board: " + c.Where),
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
