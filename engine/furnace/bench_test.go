package furnace

import "testing"

// playInPlace plays a whole game with random legal moves on one state,
// the way a bot's simulation does: Play in place, one reused legal list.
// It picks as playRandom does, so the two play the same kind of game.
// It returns the number of moves.
func playInPlace(tb testing.TB, cfg Config, seed uint64) int {
	s, err := New(cfg, seed)
	if err != nil {
		tb.Fatal(err)
	}
	r := newRandomPlayer(seed)
	var legal []Move
	var acting []int
	moves := 0
	for s.Phase != GameOver {
		acting = appendActing(acting[:0], &s)
		seat := acting[r.rng.IntN(len(acting))]
		legal = AppendLegal(legal[:0], &s, seat)
		if err := s.Play(seat, r.pick(legal)); err != nil {
			tb.Fatal(err)
		}
		moves++
	}
	return moves
}

// appendActing is StatusOf's Acting without its allocation.
func appendActing(dst []int, s *State) []int {
	switch s.Phase {
	case AuctionPhase:
		return append(dst, s.Turn)
	case ResolvePhase, ProductionPhase:
		for seat, p := range s.Players {
			if (s.Phase == ResolvePhase && p.Owed > 0) || (s.Phase == ProductionPhase && !p.Done) {
				dst = append(dst, seat)
			}
		}
	}
	return dst
}

// BenchmarkRandomPlayout4P plays whole 4-player games with random legal
// moves: "apply" as a room or a fuzzer does (Legal, then Apply on a copy),
// "play" as a simulation does (AppendLegal and Play on one owned state).
func BenchmarkRandomPlayout4P(b *testing.B) {
	cfg := Config{Players: 4}
	b.Run("apply", func(b *testing.B) {
		moves, seed := 0, uint64(0)
		for b.Loop() {
			_, log := playRandom(b, cfg, seed, nil)
			moves += len(log)
			seed++
		}
		b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	})
	b.Run("play", func(b *testing.B) {
		moves, seed := 0, uint64(0)
		for b.Loop() {
			moves += playInPlace(b, cfg, seed)
			seed++
		}
		b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	})
}

// midGames returns 4-player states of seeded random games, a few from
// each phase.
func midGames(tb testing.TB) []State {
	var out []State
	for seed := range uint64(6) {
		step := 0
		playRandom(tb, Config{Players: 4, Capitalists: seed%2 == 0}, seed, func(before, _ State, _ int, _ Move) {
			if step++; step%17 == 0 {
				out = append(out, before)
			}
		})
	}
	return out
}

// BenchmarkLegal measures Legal for an acting seat of mid-game 4-player
// states, and AppendLegal into a reused list.
func BenchmarkLegal(b *testing.B) {
	states := midGames(b)
	b.Run("new", func(b *testing.B) {
		i := 0
		for b.Loop() {
			s := states[i%len(states)]
			Legal(s, StatusOf(s).Acting[0])
			i++
		}
	})
	b.Run("append", func(b *testing.B) {
		var buf []Move
		var acting []int
		i := 0
		for b.Loop() {
			s := &states[i%len(states)]
			acting = appendActing(acting[:0], s)
			buf = AppendLegal(buf[:0], s, acting[0])
			i++
		}
	})
}

// BenchmarkApply measures one legal move on mid-game 4-player states:
// "apply" copies the state and records events, "play" changes a copy
// made outside the timing.
func BenchmarkApply(b *testing.B) {
	states := midGames(b)
	type step struct {
		s    State
		seat int
		m    Move
	}
	var steps []step
	for _, s := range states {
		seat := StatusOf(s).Acting[0]
		l := Legal(s, seat)
		steps = append(steps, step{s, seat, l[len(l)/2]})
	}
	b.Run("apply", func(b *testing.B) {
		i := 0
		for b.Loop() {
			st := steps[i%len(steps)]
			if _, _, err := Apply(st.s, st.seat, st.m); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("clone", func(b *testing.B) {
		i := 0
		for b.Loop() {
			steps[i%len(steps)].s.Clone()
			i++
		}
	})
	b.Run("play", func(b *testing.B) {
		copies := make([]State, len(steps))
		for i := 0; b.Loop(); i++ {
			k := i % len(steps)
			if k == 0 {
				b.StopTimer()
				for j := range copies {
					copies[j] = steps[j].s.Clone()
				}
				b.StartTimer()
			}
			if err := copies[k].Play(steps[k].seat, steps[k].m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestFewAllocations guards what keeps simulations fast: Clone carves a
// state from a few arrays, AppendLegal into a list with room allocates
// nothing, and Play allocates only when a round is dealt or a card
// changes hands.
func TestFewAllocations(t *testing.T) {
	states := midGames(t)
	for i, s := range states {
		// Deck and removed and new cards, lots, discs, players, owned
		// cards: 5 (the Agent makes 6 in 2-player games).
		if n := testing.AllocsPerRun(10, func() { s.Clone() }); n > 5 {
			t.Errorf("state %d: Clone makes %v allocations", i, n)
		}
		buf := make([]Move, 0, 1024)
		seat := StatusOf(s).Acting[0]
		if n := testing.AllocsPerRun(10, func() { AppendLegal(buf[:0], &s, seat) }); n != 0 {
			t.Errorf("state %d: AppendLegal makes %v allocations", i, n)
		}
	}
	// A whole in-place game: a few allocations a round (the deal, cards
	// changing hands), none a move.
	n := testing.AllocsPerRun(5, func() { playInPlace(t, Config{Players: 4}, 3) })
	if n > 80 {
		t.Errorf("a random 4-player game played in place makes %v allocations", n)
	}
}
