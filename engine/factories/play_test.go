package factories

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// TestPlayAgreesWithApply plays seeded games of every size three ways at
// once, move by move: with Apply, with Play in place wording the events,
// and with Play in place wording none. Legal moves (from a MoveBuffer on
// the in-place game) and garbage moves are mixed. After every move the
// three states must be deep-equal, the events and errors equal, and the
// buffer's moves those of Legal.
func TestPlayAgreesWithApply(t *testing.T) {
	games := seededGames(20, 4)
	for players := 1; players <= MaxPlayers; players++ {
		t.Run(fmt.Sprintf("%dP", players), func(t *testing.T) {
			t.Parallel()
			for g := range games {
				seed := uint64(players*7919 + g)
				if err := playThreeWays(seed, players); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
		})
	}
}

func playThreeWays(seed uint64, players int) error {
	pure, err := seededGame(seed, players)
	if err != nil {
		return err
	}
	worded, quiet := pure.Clone(), pure.Clone()
	r := &byteReader{data: randomBytes(seed^0x91a7, 3000)}
	pick := newRandomPlayer(seed)
	var buf MoveBuffer
	for step := 0; pure.Phase != GameOver; step++ {
		if pure.Round > maxRounds {
			return fmt.Errorf("the game passed round %d", maxRounds)
		}
		acting := StatusOf(pure).Acting
		seat := acting[pick.rng.IntN(len(acting))]
		legal := buf.Legal(&worded, seat)
		if want := Legal(pure, seat); !reflect.DeepEqual(mustJSON(legal), mustJSON(want)) {
			return fmt.Errorf("step %d seat %d: the buffer lists %+v, Legal %+v", step, seat, legal, want)
		}
		m := garbageMove(r, pure, seat)
		if r.empty() || r.next()%4 != 0 {
			m = pick.pick(legal)
			m.Dice, m.Discard, m.Values = cloneInts(m.Dice), cloneCards(m.Discard), cloneInts(m.Values)
		}
		next, events, applyErr := Apply(pure, seat, m)
		var playEvents []Event
		playErr := worded.Play(seat, m, &playEvents)
		quietErr := quiet.Play(seat, m, nil)
		if fmt.Sprint(applyErr) != fmt.Sprint(playErr) || fmt.Sprint(applyErr) != fmt.Sprint(quietErr) {
			return fmt.Errorf("step %d seat %d %+v: Apply says %v, Play %v, quiet Play %v", step, seat, m, applyErr, playErr, quietErr)
		}
		if !reflect.DeepEqual(events, playEvents) {
			return fmt.Errorf("step %d seat %d %+v: Apply's events %+v, Play's %+v", step, seat, m, events, playEvents)
		}
		if !reflect.DeepEqual(next, worded) || !reflect.DeepEqual(next, quiet) {
			return fmt.Errorf("step %d seat %d %+v (error %v): the states differ:\nApply %s\nPlay  %s\nquiet %s",
				step, seat, m, applyErr, mustJSON(next), mustJSON(worded), mustJSON(quiet))
		}
		pure = next
	}
	return nil
}

func cloneInts(v []int) []int {
	if v == nil {
		return nil
	}
	return append([]int{}, v...)
}

func cloneCards(v []Card) []Card {
	if v == nil {
		return nil
	}
	return append([]Card{}, v...)
}

// TestCopyToSharesNothing recycles one state as the copy of many others,
// as a search does, and checks each copy is its original in JSON and
// that playing on the copy leaves the original alone.
func TestCopyToSharesNothing(t *testing.T) {
	var scratch State
	var buf MoveBuffer
	for seed := range uint64(12) {
		for _, n := range []int{0, 30, 90, 200} {
			s := midGame(t, Config{Players: 1 + int(seed)%MaxPlayers}, seed, n)
			raw := string(mustJSON(s))
			s.CopyTo(&scratch)
			if string(mustJSON(scratch)) != raw {
				t.Fatalf("seed %d after %d moves: the copy differs:\n%s\n%s", seed, n, raw, mustJSON(scratch))
			}
			// Play the copy to the end: the original must not move.
			r := newRandomPlayer(seed)
			for scratch.Phase != GameOver {
				seat := StatusOf(scratch).Acting[0]
				if err := scratch.Play(seat, r.pick(buf.Legal(&scratch, seat)), nil); err != nil {
					t.Fatal(err)
				}
			}
			if string(mustJSON(s)) != raw {
				t.Fatalf("seed %d after %d moves: playing the copy changed the original", seed, n)
			}
		}
	}
}

// TestFastPathAllocatesLittle guards what keeps a bot's search cheap: once
// the buffers have grown, copying a position, listing its moves and
// playing them in place allocate next to nothing.
func TestFastPathAllocatesLittle(t *testing.T) {
	for seed := range uint64(6) {
		s := midGame(t, Config{Players: 4}, seed, 40+int(seed)*13)
		var scratch State
		var buf MoveBuffer
		for _, seat := range StatusOf(s).Acting {
			legal := Legal(s, seat)
			play := func() {
				for _, m := range legal {
					s.CopyTo(&scratch)
					_ = scratch.Play(seat, m, nil)
				}
				buf.Legal(&s, seat)
			}
			// Some moves must allocate: a building's first workers, a
			// reshuffle. One allocation in every four moves at most.
			if n := testing.AllocsPerRun(10, play); n > float64(len(legal))/4 {
				t.Errorf("seed %d seat %d: %v allocations to copy and play %d moves", seed, seat, n, len(legal))
			}
		}
	}
}

// fastPlayout plays a whole game in place with random legal moves, the
// way a bot's rollout or simulate's fast path does, and returns the number
// of moves.
func fastPlayout(tb testing.TB, cfg Config, seed uint64, buf *MoveBuffer) int {
	s, err := New(cfg, seed)
	if err != nil {
		tb.Fatal(err)
	}
	rng := engine.NewRNG(seed)
	moves := 0
	for ; s.Phase != GameOver; moves++ {
		seat := s.Turn
		if s.Phase == WorkPhase {
			// A random seat of those not done.
			seat = -1
			for i, n := 0, 0; i < len(s.Players); i++ {
				if !s.Players[i].Done {
					if n++; rng.Intn(n) == 0 {
						seat = i
					}
				}
			}
		}
		legal := buf.Legal(&s, seat)
		if len(legal) > 1 && legal[0].Kind == Done && rng.Intn(4) != 0 {
			legal = legal[1:]
		}
		if err := s.Play(seat, legal[rng.Intn(len(legal))], nil); err != nil {
			tb.Fatalf("seed %d: legal move refused: %v", seed, err)
		}
	}
	return moves
}

// BenchmarkRandomPlayout4P plays whole 4-player games with random legal
// moves on the fast path (MoveBuffer.Legal and Play in place, no events):
// one game per op.
func BenchmarkRandomPlayout4P(b *testing.B) {
	var buf MoveBuffer
	moves := 0
	for i := 0; b.Loop(); i++ {
		moves += fastPlayout(b, Config{Players: 4}, uint64(i), &buf)
	}
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkRandomPlayout4PApply is the same kind of game through the pure
// API, Legal and Apply (a copy of the state and the events for every
// move), as a room plays it.
func BenchmarkRandomPlayout4PApply(b *testing.B) {
	moves := 0
	for i := 0; b.Loop(); i++ {
		_, log := playRandom(b, Config{Players: 4}, uint64(i), nil)
		moves += len(log)
	}
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// benchPositions is a few mid-game 4-player positions, with the legal
// moves of their acting seats.
type benchPosition struct {
	s     State
	seat  int
	legal []Move
}

func benchPositions(b *testing.B) []benchPosition {
	var out []benchPosition
	for seed := range uint64(8) {
		s := midGame(b, Config{Players: 4}, seed, 40)
		for _, seat := range StatusOf(s).Acting {
			out = append(out, benchPosition{s, seat, Legal(s, seat)})
		}
	}
	return out
}

// BenchmarkMoveBufferLegal is BenchmarkLegal through a reused MoveBuffer.
func BenchmarkMoveBufferLegal(b *testing.B) {
	var states []State
	for seed := range uint64(8) {
		states = append(states, midGame(b, Config{Players: 4}, seed, 40))
	}
	var buf MoveBuffer
	i := 0
	for b.Loop() {
		s := &states[i%len(states)]
		for _, seat := range StatusOf(*s).Acting {
			buf.Legal(s, seat)
		}
		i++
	}
}

// BenchmarkApply applies one legal move of a mid-game position per op.
func BenchmarkApply(b *testing.B) {
	pos := benchPositions(b)
	i := 0
	for b.Loop() {
		p := pos[i%len(pos)]
		if _, _, err := Apply(p.s, p.seat, p.legal[i%len(p.legal)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkPlay is BenchmarkApply in place: the position is copied into a
// recycled state (CopyTo) and the move played there without events, as a
// search does.
func BenchmarkPlay(b *testing.B) {
	pos := benchPositions(b)
	var scratch State
	i := 0
	for b.Loop() {
		p := &pos[i%len(pos)]
		p.s.CopyTo(&scratch)
		if err := scratch.Play(p.seat, p.legal[i%len(p.legal)], nil); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// TestPlayOnRecycledCopiesIsApply plays every legal move of the positions
// of seeded games on one recycled state, as a search does, and checks each
// result is Apply's.
func TestPlayOnRecycledCopiesIsApply(t *testing.T) {
	t.Parallel()
	var scratch State
	everyNthState(t, seededGames(3, 1), 41, 3, func(seed uint64) func(int, State) {
		return func(step int, s State) {
			for _, seat := range StatusOf(s).Acting {
				for _, m := range Legal(s, seat) {
					want, _, err := Apply(s, seat, m)
					if err != nil {
						t.Fatal(err)
					}
					s.CopyTo(&scratch)
					if err := scratch.Play(seat, m, nil); err != nil {
						t.Fatal(err)
					}
					if got := mustJSON(scratch); string(got) != string(mustJSON(want)) {
						t.Fatalf("seed %d step %d seat %d %+v: on a recycled copy\n%s\nApply\n%s", seed, step, seat, m, got, mustJSON(want))
					}
				}
			}
		}
	})
}
