package factories

import (
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/session/kit"
)

// Card keys tell blueprints from contractors: "blueprint:Foundry",
// "contractor:Architect"; a card's Name is its printed name in the
// reader's language.
func blueprintRef(t kit.Theme, c factories.Card, where string) kit.CardRef {
	return kit.CardRef{Key: "blueprint:" + c.Name(), Name: cardName(t, c.Name()), Where: where}
}

func contractorRef(t kit.Theme, c factories.Contractor, where string) kit.CardRef {
	return kit.CardRef{Key: "contractor:" + c.Name(), Name: cardName(t, c.Name()), Where: where}
}

// boardRules are the parts of the board that are not cards, as the card
// reference explains them (i on the Headquarters, a refresh or Done
// explains that, not some card): each key's name and text are the
// catalogue's factories.rule.KEY.name and .text.
var boardRules = map[string]bool{"headquarters": true, "refresh": true, "pass": true, "limits": true, "done": true, "undo": true}

func ruleRef(t kit.Theme, key, where string) *kit.CardRef {
	return &kit.CardRef{Key: "rule:" + key, Name: t.L.T("factories.rule." + key + ".name"), Where: where}
}

// Cards implements kit.Board: every card the view shows, once per
// name, in board order: marketplace, hand, then each compound, and the
// Headquarters. It reads only the view, so it can list nothing the seat
// may not see.
func (b *board) Cards(s kit.Seats) []kit.CardRef {
	v, t := b.v, kit.Theme{L: s.L}
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
			add(in(blueprintRef(t, c, tf(t, "factories.where.market_blueprint", "Slot", i+1)), kit.PartMarket, -1))
		}
	}
	for i, c := range v.Market.Contractors {
		if c != factories.None {
			add(in(contractorRef(t, c, tf(t, "factories.where.market_contractor_token", "Slot", i+1, "Tool", term(t, string(v.Market.Tools[i])))), kit.PartMarket, -1))
		}
	}
	for _, c := range v.Hand {
		add(in(blueprintRef(t, c, t.L.T("factories.where.hand")), kit.PartHand, v.Seat))
	}
	for _, p := range v.Players {
		where := tf(t, "factories.where.compound_of", "Name", s.Name(p.Seat))
		if s.Me(p.Seat) {
			where = t.L.T("factories.where.compound")
		}
		for _, bl := range p.Compound {
			add(in(blueprintRef(t, bl.Card, where), kit.PartBoard, p.Seat))
		}
	}
	if v.Machine != nil {
		for _, c := range v.Machine.Compound {
			add(blueprintRef(t, c, t.L.T("factories.where.machine")))
		}
	}
	add(*ruleRef(t, "headquarters", t.L.T("factories.where.board")))
	for _, key := range []string{"refresh", "limits", "done"} {
		add(*ruleRef(t, key, t.L.T("factories.where.how_to_play")))
	}
	if slices.ContainsFunc(v.Legal, func(m factories.Move) bool { return m.Kind == factories.Undo }) {
		add(*ruleRef(t, "undo", t.L.T("factories.where.how_to_play")))
	}
	return out
}

// in places a card in a part of the table.
func in(c kit.CardRef, part string, seat int) kit.CardRef {
	c.Part, c.Seat = part, seat
	return c
}

// CardText implements kit.Board: the full printed card.
func (b *board) CardText(t kit.Theme, c kit.CardRef, w int) string {
	wrap := lipgloss.NewStyle().Width(w)
	kind, name, _ := strings.Cut(c.Key, ":")
	where := t.Dim.Render(tf(t, "factories.card_text.where", "Where", c.Where))
	if kind == "rule" && boardRules[name] {
		// The last line, which a preview leaves out, points to the rules.
		return strings.Join([]string{t.Title.Render(t.L.T("factories.rule."+name+".name")) +
			t.Dim.Render("  "+t.L.T("factories.card_text.how")), wrap.Render(t.L.T("factories.rule." + name + ".text")),
			t.Dim.Render(t.L.T("factories.card_text.more"))}, "\n")
	}
	unknown := t.Title.Render(c.Name) + "\n" + t.Dim.Render(t.L.T("factories.card_text.unknown"))
	if kind == "contractor" {
		found := factories.ContractorsNamed(name)
		if len(found) == 0 {
			return unknown
		}
		info := found[0].Info()
		cost := t.L.T("factories.card_text.hire")
		if info.Energy > 0 {
			cost = tf(t, "factories.card_text.hire_energy", "Energy", info.Energy)
		}
		return strings.Join([]string{
			t.Title.Render(cardName(t, info.Name)) + t.Dim.Render("  "+t.L.T("factories.card_text.contractor")),
			cost,
			wrap.Render(cardText(t, info.Name, info.Text)),
			where,
		}, "\n")
	}
	found := factories.CardsNamed(name)
	if len(found) == 0 {
		return unknown
	}
	info := found[0].Info()
	return strings.Join([]string{
		t.Title.Render(cardName(t, info.Name)) +
			t.Dim.Render("  "+tf(t, "factories.card_text.blueprint", "Type", term(t, string(info.Type)))+" · ") + toolText(t, info.Tool),
		tf(t, "factories.card_text.build", "Cost", costText(t, info.Metal, info.Energy), "Prestige", info.Prestige),
		wrap.Render(cardText(t, info.Name, info.Text)),
		where,
	}, "\n")
}

// cardText is a card's text in the theme's language (factories.text.KEY),
// or as cards.json prints it in English.
func cardText(t kit.Theme, name, english string) string {
	if s := word(t, "factories.text.", name); s != name {
		return s
	}
	return english
}
