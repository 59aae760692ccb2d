package furnace

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine"
)

// startAuction begins a round: the deck is shuffled, players + 4 cards are
// dealt to the market, everyone takes their discs back, and the first
// player places first.
func (g *game) startAuction() {
	g.Phase, g.Placed = AuctionPhase, 0
	g.shuffle()
	n := min(len(g.Players)+extraLots, len(g.Deck))
	g.Market = make([]Lot, n)
	// One array holds every card's discs, space for the most a card can
	// take (4 values, and Monica's 4 on top), so placing never allocates.
	discs := make([]Disc, n*maxDiscs)
	for i, c := range g.Deck[:n] {
		g.Market[i] = Lot{Card: c, Discs: discs[i*maxDiscs : i*maxDiscs : (i+1)*maxDiscs]}
	}
	g.Deck = g.Deck[n:]
	for i := range g.Players {
		p := &g.Players[i]
		p.Bidder = Bidder{Discs: allDiscs}
		p.Neutral = p.Capitalist == Arthur
	}
	if g.Agent != nil {
		*g.Agent = Agent{Bidder: Bidder{Discs: allDiscs}}
	}
	if g.log {
		ids := make([]string, len(g.Market))
		words := make([]engine.Words, len(g.Market))
		for i, l := range g.Market {
			ids[i], words[i] = l.Card.ID(), idWords(l.Card)
		}
		g.emit(-1, "round", fmt.Sprintf("round %d: %s up for auction", g.Round, strings.Join(ids, ", ")),
			engine.Say("furnace.log.round", engine.Num("Round", g.Round), engine.ItemsArg("Cards", words...)))
	}
	g.nextBidder(g.First)
}

// lot returns the market position of c, or -1.
func (s *State) lot(c Card) int {
	for i := range s.Market {
		if s.Market[i].Card == c {
			return i
		}
	}
	return -1
}

// bid places a disc for the seat whose turn it is.
func (g *game) bid(m Move) error {
	if g.seat != g.Turn {
		return refuse("it is not your turn to place a disc", "furnace.refuse.notYourTurn")
	}
	p := g.me()
	i := g.lot(m.Card)
	switch {
	case m.Card == NoCard:
		return refuse("name the market card to place your disc on", "furnace.refuse.nameMarketCard")
	case i < 0:
		return refuse(fmt.Sprintf("%s is not up for auction", cardName(m.Card)), "furnace.refuse.notInMarket", cardArg("Card", m.Card))
	}
	paired := g.Config.Arthur == ArthurPaired
	if m.Neutral {
		return g.bidNeutral(p, i, m, paired)
	}
	if !p.Discs.Has(m.Disc) {
		if m.Disc < 1 || m.Disc > 4 {
			return refuse(fmt.Sprintf("discs are 1 to 4, not %d", m.Disc), "furnace.refuse.discRange", engine.Num("Disc", m.Disc))
		}
		return refuse(fmt.Sprintf("you have no %d left", m.Disc), "furnace.refuse.noDiscLeft", engine.Num("Disc", m.Disc))
	}
	if err := g.canPlace(g.seat, i, m.Disc); err != nil {
		return err
	}
	extra, err := g.pairedExtra(p, m, paired)
	if err != nil {
		return err
	}
	p.Discs &^= 1 << m.Disc
	g.put(i, Disc{Seat: g.seat, Value: m.Disc})
	if extra >= 0 {
		p.Neutral = false
		g.put(extra, Disc{Seat: g.seat, Value: neutralValue, Neutral: true})
	}
	if g.log {
		text := "placed a " + strconv.Itoa(m.Disc) + " on " + m.Card.ID()
		w := engine.Say("furnace.log.bid", engine.Num("Disc", m.Disc), engine.Str("Card", m.Card.ID()))
		if extra >= 0 {
			text += " and the neutral 2 on " + m.Extra.ID()
			w = engine.Say("furnace.log.bid.paired", engine.Num("Disc", m.Disc), engine.Str("Card", m.Card.ID()), engine.Str("Extra", m.Extra.ID()))
		}
		g.emit(g.seat, "bid", text, w)
	}
	g.placed()
	return nil
}

// bidNeutral places Arthur's neutral disc alone, on a turn of its own (the
// base card's reading).
func (g *game) bidNeutral(p *Player, i int, m Move, paired bool) error {
	switch {
	case !p.Neutral || paired:
		if p.Capitalist != Arthur {
			return refuse("only Arthur has the neutral disc", "furnace.refuse.onlyArthur", engine.CardArg("Name", string(Arthur)))
		}
		if paired {
			return refuse("the neutral disc goes with another of your discs: name its card as extra", "furnace.refuse.neutralPaired")
		}
		return refuse("you have placed the neutral disc already", "furnace.refuse.neutralPlaced")
	case m.Extra != NoCard:
		return refuse("the neutral disc goes on one card", "furnace.refuse.neutralOneCard")
	case m.Disc != neutralValue:
		return refuse(fmt.Sprintf("the neutral disc is a %d", neutralValue), "furnace.refuse.neutralValue", engine.Num("Disc", neutralValue))
	}
	if err := g.canPlace(g.seat, i, neutralValue); err != nil {
		return err
	}
	g.put(i, Disc{Seat: g.seat, Value: neutralValue, Neutral: true})
	p.Neutral = false
	if g.log {
		g.emit(g.seat, "bid", "placed the neutral 2 on "+m.Card.ID(), engine.Say("furnace.log.neutral", engine.Str("Card", m.Card.ID())))
	}
	g.placed()
	return nil
}

// pairedExtra checks the card m names for the neutral disc placed with
// another (the updated card's reading), and returns its market position:
// -1 when m names none.
func (g *game) pairedExtra(p *Player, m Move, paired bool) (int, error) {
	if m.Extra == NoCard {
		return -1, nil
	}
	switch {
	case !paired || !p.Neutral:
		if p.Capitalist != Arthur {
			return -1, refuse("only Arthur has the neutral disc", "furnace.refuse.onlyArthur", engine.CardArg("Name", string(Arthur)))
		}
		if !paired {
			return -1, refuse("the neutral disc is placed on a turn of its own: bid it with neutral", "furnace.refuse.neutralAlone")
		}
		return -1, refuse("you have placed the neutral disc already", "furnace.refuse.neutralPlaced")
	case m.Extra == m.Card:
		return -1, refuse("the neutral disc goes on a different card from your other disc", "furnace.refuse.neutralSameCard")
	}
	extra := g.lot(m.Extra)
	if extra < 0 {
		return -1, refuse(fmt.Sprintf("%s is not up for auction", cardName(m.Extra)), "furnace.refuse.notInMarket", cardArg("Card", m.Extra))
	}
	return extra, g.canPlace(g.seat, extra, neutralValue)
}

// cardName names a card in a refusal, even one that does not exist.
func cardName(c Card) string {
	if c == NoCard {
		return "no card"
	}
	return c.ID()
}

// canPlace says why seat may not put a disc of value v on the market card
// at i: no two discs of one value on a card, and never two of one seat's
// (Arthur's neutral disc counts as his). Monica ignores both.
func (g *game) canPlace(seat, i, v int) error {
	if seat >= 0 && g.Players[seat].Capitalist == Monica {
		return nil
	}
	for _, d := range g.Market[i].Discs {
		if d.Value == v {
			return refuse(fmt.Sprintf("%s already has a %d on it", g.Market[i].Card, v), "furnace.refuse.valueTaken",
				cardArg("Card", g.Market[i].Card), engine.Num("Disc", v))
		}
		if d.Seat == seat {
			if seat == AgentSeat {
				return refuse(fmt.Sprintf("the Agent already has a disc on %s", g.Market[i].Card), "furnace.refuse.agentThere",
					cardArg("Card", g.Market[i].Card))
			}
			return refuse(fmt.Sprintf("you already have a disc on %s", g.Market[i].Card), "furnace.refuse.youThere",
				cardArg("Card", g.Market[i].Card))
		}
	}
	return nil
}

// fits is canPlace without the reason, for the searches that call it often.
func (s *State) fits(seat, i, v int) bool {
	if seat >= 0 && s.Players[seat].Capitalist == Monica {
		return true
	}
	for _, d := range s.Market[i].Discs {
		if d.Value == v || d.Seat == seat {
			return false
		}
	}
	return true
}

// put adds a disc to the market card at i.
func (g *game) put(i int, d Disc) {
	g.Market[i].Discs = append(g.Market[i].Discs, d)
}

// hasBid reports whether seat has any legal placement: one of its discs
// (Arthur's neutral disc alone only with the alone timing) fits a card.
func (s *State) hasBid(seat int) bool {
	p := &s.Players[seat]
	alone := p.Neutral && s.Config.Arthur == ArthurAlone
	if p.Discs == 0 && !alone {
		return false
	}
	for i := range s.Market {
		for v := 1; v <= 4; v++ {
			if p.Discs.Has(v) && s.fits(seat, i, v) {
				return true
			}
		}
		if alone && s.fits(seat, i, neutralValue) {
			return true
		}
	}
	return false
}

// placed follows a player's placement: the Agent's after every second
// one, then the next seat with a legal placement, or the end of the
// auction when there is none.
func (g *game) placed() {
	g.Placed++
	if g.Agent != nil && g.Placed%2 == 0 {
		g.agentBids()
	}
	g.nextBidder(g.Turn + 1)
}

// nextBidder gives the turn to the first seat from seat on, clockwise,
// that may still place a disc. A seat with discs but no legal place for
// them is out for the rest of the auction.
func (g *game) nextBidder(seat int) {
	n := len(g.Players)
	for k := range n {
		s := (seat + k) % n
		p := &g.Players[s]
		if p.Out {
			continue
		}
		if !g.hasBid(s) {
			p.Out = true
			if p.Discs != 0 && g.log {
				g.emit(s, "out", "can place no more discs this auction: none fits anywhere", engine.Say("furnace.log.out"))
			}
			continue
		}
		g.Turn = s
		return
	}
	g.endAuction()
}

// agentBids places a disc for the Agent: a die picks the card position
// from the left, and it puts its smallest disc that fits there, trying
// the next card to the right (wrapping round) while none fits. With no
// legal place anywhere it stops for the rest of the auction.
func (g *game) agentBids() {
	a := g.Agent
	if a.Out || a.Discs == 0 {
		a.Out = true
		return
	}
	a.Roll = g.RNG.Die()
	n := len(g.Market)
	for k := range n {
		i := (a.Roll - 1 + k) % n
		v := g.agentDisc(i)
		if v == 0 {
			continue
		}
		a.Discs &^= 1 << v
		g.put(i, Disc{Seat: AgentSeat, Value: v})
		if g.log {
			g.emit(-1, "agent", fmt.Sprintf("the Agent rolled %d and placed a %d on %s (card %d)", a.Roll, v, g.Market[i].Card, i+1),
				engine.Say("furnace.log.agent", engine.Num("Roll", a.Roll), engine.Num("Disc", v), engine.Str("Card", g.Market[i].Card.ID()), engine.Num("At", i+1)))
		}
		return
	}
	a.Out = true
	if g.log {
		g.emit(-1, "agent", fmt.Sprintf("the Agent rolled %d but has no legal place for a disc: it places no more this auction", a.Roll),
			engine.Say("furnace.log.agent.out", engine.Num("Roll", a.Roll)))
	}
}

// agentDisc is the Agent's smallest disc that fits the card at i, or 0.
func (s *State) agentDisc(i int) int {
	for v := 1; v <= 4; v++ {
		if s.Agent.Discs.Has(v) && s.fits(AgentSeat, i, v) {
			return v
		}
	}
	return 0
}

// endAuction moves on to resolving the cards.
func (g *game) endAuction() {
	g.Phase = ResolvePhase
	g.resolve()
}
