package factories

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/smokestack/smokestack/engine"
)

// checkEnd triggers the end of the game once a seat has 12 goods or 10
// buildings (The Machine only by goods): the current round is finished and
// one more is played.
func (g *game) checkEnd() {
	if g.FinalRound != 0 || g.Phase == GameOver {
		return
	}
	cause, by, id, n := "", -1, "", 0
	for seat := range g.Players {
		p := &g.Players[seat] // not a copy: this runs after every move
		switch {
		case p.Goods >= GoodsToEnd:
			cause, by, id, n = fmt.Sprintf("has %d goods", p.Goods), seat, "factories.log.end.goods", p.Goods
		case p.Buildings() >= BuildingsEnd:
			cause, by, id, n = fmt.Sprintf("has %d buildings", p.Buildings()), seat, "factories.log.end.buildings", p.Buildings()
		}
		if cause != "" {
			break
		}
	}
	if cause == "" && g.Machine != nil && g.Machine.Goods >= GoodsToEnd {
		cause, id, n = fmt.Sprintf("has %d goods", g.Machine.Goods), "factories.log.end.machine", g.Machine.Goods
	}
	if cause == "" {
		return
	}
	g.FinalRound = g.Round + 1
	g.EndCause, g.EndSeat = cause, by
	// The room names the seat that triggered it; The Machine names itself.
	who := ""
	if by < 0 {
		who = "The Machine "
	}
	if g.wording() {
		g.emit(by, "end", engine.Say(id, engine.Num("N", n), engine.Num("Round", g.FinalRound)),
			who, cause, ": the end is triggered, round ", strconv.Itoa(g.FinalRound), " is the last")
	}
}

// endRound runs once every seat is done: The Machine's turn in solo play,
// then the round's clean-up, then the next round or the final scores.
func (g *game) endRound() {
	if g.Machine != nil {
		g.machineTurn()
	}
	for i := range g.Players {
		p := &g.Players[i]
		// Extra dice leave; the four own dice stay in front of the player
		// until the next roll, so everyone can see how the round was played.
		p.Dice = slices.DeleteFunc(p.Dice, func(d Die) bool { return d.Extra })
		// Emptied, not dropped: the next round's workers reuse the arrays.
		p.HQ = Headquarters{p.HQ.Research[:0], p.HQ.Generate[:0], p.HQ.Mine[:0]}
		for j := range p.Compound {
			p.Compound[j].Used, p.Compound[j].Dice, p.Compound[j].Copied = false, p.Compound[j].Dice[:0], ""
		}
		p.LabDrew, p.ScrapUsed, p.SolarUsed = false, false, false
		p.Done = false
	}
	g.checkEnd()
	if g.FinalRound != 0 && g.Round >= g.FinalRound {
		g.Phase = GameOver
		g.emit(-1, "over", engine.Say("factories.log.over"), "the game is over")
		return
	}
	g.Round++
	g.First = (g.First + 1) % len(g.Players)
	g.Turn, g.Turns, g.Refreshed = g.First, 0, false
	g.Phase = MarketPhase
	if g.wording() {
		g.emit(-1, "round", engine.Say("factories.log.round", engine.Num("Round", g.Round)), "round ", strconv.Itoa(g.Round), " begins")
	}
}

// Machine dice colours, in the order of Machine.Roll.
const (
	green = iota
	red
	blue
	purple
	yellow
)

// machineTurn plays The Machine: the green die picks its marketplace
// action, and each other die makes a good when it is at most the number of
// its cards of the matching type.
func (g *game) machineTurn() {
	m := g.Machine
	for i := range m.Roll {
		m.Roll[i] = g.RNG.Die()
	}
	// The roll is told first, as it happens, though the goods it makes
	// are known only once the action's card is in the compound.
	first := -1
	if g.events != nil {
		first = len(*g.events)
	}
	defer g.moveLastTo(first)
	take := func(c Card) {
		m.Compound = append(m.Compound, c)
		g.emitCard(-1, "machine", "factories.log.machine.added", c.Name(), "The Machine added ", c.Name(), " to its compound")
	}
	reveal := func() {
		if c, ok := g.draw(); ok {
			take(c)
		}
	}
	switch green := m.Roll[green]; {
	case green <= marketSize:
		if c := g.Market.Blueprints[green-1]; c != None {
			g.Market.Blueprints[green-1] = None
			take(c)
		} else {
			reveal()
		}
	case green == 5:
		reveal()
		g.emit(-1, "machine", engine.Say("factories.log.machine.blueprints"), "The Machine cleared the blueprint row")
		for i, c := range g.Market.Blueprints {
			if c != None {
				g.Discard = append(g.Discard, c)
			}
			g.Market.Blueprints[i] = None
		}
	default:
		reveal()
		g.emit(-1, "machine", engine.Say("factories.log.machine.contractors"), "The Machine cleared the contractor row")
		for i, c := range g.Market.Contractors {
			if c != None {
				g.ContractorDiscard = append(g.ContractorDiscard, c)
			}
			g.Market.Contractors[i] = None
		}
	}
	g.restock()
	var count [len(machineTypes)]int // by machineTypes, not a map: a search plays many turns
	for _, c := range m.Compound {
		if t := c.facts().machineType; t >= 0 {
			count[t]++
		}
	}
	made := 0
	for i, die := range [len(machineTypes)]int{red, blue, purple, yellow} {
		if m.Roll[die] <= count[i] {
			made++
		}
	}
	m.Goods += made
	if g.wording() {
		g.emit(-1, "machine", engine.Say("factories.log.machine.roll", engine.Num("Green", m.Roll[green]), engine.Num("Red", m.Roll[red]),
			engine.Num("Blue", m.Roll[blue]), engine.Num("Purple", m.Roll[purple]), engine.Num("Yellow", m.Roll[yellow]),
			engine.ListArg("Made", amount(nGoods, made))), fmt.Sprintf("The Machine rolled %d %d %d %d %d (green red blue purple yellow) and made %s",
			m.Roll[green], m.Roll[red], m.Roll[blue], m.Roll[purple], m.Roll[yellow], plural(made, "good")))
	}
}

// moveLastTo moves the newest event to index i of the events, after
// those before it; nothing when events are not kept (i < 0) or none came
// since i.
func (g *game) moveLastTo(i int) {
	if i < 0 || g.events == nil || len(*g.events) <= i+1 {
		return
	}
	ev := *g.events
	last := ev[len(ev)-1]
	copy(ev[i+1:], ev[i:len(ev)-1])
	ev[i] = last
}

// Score is one final result. The Machine's score has Seat -1 and Machine set.
type Score struct {
	Seat     int  `json:"seat"`
	Machine  bool `json:"machine,omitempty"`
	Goods    int  `json:"goods"`
	Prestige int  `json:"prestige"`
	Total    int  `json:"total"`
	Metal    int  `json:"metal"`
	Energy   int  `json:"energy"`
	Hand     int  `json:"hand"`
	Rank     int  `json:"rank"` // 1 for the winners
	Winner   bool `json:"winner"`
}

// Scores ranks the seats: goods + prestige, then most metal, most energy
// and most cards in hand; seats still tied share the place. In solo play the
// player wins only with more points than The Machine, whose score is its
// goods, its cards and 1 more per Monument.
func Scores(s State) []Score {
	var out []Score
	for seat, p := range s.Players {
		pr := prestige(p.Compound)
		out = append(out, Score{Seat: seat, Goods: p.Goods, Prestige: pr, Total: p.Goods + pr,
			Metal: p.Metal, Energy: p.Energy, Hand: len(p.Hand)})
	}
	if s.Machine != nil {
		ms := Score{Seat: -1, Machine: true, Goods: s.Machine.Goods}
		for _, c := range s.Machine.Compound {
			ms.Prestige++
			if c.Info().Type == Monument {
				ms.Prestige++
			}
		}
		ms.Total = ms.Goods + ms.Prestige
		me := &out[0]
		me.Winner = me.Total > ms.Total
		ms.Winner = !me.Winner
		me.Rank, ms.Rank = 1, 1
		if me.Winner {
			ms.Rank = 2
		} else {
			me.Rank = 2
		}
		return append(out, ms)
	}
	order := func(a, b Score) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), cmp.Compare(b.Metal, a.Metal),
			cmp.Compare(b.Energy, a.Energy), cmp.Compare(b.Hand, a.Hand))
	}
	slices.SortStableFunc(out, order)
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && order(out[i-1], out[i]) == 0 {
			out[i].Rank = out[i-1].Rank
		}
		out[i].Winner = out[i].Rank == 1
	}
	return out
}
