package furnace

import "slices"

// Legal lists the moves seat can make now: every move Apply accepts, and
// nothing else. A seat that may act always has one (an auction seat with
// no legal placement is passed over; compensate 0 and done are always
// there). A seat that may not act, or a finished game, gives nil.
func Legal(s State, seat int) []Move {
	// Built on the stack and copied out at its final length: one
	// allocation instead of one per doubling.
	var space [64]Move
	out := AppendLegal(space[:0], &s, seat)
	if len(out) == 0 {
		return nil
	}
	return slices.Clone(out)
}

// AppendLegal appends seat's legal moves to dst and returns it, for bots
// that reuse one list. Each move is made only once it is known to be
// legal: nothing is generated and thrown away.
func AppendLegal(dst []Move, s *State, seat int) []Move {
	p := s.Player(seat)
	if p == nil {
		return dst
	}
	switch s.Phase {
	case AuctionPhase:
		if seat == s.Turn {
			dst = s.appendBids(dst, seat)
		}
	case ResolvePhase:
		if p.Owed > 0 {
			line := s.Market[0].Card.compensation()
			for t := range p.Goods.Affords(line.Pay, p.Owed) + 1 {
				dst = append(dst, Move{Kind: Compensate, Times: Times{t}})
			}
		}
	case ProductionPhase:
		if !p.Done {
			dst = s.appendProduction(dst, p)
		}
	}
	if s.Config.Undo && undoRefusal(s, seat) == "" {
		dst = append(dst, Move{Kind: Undo})
	}
	return dst
}

// appendBids lists the placements of seat's discs, card by card, smallest
// disc first; with Arthur's paired timing each placement also comes with
// the neutral disc on every other card it fits.
func (s *State) appendBids(dst []Move, seat int) []Move {
	p := &s.Players[seat]
	paired := p.Neutral && s.Config.Arthur == ArthurPaired
	for i := range s.Market {
		c := s.Market[i].Card
		for v := 1; v <= 4; v++ {
			if !p.Discs.Has(v) || !s.fits(seat, i, v) {
				continue
			}
			dst = append(dst, Move{Kind: Bid, Card: c, Disc: v})
			if !paired {
				continue
			}
			for k := range s.Market {
				if k != i && s.fits(seat, k, neutralValue) {
					dst = append(dst, Move{Kind: Bid, Card: c, Disc: v, Extra: s.Market[k].Card})
				}
			}
		}
		if p.Neutral && s.Config.Arthur == ArthurAlone && s.fits(seat, i, neutralValue) {
			dst = append(dst, Move{Kind: Bid, Card: c, Disc: neutralValue, Neutral: true})
		}
	}
	return dst
}

// appendProduction lists a seat's production moves: placing new cards in
// the chain (only that, while any wait), or resolving the cards it may
// resolve with every count of processing it can pay, Évariste's repeats,
// upgrades while the start card is open, and done.
func (s *State) appendProduction(dst []Move, p *Player) []Move {
	if len(p.New) > 0 {
		for _, c := range p.New {
			for at := range len(p.Cards) + 1 {
				dst = append(dst, Move{Kind: Place, Card: c, At: at})
			}
		}
		return dst
	}
	next := -1
	if s.Config.Chain {
		next = p.next()
	}
	for j, o := range p.Cards {
		if !o.Used && (next < 0 || j == next) {
			dst = appendRuns(dst, Move{Kind: Produce, Card: o.Card}, o, p.Goods)
		}
	}
	if p.Capitalist == Evariste && !p.Repeated && p.Goods.Coal >= repeatCoal {
		goods := p.Goods
		goods.Coal -= repeatCoal
		for _, o := range p.Cards {
			if o.Used {
				dst = appendRuns(dst, Move{Kind: Produce, Card: o.Card, Again: true}, o, goods)
			}
		}
	}
	if p.Open.IsStart() {
		if _, ok := p.upgradeCost(); ok {
			for _, o := range p.Cards {
				if !o.Upgraded && !o.Card.IsStart() {
					dst = append(dst, Move{Kind: Upgrade, Card: o.Card})
				}
			}
		}
	}
	return append(dst, Move{Kind: Done})
}

// appendRuns lists m for card o with every Times that goods can pay, line
// after line, as run resolves them.
func appendRuns(dst []Move, m Move, o Owned, goods Goods) []Move {
	return appendLines(dst, m, o.Card.lines(o.Upgraded), 0, goods)
}

// appendLines chooses a count for each processing line from lines on
// (the kth of the card's processing lines), given what the lines above
// left in goods.
func appendLines(dst []Move, m Move, lines []Line, k int, goods Goods) []Move {
	for i, l := range lines {
		switch {
		case l.Upgrade:
		case !l.Processing():
			goods = goods.Plus(l.Gain)
		default:
			rest := lines[i+1:]
			for t := range goods.Affords(l.Pay, l.Times) + 1 {
				m.Times[k] = t
				dst = appendLines(dst, m, rest, k+1, goods.Minus(l.Pay.Times(t)).Plus(l.Gain.Times(t)))
			}
			return dst
		}
	}
	return append(dst, m)
}
