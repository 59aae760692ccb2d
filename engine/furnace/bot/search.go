package bot

import (
	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
)

// search plays the auction by determinized rollouts and everything else
// as greedy does. The auction is where Furnace is won: greedy prices a
// disc with fixed guesses of how often a rival outbids it, where search
// plays each placement on to the end of the auction, every seat bidding
// by greedy's own pricing with some noise, the cards resolved by the
// engine, and compares the positions it leaves (see docs/bots.md).
//
// Only the view is used. The deck's order and the generator that rolls
// the Agent's die are hidden: each rollout world deals them anew from the
// bot's own generator (guess), so the real ones can tell it nothing.
type search struct {
	greedy *greedy // compensation and production, which depend on no one else
	rng    engine.RNG
	legal  []furnace.Move // reused by the rollouts
	prices prices
}

// Limits of an auction decision: a budget of rollouts spread over the
// legal placements, within a range of worlds per placement. A budget in
// rollouts, not time, so a seeded game replays the same on any machine;
// sized for a decision p99 well under 250 ms on one core (see docs/bots.md).
const (
	searchRollouts = 800
	minWorlds      = 8
	maxWorlds      = 64
)

// bidNoise is how far, in money, the rollouts may misjudge a placement
// when they play a rival: a rival priced exactly as greedy prices would
// be a rival the search learns to exploit and no one else plays like.
const bidNoise = 2.0

func newSearch(seed uint64) Bot {
	r := engine.NewRNG(seed)
	return &search{greedy: &greedy{rng: engine.NewRNG(r.Uint64())}, rng: r}
}

func (*search) Name() string { return "search" }

func (b *search) Choose(v furnace.View) furnace.Move {
	if v.Phase != furnace.AuctionPhase || len(v.Legal) < 2 {
		return b.greedy.Choose(v)
	}
	return b.bid(&v)
}

// bid scores each legal placement by its mean outcome over rollout
// worlds, the same worlds (deck, die rolls and noise) for every one.
func (b *search) bid(v *furnace.View) furnace.Move {
	worlds := min(max(searchRollouts/len(v.Legal), minWorlds), maxWorlds)
	totals := make([]float64, len(v.Legal))
	b.prices.fill(v)
	for range worlds {
		w := guess(v, &b.rng)
		noise := b.rng.Uint64()
		for i, m := range v.Legal {
			c := w.Clone()
			if c.Play(v.Seat, m) != nil {
				totals[i] = -1e18 // never: v.Legal is what Play accepts
				continue
			}
			r := engine.NewRNG(noise)
			totals[i] += b.rollout(&c, v.Seat, &r)
		}
	}
	best := 0
	for i := range totals {
		if totals[i] > totals[best] {
			best = i
		}
	}
	return v.Legal[best]
}

// rollout plays w on to the end of the auction and its resolution and
// scores the position for seat me.
func (b *search) rollout(w *furnace.State, me int, noise *engine.RNG) float64 {
	for w.Phase == furnace.AuctionPhase {
		seat := w.Turn
		b.legal = furnace.AppendLegal(b.legal[:0], w, seat)
		if w.Play(seat, b.rivalBid(w, seat, me, noise)) != nil {
			return -1e18 // never: every move tried is one AppendLegal listed
		}
	}
	for w.Phase == furnace.ResolvePhase {
		for seat := range w.Players {
			if w.Phase == furnace.ResolvePhase && w.Players[seat].Owed > 0 {
				if w.Play(seat, compensation(w, seat)) != nil {
					return -1e18
				}
			}
		}
	}
	return margin(w, me)
}

// rivalBid is the placement in b.legal that greedy's pricing likes best,
// each price moved by up to bidNoise for seats other than me.
func (b *search) rivalBid(w *furnace.State, seat, me int, noise *engine.RNG) furnace.Move {
	v := furnace.View{Seat: seat, Config: w.Config, Round: w.Round, Market: w.Market, Players: w.Players, Agent: w.Agent}
	best, bestValue := b.legal[0], -1e18
	for _, m := range b.legal {
		val := b.prices.of(&v, seat, m)
		if seat != me {
			val += bidNoise * (2*unit(noise) - 1)
		}
		if val > bestValue {
			best, bestValue = m, val
		}
	}
	return best
}

// unit draws a number in [0, 1).
func unit(r *engine.RNG) float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// compensation is the count of the compensation being resolved that
// leaves seat the best position, as greedy chooses it.
func compensation(w *furnace.State, seat int) furnace.Move {
	p := &w.Players[seat]
	line := w.Market[0].Card.Company().Compensation
	ahead := productionsAhead(w, seat)
	best, bestValue := 0, -1e18
	for n := range p.Goods.Affords(line.Pay, p.Owed) + 1 {
		g := p.Goods.Minus(line.Pay.Times(n)).Plus(line.Gain.Times(n))
		if val := simulate(p, g, furnace.NoCard, ahead); val > bestValue {
			best, bestValue = n, val
		}
	}
	return furnace.Move{Kind: furnace.Compensate, Times: furnace.Times{best}}
}

// margin scores a position for seat me: its value less the best of the
// others', so that a card taken from the leader counts as well as one won.
func margin(w *furnace.State, me int) float64 {
	mine, rival := 0.0, -1e18
	for seat := range w.Players {
		val := value(&w.Players[seat], productionsAhead(w, seat))
		if seat == me {
			mine = val
		} else {
			rival = max(rival, val)
		}
	}
	return mine - rival
}

// prices is greedy's pricing of a disc (discWorth) with what does not
// change during an auction worked out once: goods and cards change only
// when the cards are resolved, so what a card or its compensation would
// add to a seat's position is the same for every placement.
type prices struct {
	cards [maxLots]furnace.Card
	// owned is what winning the card at a market position adds to a
	// seat's position; compensated, what its compensation for a disc of
	// each value adds.
	owned       [furnace.MaxPlayers][maxLots]float64
	compensated [furnace.MaxPlayers][maxLots][5]float64
}

// maxLots is the most cards an auction deals.
const maxLots = furnace.MaxPlayers + 4

// fill prices the market of v for every seat.
func (pr *prices) fill(v *furnace.View) {
	ahead := v.Config.Rounds - v.Round + 1
	for i := range pr.cards {
		pr.cards[i] = furnace.NoCard
	}
	for i, l := range v.Market[:min(len(v.Market), maxLots)] {
		pr.cards[i] = l.Card
	}
	for seat := range v.Players[:min(len(v.Players), furnace.MaxPlayers)] {
		p := &v.Players[seat]
		now := value(p, ahead)
		for i, l := range v.Market[:min(len(v.Market), maxLots)] {
			pr.owned[seat][i] = simulate(p, p.Goods, l.Card, ahead) - now
			for d := 1; d <= 4; d++ {
				k := d
				if p.Capitalist == furnace.Henry {
					k++
				}
				pr.compensated[seat][i][d] = compensationWorth(p, l.Card, k, ahead) - now
			}
		}
	}
}

// of prices seat's placement m as greedy's bid does.
func (pr *prices) of(v *furnace.View, seat int, m furnace.Move) float64 {
	d := m.Disc
	if m.Neutral {
		d = 2
	}
	val := pr.disc(v, seat, m.Card, d)
	if m.Extra != furnace.NoCard {
		val += pr.disc(v, seat, m.Extra, 2)
	}
	return val - 0.05*float64(m.Disc)
}

// disc is discWorth from the table.
func (pr *prices) disc(v *furnace.View, seat int, c furnace.Card, d int) float64 {
	for i := range v.Market {
		if v.Market[i].Card == c && i < maxLots && pr.cards[i] == c {
			win := winChance(v, seat, &v.Market[i], d)
			return win*pr.owned[seat][i] + (1-win)*pr.compensated[seat][i][d]
		}
	}
	return 0
}
