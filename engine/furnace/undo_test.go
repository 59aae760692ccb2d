package furnace

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

var undo = Move{Kind: Undo}

// undoTable is a hand-built game in which seats may take moves back.
func undoTable(t *testing.T, tb table) State {
	t.Helper()
	tb.Config.Undo = true
	return tb.build(t)
}

// takeBack plays seat's undo, fails unless it puts back exactly the state
// want, for every seat and spectator alike, and returns the result.
func takeBack(t *testing.T, s State, seat int, want State) State {
	t.Helper()
	after, events := mustApply(t, s, seat, undo)
	if got, want := marshal(t, after), marshal(t, want); got != want {
		t.Fatalf("after the undo\n%s\nwant\n%s", got, want)
	}
	if len(events) != 1 || events[0].Kind != engine.Undo || events[0].Seat != seat {
		t.Fatalf("events %+v; want one undo event for seat %d", events, seat)
	}
	for v := -1; v < len(s.Players); v++ {
		if got, want := marshal(t, ViewOf(after, v)), marshal(t, ViewOf(want, v)); got != want {
			t.Fatalf("seat %d sees\n%s\nwant\n%s", v, got, want)
		}
	}
	return after
}

// TestUndoInProduction: every production move can be taken back, newest
// first, until the seat is done; a seat takes back only its own.
func TestUndoInProduction(t *testing.T) {
	s := undoTable(t, table{Seats: []seatSetup{
		{Start: "start-3", Cards: []string{"mine-04", "oil-09"}, Goods: Goods{Coal: 5, Iron: 3}},
		{Cards: []string{"mine-01"}},
	}})
	mustRefuse(t, s, 0, undo, "nothing to take back yet this production")
	steps := []State{s}
	for _, m := range []Move{produce(t, "oil-09", 2), produce(t, "start-3"), upgrade(t, "mine-04"), produce(t, "mine-04")} {
		next, _ := mustApply(t, steps[len(steps)-1], 0, m)
		if !hasLegal(next, 0, undo) {
			t.Fatalf("undo is not legal after %s", marshal(t, m))
		}
		mustRefuse(t, next, 1, undo, "nothing to take back yet this production")
		steps = append(steps, next)
	}
	// Seat 1's move in between changes nothing of seat 0's undo but
	// seat 1's own record: the game is as if seat 0 had not moved.
	last := steps[len(steps)-1]
	mid, _ := mustApply(t, last, 1, produce(t, "mine-01"))
	want, _ := mustApply(t, steps[len(steps)-2], 1, produce(t, "mine-01"))
	takeBack(t, mid, 0, want)
	at := last
	for i := len(steps) - 2; i >= 0; i-- {
		at = takeBack(t, at, 0, steps[i])
	}
	done, _ := mustApply(t, last, 0, Move{Kind: Done})
	mustRefuse(t, done, 0, undo, "you are done with production this round")
}

func TestUndoPlacingInTheChain(t *testing.T) {
	s := undoTable(t, table{Config: Config{Chain: true}, Seats: []seatSetup{{Cards: []string{"mine-04"}, New: []string{"oil-02", "mine-09"}}}})
	a, _ := mustApply(t, s, 0, Move{Kind: Place, Card: card(t, "oil-02"), At: 1})
	ab, _ := mustApply(t, a, 0, Move{Kind: Place, Card: card(t, "mine-09")})
	takeBack(t, takeBack(t, ab, 0, a), 0, s)
}

// TestUndoInTheAuction: a disc can be taken back while the turn is still
// the seat's, which happens once every other seat has stopped placing.
func TestUndoInTheAuction(t *testing.T) {
	t.Run("the others have stopped", func(t *testing.T) {
		s := undoTable(t, table{Players: 3, Phase: AuctionPhase, Market: []string{"oil-01", "oil-02", "oil-03"}})
		s.Players[1].Out, s.Players[2].Out = true, true
		a, _ := mustApply(t, s, 0, bid(t, "oil-01", 2))
		if a.Turn != 0 {
			t.Fatalf("turn %d", a.Turn)
		}
		ab, _ := mustApply(t, a, 0, bid(t, "oil-02", 4))
		takeBack(t, takeBack(t, ab, 0, a), 0, s)
		mustRefuse(t, s, 0, undo, "nothing to take back yet")
	})
	t.Run("the turn passes on", func(t *testing.T) {
		s := undoTable(t, table{Players: 3, Phase: AuctionPhase, Market: []string{"oil-01", "oil-02"}})
		a, _ := mustApply(t, s, 0, bid(t, "oil-01", 2))
		mustRefuse(t, a, 0, undo, "your disc stands once the turn passes on")
		mustRefuse(t, a, 2, undo, "nothing to take back: a disc stands once the turn passes on")
	})
	t.Run("the Agent rolls", func(t *testing.T) {
		s := undoTable(t, table{Phase: AuctionPhase, Market: []string{"oil-01", "oil-02", "oil-03", "oil-04", "oil-05", "oil-06"}})
		s.Players[1].Out = true
		a, _ := mustApply(t, s, 0, bid(t, "oil-01", 1)) // the first placement
		takeBack(t, a, 0, s)
		ab, _ := mustApply(t, a, 0, bid(t, "oil-02", 2)) // the second: the Agent places
		if ab.Agent.Roll == 0 {
			t.Fatal("the Agent did not roll")
		}
		mustRefuse(t, ab, 0, undo, "the Agent placed its disc after yours")
	})
	t.Run("another seat stops", func(t *testing.T) {
		// Seats 1 and 2 each keep a 2, which fits only oil-01 (both have
		// a disc on oil-02): seat 0's 2 there stops them both, and the
		// turn comes back to seat 0, whose 1 still fits oil-02.
		s := undoTable(t, table{Players: 3, Phase: AuctionPhase, Market: []string{"oil-01", "oil-02"}})
		s.Players[1].Discs, s.Players[2].Discs = 1<<2, 1<<2
		s.Market[1].Discs = []Disc{{Seat: 2, Value: 3}, {Seat: 1, Value: 4}}
		a, _ := mustApply(t, s, 0, bid(t, "oil-01", 2))
		if a.Turn != 0 || !a.Players[1].Out || !a.Players[2].Out {
			t.Fatalf("turn %d, out %v %v", a.Turn, a.Players[1].Out, a.Players[2].Out)
		}
		mustRefuse(t, a, 0, undo, "your disc left another seat no place")
	})
	t.Run("Arthur's paired disc", func(t *testing.T) {
		s := undoTable(t, table{Players: 3, Phase: AuctionPhase, Config: Config{Capitalists: true, Arthur: ArthurPaired},
			Market: []string{"oil-01", "oil-02", "oil-03"}, Seats: []seatSetup{{Capitalist: Arthur}, {}, {}}})
		s.Players[1].Out, s.Players[2].Out = true, true
		a, _ := mustApply(t, s, 0, Move{Kind: Bid, Card: card(t, "oil-01"), Disc: 4, Extra: card(t, "oil-02")})
		takeBack(t, a, 0, s)
	})
}

func TestUndoRefusedInTheResolution(t *testing.T) {
	s := undoTable(t, table{Players: 4, Phase: AuctionPhase, Market: []string{"oil-09"},
		Seats: []seatSetup{{Goods: Goods{Oil: 1}}, {Goods: Goods{Oil: 5}}, {}, {}}})
	for i := range s.Players {
		s.Players[i].Bidder = Bidder{Out: true}
	}
	s.Players[3].Bidder = Bidder{Discs: 1 << 4}
	s.Turn = 3
	s.Market[0].Discs = []Disc{{Seat: 0, Value: 3}, {Seat: 1, Value: 2}, {Seat: 2, Value: 1}}
	s, _ = mustApply(t, s, 3, bid(t, "oil-09", 4))
	// The disc that ended the auction stands, and no choice has been made.
	mustRefuse(t, s, 3, undo, "the auction's discs stand (u works in production)")
	mustRefuse(t, s, 0, undo, "the auction's discs stand (u works in production)")
	s, _ = mustApply(t, s, 1, Move{Kind: Compensate, Times: Times{2}})
	mustRefuse(t, s, 1, undo, "a compensation choice stands")
}

func TestUndoOff(t *testing.T) {
	s := table{Seats: []seatSetup{{Cards: []string{"mine-04"}}}}.build(t)
	a, _ := mustApply(t, s, 0, produce(t, "mine-04"))
	mustRefuse(t, a, 0, undo, "taking moves back is off in this game")
}

// TestUndoProperties plays seeded games in every size and setting in which
// seats take moves back at random, and checks after every move what undo
// promises: a move and its undo give back the state before the move byte
// for byte (so every other seat sees what it saw before); a seat's undo
// after another seat's move gives the game as if only that other move had
// been made; Legal offers undo exactly when Apply takes it; and the games,
// undos and all, replay from their move log through Rules to the same
// state.
func TestUndoProperties(t *testing.T) {
	games := seededGames(3, 1)
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for ci, cfg := range configs(players) {
			t.Run(fmt.Sprintf("%+v", cfg), func(t *testing.T) {
				t.Parallel()
				for g := range games {
					seed := uint64(players*1000 + ci*10 + g)
					if err := undoGame(cfg, seed); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
				}
			})
		}
	}
}

func undoGame(cfg Config, seed uint64) error {
	cfg.Undo = true
	s, err := New(cfg, seed)
	if err != nil {
		return err
	}
	cfg = s.Config // with its defaults filled in
	r := newRandomPlayer(seed)
	var log []playedMove
	play := func(seat int, m Move) (State, error) {
		next, _, err := Apply(s, seat, m)
		if err != nil {
			return s, fmt.Errorf("round %d %s: %s for seat %d refused: %w", s.Round, s.Phase, mustJSON(m), seat, err)
		}
		if err := invariantError(next); err != nil {
			return s, fmt.Errorf("after seat %d's %s: %w", seat, mustJSON(m), err)
		}
		log = append(log, playedMove{seat, m})
		return next, nil
	}
	offers := func(s State, seat int) bool { return slices.Contains(Legal(s, seat), undo) }
	undos, asIf := 0, 0
	for steps := 0; s.Phase != GameOver; steps++ {
		if steps > maxMoves {
			return fmt.Errorf("no end after %d moves", maxMoves)
		}
		for seat := range s.Players {
			_, _, err := Apply(s, seat, undo)
			if offers(s, seat) != (err == nil) {
				return fmt.Errorf("step %d: Legal offers undo to seat %d: %v; Apply says %v", steps, seat, offers(s, seat), err)
			}
		}
		seat, m, _ := r.next(s)
		before := s
		if s, err = play(seat, m); err != nil {
			return err
		}
		if !offers(s, seat) {
			continue
		}
		back, _, err := Apply(s, seat, undo)
		if err != nil {
			return fmt.Errorf("step %d: the offered undo refused: %w", steps, err)
		}
		if got, want := string(mustJSON(back)), string(mustJSON(before)); got != want {
			return fmt.Errorf("step %d: seat %d's %s and its undo give\n%s\nnot\n%s", steps, seat, mustJSON(m), got, want)
		}
		if other := slices.DeleteFunc(slices.Clone(StatusOf(s).Acting), func(a int) bool { return a == seat }); len(other) > 0 {
			o := other[r.rng.IntN(len(other))]
			legal := Legal(s, o)
			om := legal[r.rng.IntN(len(legal))]
			mid, _, err := Apply(s, o, om)
			if err != nil {
				return fmt.Errorf("step %d: seat %d's legal %s refused: %w", steps, o, mustJSON(om), err)
			}
			if back, _, err := Apply(mid, seat, undo); err == nil {
				only, _, err := Apply(before, o, om)
				if err != nil {
					return fmt.Errorf("step %d: seat %d's %s refused without seat %d's %s: %w", steps, o, mustJSON(om), seat, mustJSON(m), err)
				}
				asIf++
				if got, want := string(mustJSON(back)), string(mustJSON(only)); got != want {
					return fmt.Errorf("step %d: seat %d's %s, seat %d's %s, the undo give\n%s\nnot\n%s", steps, seat, mustJSON(m), o, mustJSON(om), got, want)
				}
			}
		}
		if undos < 40 && r.rng.IntN(3) == 0 {
			if s, err = play(seat, undo); err != nil {
				return err
			}
			undos++
		}
	}
	opts := map[string]string{"rounds": fmt.Sprint(cfg.Rounds), "capitalists": "off", "chain": "off"}
	if cfg.Capitalists {
		opts["capitalists"], opts["arthur"] = "on", string(cfg.Arthur)
	}
	if cfg.Chain {
		opts["chain"] = "on"
	}
	rules := Rules
	raw, err := rules.New(cfg.Players, mustJSON(opts), seed)
	if err != nil {
		return err
	}
	for i, pm := range log {
		if raw, _, err = rules.Apply(raw, pm.Seat, mustJSON(pm.Move)); err != nil {
			return fmt.Errorf("replayed move %d (%s) refused: %w", i, mustJSON(pm), err)
		}
	}
	if string(mustJSON(raw)) != string(mustJSON(s)) {
		return fmt.Errorf("the replay through Rules differs from the game")
	}
	if undos == 0 || asIf == 0 {
		return fmt.Errorf("%d moves taken back and %d undos checked after another seat's move, in %d moves", undos, asIf, len(log))
	}
	return nil
}

// The view never shows what a seat may take back.
func TestUndoRecordStaysHidden(t *testing.T) {
	s := undoTable(t, table{Seats: []seatSetup{{Cards: []string{"mine-04"}}}})
	a, _ := mustApply(t, s, 0, produce(t, "mine-04"))
	if len(a.Undo) == 0 {
		t.Fatal("no record kept")
	}
	for seat := -1; seat < 2; seat++ {
		raw := marshal(t, ViewOf(a, seat))
		for _, key := range []string{`"undo":[`, `"steps"`, `"before"`} {
			if strings.Contains(raw, key) {
				t.Errorf("seat %d's view shows the record: %s", seat, raw)
			}
		}
	}
}
