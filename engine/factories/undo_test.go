package factories

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

var undo = Move{Kind: Undo}

// undoTable is a hand-built work phase in which seats may take moves back.
func undoTable(t *testing.T, tb table) State {
	t.Helper()
	s := tb.build(t)
	s.Config.Undo = true
	return s
}

// takeBack plays seat's undo, fails unless it puts back exactly the
// state want, and returns the result.
func takeBack(t *testing.T, s State, seat int, want State) State {
	t.Helper()
	if !hasLegal(t, s, seat, undo) {
		t.Fatalf("undo is not among seat %d's legal moves", seat)
	}
	after, events := mustApply(t, s, seat, undo)
	if got, want := marshal(t, after), marshal(t, want); got != want {
		t.Fatalf("after the undo\n%s\nwant\n%s", got, want)
	}
	if len(events) != 1 || events[0].Kind != engine.Undo || events[0].Seat != seat {
		t.Fatalf("events %+v; want one undo event for seat %d", events, seat)
	}
	return after
}

// othersSeeTheSame fails unless every seat but mover sees a and b alike,
// spectators included.
func othersSeeTheSame(t *testing.T, a, b State, mover int) {
	t.Helper()
	for seat := -1; seat < len(a.Players); seat++ {
		if seat == mover {
			continue
		}
		if va, vb := marshal(t, ViewOf(a, seat)), marshal(t, ViewOf(b, seat)); va != vb {
			t.Fatalf("seat %d sees\n%s\nthen\n%s", seat, va, vb)
		}
	}
}

func TestUndoTakesBackAMoveThatRevealsNothing(t *testing.T) {
	s := undoTable(t, table{Seats: []seatSetup{
		{Compound: []string{PowerPlant, Incinerator, Dojo}, Hand: []string{Robot, Golem}, Dice: []int{5, 2, 6, 1}, Metal: 1, Energy: 5},
		{Dice: []int{3}},
	}})
	if hasLegal(t, s, 0, undo) {
		t.Fatal("undo is legal before any move")
	}
	mustRefuse(t, s, 0, undo, "nothing to take back yet this work phase")
	for _, m := range []Move{
		{Kind: Place, Dice: []int{0}, Action: Mine},
		{Kind: Place, Dice: []int{1}, Action: Generate},
		act{name: PowerPlant, dice: []int{2}}.on(t, s),
		act{name: Dojo, dice: []int{3}}.on(t, s),
		act{name: Incinerator, discard: []string{Robot}}.on(t, s),
	} {
		t.Run(string(m.Kind)+" "+m.Action+m.Card.Name(), func(t *testing.T) {
			after, _ := mustApply(t, s, 0, m)
			othersSeeTheSame(t, s, takeBack(t, after, 0, s), 0)
		})
	}
	// Several moves come back newest first, down to where the phase began:
	// 2 metal and 7 energy after the mine and the Power Plant, 1 and 13
	// after the Incinerator, 2 over the limit to discard.
	steps := []State{s}
	for _, m := range []Move{
		{Kind: Place, Dice: []int{0}, Action: Mine},
		act{name: PowerPlant, dice: []int{1}}.on(t, s),
		act{name: Incinerator, discard: []string{Robot}}.on(t, s),
		{Kind: DiscardDown, Energy: 2},
	} {
		next, _ := mustApply(t, steps[len(steps)-1], 0, m)
		steps = append(steps, next)
	}
	at := steps[len(steps)-1]
	for i := len(steps) - 2; i >= 0; i-- {
		at = takeBack(t, at, 0, steps[i])
	}
	mustRefuse(t, at, 0, undo, "nothing to take back yet")
}

func TestUndoRefusedAfterACheckpoint(t *testing.T) {
	seats := []seatSetup{
		{Compound: []string{Robot, TempAgency, BlackMarket, Manufactory, Biolab}, Hand: []string{PowerPlant, Dojo, Biolab},
			Dice: []int{3, 3, 5, 1, 2}, Metal: 3, Energy: 5},
		{Dice: []int{3}},
	}
	s := undoTable(t, table{Seats: seats})
	pp, dojo := inHand(t, s, 0, PowerPlant)[0], inHand(t, s, 0, Dojo)[0]
	nearTheEnd := s.Clone()
	nearTheEnd.Players[0].Goods = 11
	for _, c := range []struct {
		name string
		s    State
		m    Move
		want string
	}{
		{"a research draws", s, Move{Kind: Place, Dice: []int{0}, Action: Research}, "you drew a blueprint"},
		{"Manufactory draws", s, act{name: Manufactory, dice: []int{0, 1}, choice: "draw"}.on(t, s), "you drew a blueprint"},
		{"Robot rolls", s, act{name: Robot}.on(t, s), "you rolled dice"},
		{"Temp Agency rerolls", s, act{name: TempAgency, dice: []int{2}}.on(t, s), "you rolled dice"},
		{"a build shows a card", s, Move{Kind: Build, Card: pp, Discard: []Card{dojo}}, "a build shows a card from your hand"},
		{"the Black Market shows the card sold", s, act{name: BlackMarket, dice: []int{2}, discard: []string{Biolab}}.on(t, s), "the Black Market showed"},
		{"the 12th good triggers the end", nearTheEnd, act{name: Biolab, dice: []int{3}}.on(t, s), "you triggered the end of the game"},
	} {
		t.Run(c.name, func(t *testing.T) {
			// A move that may be taken back, then the checkpoint: neither
			// can be taken back now.
			before, _ := mustApply(t, c.s, 0, Move{Kind: Place, Dice: []int{4}, Action: Generate})
			if !hasLegal(t, before, 0, undo) {
				t.Fatal("the placement cannot be taken back")
			}
			after, _ := mustApply(t, before, 0, c.m)
			if hasLegal(t, after, 0, undo) {
				t.Fatalf("undo is legal after %+v", c.m)
			}
			mustRefuse(t, after, 0, undo, c.want)
		})
	}
	t.Run("done", func(t *testing.T) {
		s := undoTable(t, table{Players: 3, Seats: seats})
		after, _ := mustApply(t, s, 0, Move{Kind: Place, Dice: []int{4}, Action: Generate})
		after, _ = mustApply(t, after, 0, Move{Kind: Done})
		mustRefuse(t, after, 0, undo, "you are done with this work phase")
	})
	t.Run("the market phase", func(t *testing.T) {
		s := undoTable(t, table{Phase: MarketPhase, Market: []string{Golem, Harvester, Foundry, Refinery}, Seats: seats})
		mustRefuse(t, s, 0, undo, "market moves show new cards or pass the turn")
		after, _ := mustApply(t, s, 0, Move{Kind: Refresh, Row: ContractorRow, Pay: "metal"})
		mustRefuse(t, after, 0, undo, "market moves")
	})
	t.Run("undo off", func(t *testing.T) {
		s := table{Seats: seats}.build(t)
		after, _ := mustApply(t, s, 0, Move{Kind: Place, Dice: []int{4}, Action: Generate})
		if hasLegal(t, after, 0, undo) {
			t.Fatal("undo is legal in a game without it")
		}
		mustRefuse(t, after, 0, undo, "taking moves back is off in this game")
	})
}

// A seat takes back only its own moves, and the others' moves since stand
// as they were played: the game is as if the move taken back had never
// been made.
func TestUndoIsAsIfTheMoveWereNeverMade(t *testing.T) {
	s := undoTable(t, table{Players: 3, Seats: []seatSetup{
		{Compound: []string{Incinerator}, Hand: []string{Robot}, Dice: []int{5}, Metal: 1},
		{Compound: []string{Refinery}, Hand: []string{Golem}, Dice: []int{2}, Energy: 3},
		{Dice: []int{4}},
	}})
	a, _ := mustApply(t, s, 0, act{name: Incinerator, discard: []string{Robot}}.on(t, s))
	mustRefuse(t, a, 1, undo, "nothing to take back yet")
	mustRefuse(t, a, 2, undo, "nothing to take back yet")
	refinery := Move{Kind: Activate, Card: inCompound(t, s, 1, Refinery), Discard: inHand(t, s, 1, Golem)}
	ab, _ := mustApply(t, a, 1, refinery)
	abc, _ := mustApply(t, ab, 2, Move{Kind: Place, Dice: []int{0}, Action: Research})
	want, _ := mustApply(t, s, 1, refinery)
	want, _ = mustApply(t, want, 2, Move{Kind: Place, Dice: []int{0}, Action: Research})
	back := takeBack(t, abc, 0, want)
	if !slices.Equal(back.Discard, inHand(t, s, 1, Golem)) {
		t.Errorf("discard pile %v; want seat 1's Golem alone", names(back.Discard))
	}
	// Seat 1 may still take back its Refinery, whose Golem now lies
	// where the Robot was.
	takeBack(t, back, 1, func() State {
		w, _ := mustApply(t, s, 2, Move{Kind: Place, Dice: []int{0}, Action: Research})
		return w
	}())
}

// Cards discarded by a move lie on the discard pile until a draw shuffles
// the pile into a new deck: the move then stands.
func TestUndoRefusedOnceTheDiscardsAreShuffledAway(t *testing.T) {
	s := undoTable(t, table{Seats: []seatSetup{
		{Compound: []string{Incinerator}, Hand: []string{Robot}, Dice: []int{5}, Metal: 1},
		{Dice: []int{2}},
	}})
	s.Discard, s.Deck = append(s.Discard, s.Deck...), nil // the deck is out
	a, _ := mustApply(t, s, 0, act{name: Incinerator, discard: []string{Robot}}.on(t, s))
	ab, _ := mustApply(t, a, 1, Move{Kind: Place, Dice: []int{0}, Action: Research})
	if ab.Reshuffles != s.Reshuffles+1 {
		t.Fatalf("reshuffles %d; want the research to shuffle the pile", ab.Reshuffles)
	}
	mustRefuse(t, ab, 0, undo, "its discards were shuffled into a new deck")
}

// Nothing in the record is shown: a seat's view has its legal moves, and
// nothing of anyone's earlier hands.
func TestUndoRecordStaysHidden(t *testing.T) {
	s := undoTable(t, table{Seats: []seatSetup{
		{Compound: []string{Incinerator}, Hand: []string{Robot}, Dice: []int{5}, Metal: 1},
		{Dice: []int{2}},
	}})
	a, _ := mustApply(t, s, 0, act{name: Incinerator, discard: []string{Robot}}.on(t, s))
	if len(a.Undo) == 0 {
		t.Fatal("no record kept")
	}
	for seat := -1; seat < 2; seat++ {
		raw := marshal(t, ViewOf(a, seat))
		for _, key := range []string{`"undo":`, `"steps"`, `"before"`, `"discarded"`} {
			if strings.Contains(raw, key) {
				t.Errorf("seat %d's view shows the record: %s", seat, raw)
			}
		}
	}
}

// TestUndoProperties plays seeded games of every size in which seats take
// moves back at random, and after every move checks what undo promises:
// a move and its undo give back the state before the move byte for byte
// (so every other seat sees what it saw before); a seat's undo after
// another seat's move gives the game as if only that other move had been
// made; every undo the engine offers is accepted and every one it does not
// is refused; and the games, undos and all, replay from their move log
// through Rules to the same state.
func TestUndoProperties(t *testing.T) {
	games := seededGames(10, 3)
	for players := 1; players <= MaxPlayers; players++ {
		t.Run(fmt.Sprintf("%dP", players), func(t *testing.T) {
			t.Parallel()
			for g := range games {
				seed := uint64(players*7000 + g)
				if err := undoGame(t, seed, players); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
		})
	}
}

func undoGame(t *testing.T, seed uint64, players int) error {
	cfg := Config{Players: players, Undo: true}
	if players == 1 {
		cfg.Difficulty = "medium"
	}
	s, err := New(cfg, seed)
	if err != nil {
		return err
	}
	r := newRandomPlayer(seed)
	var log []playedMove
	play := func(seat int, m Move) (State, error) {
		next, _, err := Apply(s, seat, m)
		if err != nil {
			return s, fmt.Errorf("round %d %s: %+v for seat %d refused: %w", s.Round, s.Phase, m, seat, err)
		}
		if err := invariantError(next); err != nil {
			return s, fmt.Errorf("after seat %d's %+v: %w", seat, m, err)
		}
		log = append(log, playedMove{seat, m})
		return next, nil
	}
	undos, asIf := 0, 0
	for steps := 0; s.Phase != GameOver; steps++ {
		if s.Round > maxRounds {
			return fmt.Errorf("the game passed round %d", maxRounds)
		}
		acting := StatusOf(s).Acting
		for _, seat := range acting {
			_, _, err := Apply(s, seat, undo)
			if offered := slices.ContainsFunc(Legal(s, seat), func(m Move) bool { return m.Kind == Undo }); offered != (err == nil) {
				return fmt.Errorf("step %d: Legal offers undo to seat %d: %v; Apply says %v", steps, seat, offered, err)
			}
		}
		seat, m, _ := r.next(s)
		before := s
		if s, err = play(seat, m); err != nil {
			return err
		}
		if !slices.ContainsFunc(Legal(s, seat), func(m Move) bool { return m.Kind == Undo }) {
			continue
		}
		// A move and its undo: the state before, for everyone.
		back, _, err := Apply(s, seat, undo)
		if err != nil {
			return fmt.Errorf("step %d: the offered undo refused: %w", steps, err)
		}
		if got, want := string(mustJSON(back)), string(mustJSON(before)); got != want {
			return fmt.Errorf("step %d: seat %d's %+v and its undo give\n%s\nnot\n%s", steps, seat, m, got, want)
		}
		// Another seat's move in between: as if only that one was made.
		if other := slices.DeleteFunc(slices.Clone(StatusOf(s).Acting), func(a int) bool { return a == seat }); len(other) > 0 {
			o := other[r.rng.IntN(len(other))]
			legal := Legal(s, o)
			om := legal[r.rng.IntN(len(legal))]
			mid, _, err := Apply(s, o, om)
			if err != nil {
				return fmt.Errorf("step %d: seat %d's legal %+v refused: %w", steps, o, om, err)
			}
			if back, _, err := Apply(mid, seat, undo); err == nil {
				only, _, err := Apply(before, o, om)
				if err != nil {
					return fmt.Errorf("step %d: seat %d's %+v refused without seat %d's %+v: %w", steps, o, om, seat, m, err)
				}
				asIf++
				if got, want := string(mustJSON(back)), string(mustJSON(only)); got != want {
					return fmt.Errorf("step %d: seat %d's %+v, seat %d's %+v, the undo give\n%s\nnot\n%s", steps, seat, m, o, om, got, want)
				}
			}
		}
		// Now and then the undo is played for real, so the games go on
		// through positions reached by taking moves back; a bound keeps
		// every game finite.
		if undos < 60 && r.rng.IntN(3) == 0 {
			if s, err = play(seat, undo); err != nil {
				return err
			}
			undos++
		}
	}
	// The log, undos included, replays through Rules to the same game.
	var options json.RawMessage
	if players == 1 {
		options = json.RawMessage(`{"difficulty":"medium"}`)
	}
	rules := Rules
	raw, err := rules.New(players, options, seed)
	if err != nil {
		return err
	}
	for i, pm := range log {
		if raw, _, err = rules.Apply(raw, pm.Seat, mustJSON(pm.Move)); err != nil {
			return fmt.Errorf("replayed move %d (%+v) refused: %w", i, pm, err)
		}
	}
	if string(mustJSON(raw)) != string(mustJSON(s)) {
		return fmt.Errorf("the replay through Rules differs from the game")
	}
	if undos == 0 || (players > 1 && asIf == 0) {
		return fmt.Errorf("%d moves taken back and %d undos checked after another seat's move, in %d moves", undos, asIf, len(log))
	}
	return nil
}
