package furnace

import (
	"strings"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// Cards implements kit.Board: every card the view shows, in board
// order: the market, the viewer's cards, the other seats' cards, the
// capitalists, then the cards out of the game. Where says whose a card is
// and its state, so the reference is also the long form of every row the
// board had to shorten.
func (b *board) Cards(s kit.Seats) []kit.CardRef {
	v, p := b.v, s.L
	var out []kit.CardRef
	for i, l := range v.Market {
		where := p.T("furnace.where.market", "Pos", i+1)
		if v.Phase == furnace.ResolvePhase {
			where = p.T("furnace.where.resolving")
			if i > 0 {
				where = p.T("furnace.where.inLine", "Pos", i+1)
			}
		}
		if d := discsText(v, l, s, long.in(p)); d != "" {
			where += " · " + p.T("furnace.where.discs", "Discs", d)
		}
		out = append(out, in(cardRef(l.Card, where), kit.PartMarket, -1))
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
		pl := v.Players[seat]
		for _, o := range pl.Cards {
			where := whose(p, s, seat, "furnace.where.cardsOf")
			if o.Upgraded {
				where += " · " + p.T("furnace.where.upgraded")
			}
			if o.Used && v.Phase == furnace.ProductionPhase {
				where += " · " + p.T("furnace.where.resolvedThisRound")
			}
			out = append(out, in(cardRef(o.Card, where), kit.PartBoard, seat))
		}
		for _, c := range pl.New {
			out = append(out, in(cardRef(c, whose(p, s, seat, "furnace.where.cardsOf")+" · "+p.T("furnace.where.toPlace")), kit.PartBoard, seat))
		}
	}
	for _, seat := range seats {
		if c := v.Players[seat].Capitalist; c != "" {
			out = append(out, kit.CardRef{Key: "capitalist:" + string(c), Name: capitalistName(p, c), Where: whose(p, s, seat, "furnace.where.capitalistOf"),
				Part: kit.PartBoard, Seat: seat})
		}
	}
	for _, c := range v.Removed {
		out = append(out, cardRef(c, p.T("furnace.where.out")))
	}
	return out
}

// in places a card in a part of the table.
func in(c kit.CardRef, part string, seat int) kit.CardRef {
	c.Part, c.Seat = part, seat
	return c
}

// whose words a seat's belongings by message id: id+"Yours" for the
// viewer ("your cards"), id with the seat's name for the others ("bob's
// cards").
func whose(p *lang.Printer, s kit.Seats, seat int, id string) string {
	if s.Me(seat) {
		return p.T(id + "Yours")
	}
	return p.T(id, "Name", s.Name(seat))
}

// CardText implements kit.Board: a card's lines in words, what they
// mean, and how sure the card data is.
func (b *board) CardText(t kit.Theme, c kit.CardRef, w int) string {
	p := t.L
	wrap := func(text string) string { return kit.Wrap(text, w) }
	kind, id, _ := strings.Cut(c.Key, ":")
	var lines []string
	switch kind {
	case "capitalist":
		k := furnace.Capitalist(id).Info()
		if k.ID == "" {
			return t.Title.Render(c.Name) + "\n" + t.Dim.Render(p.T("furnace.text.unknown"))
		}
		lines = []string{t.Title.Render(capitalistName(p, k.ID)) + t.Dim.Render("  "+p.T("furnace.text.capitalist")), wrap(power(p, k))}
		if k.ID == furnace.Arthur {
			lines = append(lines, wrap(arthurTiming(p, b.v.Config.Arthur)))
		}
		lines = append(lines, wrap(confidence(p, string(k.ID), k.Confidence, k.Note)))
	default:
		card, ok := furnace.CardByID(id)
		if !ok {
			return t.Title.Render(c.Name) + "\n" + t.Dim.Render(p.T("furnace.text.unknown"))
		}
		if card.IsStart() {
			lines = startText(t, card, wrap)
		} else {
			lines = companyText(t, card, wrap)
		}
	}
	return strings.Join(append(lines, t.Dim.Render(wrap(p.T("furnace.text.where", "Where", c.Where)))), "\n")
}

// power is a capitalist's power in the reader's language.
func power(p *lang.Printer, k furnace.CapitalistCard) string {
	return p.Or("furnace.power."+string(k.ID), k.Power)
}

// companyText is a company: both sides, the compensation and the data's
// confidence.
func companyText(t kit.Theme, c furnace.Card, wrap func(string) string) []string {
	p, long := t.L, long.in(t.L)
	co := c.Company()
	basic, upgraded := c.Lines(false), c.Lines(true)
	then := p.T("furnace.text.then")
	comp := p.T("furnace.text.compensationTimes", "Line", long.line(co.Compensation))
	if co.Compensation.Processing() {
		comp = p.T("furnace.text.compensationUpTo", "Line", long.line(co.Compensation))
	}
	kind := p.T("furnace.text.company")
	if co.Confidence == "stand-in" {
		kind += " · " + p.T("furnace.text.standIn")
	}
	return []string{
		wrap(t.Title.Render(co.ID) + t.Dim.Render("  "+kind)),
		wrap(p.T("furnace.text.basic", "Lines", long.lines(basic, then))),
		wrap(p.T("furnace.text.upgraded", "Lines", long.lines(upgraded, then))),
		wrap(comp),
		t.Dim.Render(wrap(p.T("furnace.text.reading"))),
		wrap(confidence(p, co.ID, co.Confidence, co.Note)),
	}
}

// startText is a start card: its three lines and what it gave at setup.
func startText(t kit.Theme, c furnace.Card, wrap func(string) string) []string {
	p, long := t.L, long.in(t.L)
	st := c.Start()
	return []string{
		t.Title.Render(st.ID) + t.Dim.Render("  "+p.T("furnace.text.start")),
		wrap(p.T("furnace.text.startLines", "Lines", long.lines(c.Lines(false), p.T("furnace.text.then")))),
		wrap(p.T("furnace.text.startOpen")),
		wrap(p.T("furnace.text.setup", "Goods", long.goods(st.Resources))),
		wrap(confidence(p, st.ID, st.Confidence, st.Note)),
	}
}

// confidence says plainly how sure a card's data is, as cards.json marks
// it, with the card's note in the reader's language (furnace.note.ID)
// where the catalogue has it.
func confidence(p *lang.Printer, id, mark, note string) string {
	var text string
	switch mark {
	case "A":
		text = p.T("furnace.data.a")
	case "B":
		text = p.T("furnace.data.b")
	case "C":
		text = p.T("furnace.data.c")
	case "stand-in":
		text = p.T("furnace.data.standIn")
	default:
		text = p.T("furnace.data.mark", "Mark", mark)
	}
	if note != "" {
		text += " " + p.T("furnace.data.note", "Note", cardNote(p, id, note))
	}
	return text
}

// cardNote is a card's note on its data in the reader's language.
func cardNote(p *lang.Printer, id, note string) string {
	return p.Or("furnace.note."+id, note)
}

// arthurTiming says when Arthur's neutral disc is placed in this game.
func arthurTiming(p *lang.Printer, a furnace.ArthurTiming) string {
	if a == furnace.ArthurPaired {
		return p.T("furnace.text.arthurPaired")
	}
	return p.T("furnace.text.arthurAlone")
}
