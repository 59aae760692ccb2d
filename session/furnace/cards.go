package furnace

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/session/kit"
)

// Cards implements kit.Board: every card the view shows, in board
// order: the market, the viewer's cards, the other seats' cards, the
// capitalists, then the cards out of the game. Where says whose a card is
// and its state, so the reference is also the long form of every row the
// board had to shorten.
func (b *board) Cards(s kit.Seats) []kit.CardRef {
	v := b.v
	var out []kit.CardRef
	for i, l := range v.Market {
		where := fmt.Sprintf("market card %d", i+1)
		if v.Phase == furnace.ResolvePhase {
			where = "being resolved"
			if i > 0 {
				where = fmt.Sprintf("to resolve, %s in line", ordinal(i+1))
			}
		}
		if d := discsText(v, l, s, long); d != "" {
			where += " · discs " + d
		}
		out = append(out, cardRef(l.Card, where))
	}
	seats := make([]int, 0, len(v.Players))
	if v.Seat >= 0 && v.Seat < len(v.Players) {
		seats = append(seats, v.Seat)
	}
	for seat := range v.Players {
		if seat != v.Seat {
			seats = append(seats, seat)
		}
	}
	for _, seat := range seats {
		p := v.Players[seat]
		whose := strings.ToLower(s.Whose(seat))
		for _, o := range p.Cards {
			where := whose + " cards"
			if o.Upgraded {
				where += " · upgraded"
			}
			if o.Used && v.Phase == furnace.ProductionPhase {
				where += " · resolved this round"
			}
			out = append(out, cardRef(o.Card, where))
		}
		for _, c := range p.New {
			out = append(out, cardRef(c, whose+" cards · won this round, to place in the chain"))
		}
	}
	for _, seat := range seats {
		if c := v.Players[seat].Capitalist; c != "" {
			out = append(out, kit.CardRef{Key: "capitalist:" + string(c), Name: c.Name(), Where: strings.ToLower(s.Whose(seat)) + " capitalist"})
		}
	}
	for _, c := range v.Removed {
		out = append(out, cardRef(c, "out of the game"))
	}
	return out
}

// CardText implements kit.Board: a card's lines in words, what they
// mean, and how sure the card data is.
func (b *board) CardText(t kit.Theme, c kit.CardRef, w int) string {
	wrap := lipgloss.NewStyle().Width(w)
	kind, id, _ := strings.Cut(c.Key, ":")
	var lines []string
	switch kind {
	case "capitalist":
		k := furnace.Capitalist(id).Info()
		if k.ID == "" {
			return t.Title.Render(c.Name) + "\n" + t.Dim.Render("not a card of this game")
		}
		lines = []string{t.Title.Render(k.Name) + t.Dim.Render("  capitalist"), wrap.Render(k.Power)}
		if k.ID == furnace.Arthur {
			lines = append(lines, wrap.Render(arthurTiming(b.v.Config.Arthur)))
		}
		lines = append(lines, wrap.Render(confidence(k.Confidence, k.Note)))
	default:
		card, ok := furnace.CardByID(id)
		if !ok {
			return t.Title.Render(c.Name) + "\n" + t.Dim.Render("not a card of this game")
		}
		if card.IsStart() {
			lines = startText(t, card, wrap)
		} else {
			lines = companyText(t, card, wrap)
		}
	}
	return strings.Join(append(lines, t.Dim.Render(wrap.Render("on the board: "+c.Where))), "\n")
}

// companyText is a company: both sides, the compensation and the data's
// confidence.
func companyText(t kit.Theme, c furnace.Card, wrap lipgloss.Style) []string {
	co := c.Company()
	basic, upgraded := c.Lines(false), c.Lines(true)
	comp := "Compensation, for each disc that loses this card: "
	if co.Compensation.Processing() {
		comp += long.line(co.Compensation) + ", up to the disc's value in times (optional)."
	} else {
		comp += long.line(co.Compensation) + " times the disc's value (a 3 gets three times that)."
	}
	return []string{
		t.Title.Render(co.ID) + t.Dim.Render("  company"),
		wrap.Render("Basic side: " + long.lines(basic, "; then ")),
		wrap.Render("Upgraded side: " + long.lines(upgraded, "; then ")),
		wrap.Render(comp),
		t.Dim.Render(wrap.Render("+ is always received; ×N may be done 0 to N times, paid from what you hold.")),
		wrap.Render(confidence(co.Confidence, co.Note)),
	}
}

// startText is a start card: its three lines and what it gave at setup.
func startText(t kit.Theme, c furnace.Card, wrap lipgloss.Style) []string {
	st := c.Start()
	return []string{
		t.Title.Render(st.ID) + t.Dim.Render("  start card (one side)"),
		wrap.Render("Lines: " + long.lines(c.Lines(false), "; then ") + "."),
		wrap.Render("Upgrades are open while this is the card you resolved last: resolving any other card, or Done, closes them."),
		wrap.Render("At setup it gave " + long.goods(st.Resources) + ", once."),
		wrap.Render(confidence(st.Confidence, st.Note)),
	}
}

// confidence says plainly how sure a card's data is, as cards.json marks
// it.
func confidence(mark, note string) string {
	var text string
	switch mark {
	case "A":
		text = "Data: a published fact (A), confirmed by two independent public sources."
	case "B":
		text = "Data: single-source (B), from one detailed public source."
	case "C":
		text = "Data: doubtful (C)."
	case "stand-in":
		text = "Data: a STAND-IN value, invented because the real one is not public."
	default:
		text = "Data: confidence " + mark + "."
	}
	if note != "" {
		text += " Note: " + note + "."
	}
	return text
}

// arthurTiming says when Arthur's neutral disc is placed in this game.
func arthurTiming(a furnace.ArthurTiming) string {
	if a == furnace.ArthurPaired {
		return "In this game the neutral 2 is placed together with another of his discs, on a different card (the arthur option: paired)."
	}
	return "In this game the neutral 2 is placed on a turn of its own, like a fifth disc (the arthur option: alone)."
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}
