package factories

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// stepChecker follows a game move by move and checks the properties that
// must hold whatever is played.
type stepChecker struct {
	// activated holds the buildings activated in the current work phase.
	activated map[[2]int]bool
	// played holds each seat's moves in the current work phase, which an
	// undo takes back newest first.
	played map[int][]Move
	round  int
}

// check is called for every Apply: before and m are the input, next, events
// and err the output, raw the JSON of before taken ahead of the call.
func (c *stepChecker) check(before State, raw string, seat int, m Move, next State, events []Event, err error) error {
	if after, _ := json.Marshal(before); string(after) != raw {
		return fmt.Errorf("Apply(seat %d, %+v) changed its input state", seat, m)
	}
	if err != nil {
		if strings.HasPrefix(err.Error(), "move refused:") {
			return fmt.Errorf("Apply(seat %d, %+v) panicked: %v", seat, m, err)
		}
		if err.Error() == "" {
			return fmt.Errorf("Apply(seat %d, %+v) refused without a reason", seat, m)
		}
		if events != nil {
			return fmt.Errorf("a refused move emitted events")
		}
		if got, _ := json.Marshal(next); string(got) != raw {
			return fmt.Errorf("refused move %+v returned a changed state", m)
		}
		return nil
	}
	if err := invariantError(next); err != nil {
		return fmt.Errorf("after seat %d's %+v: %w", seat, m, err)
	}
	if len(events) == 0 {
		return fmt.Errorf("seat %d's %+v emitted no event", seat, m)
	}
	if next.Round < before.Round || (next.Round == before.Round && before.Phase == GameOver) {
		return fmt.Errorf("the round went from %d to %d", before.Round, next.Round)
	}
	if c.activated == nil || next.Round != c.round || next.Phase != WorkPhase {
		c.activated, c.played, c.round = map[[2]int]bool{}, map[int][]Move{}, next.Round
	}
	if m.Kind == Undo {
		if n := len(c.played[seat]); n > 0 {
			if last := c.played[seat][n-1]; last.Kind == Activate {
				delete(c.activated, [2]int{seat, int(last.Card)})
			}
			c.played[seat] = c.played[seat][:n-1]
		}
	} else if before.Phase == WorkPhase {
		c.played[seat] = append(c.played[seat], m)
	}
	if m.Kind == Activate && before.Phase == WorkPhase {
		key := [2]int{seat, int(m.Card)}
		if c.activated[key] {
			return fmt.Errorf("seat %d activated %s twice in round %d", seat, m.Card.Name(), before.Round)
		}
		c.activated[key] = true
	}
	for i, p := range next.Players {
		q := before.Players[i]
		if m.Kind == Undo {
			break // taking a move back takes back its goods (TestUndoProperties)
		}
		if p.Goods < q.Goods {
			return fmt.Errorf("seat %d lost goods: %d -> %d", i, q.Goods, p.Goods)
		}
		if len(p.Compound) < len(q.Compound) {
			return fmt.Errorf("seat %d lost a building", i)
		}
		if i != seat && before.Phase == WorkPhase && next.Phase == WorkPhase {
			if a, _ := json.Marshal(p); string(a) != string(mustJSON(q)) {
				return fmt.Errorf("seat %d's work-phase move %+v changed seat %d", seat, m, i)
			}
		}
	}
	// Whoever may act has a legal move: the seat that moved, and everyone
	// when a phase or round begins.
	if next.Phase != GameOver {
		fresh := next.Phase != before.Phase || next.Round != before.Round
		for _, a := range StatusOf(next).Acting {
			if (fresh || a == seat) && len(Legal(next, a)) == 0 {
				return fmt.Errorf("acting seat %d has no legal move", a)
			}
		}
	}
	return nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// checkLegalAfterJSON applies every legal move of every seat to the state
// read back from JSON: what Legal lists must apply to the stored game too.
func checkLegalAfterJSON(s State) error {
	back, err := Decode(mustJSON(s))
	if err != nil {
		return err
	}
	for seat := range s.Players {
		for _, m := range Legal(s, seat) {
			var mb Move
			if err := json.Unmarshal(mustJSON(m), &mb); err != nil {
				return err
			}
			if _, _, err := Apply(back, seat, mb); err != nil {
				return fmt.Errorf("legal move %+v for seat %d refused after JSON: %v", m, seat, err)
			}
		}
	}
	return nil
}

// randomBytes returns n bytes from a generator seeded with seed.
func randomBytes(seed uint64, n int) []byte {
	r := newRandomPlayer(seed)
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(r.rng.UintN(256))
	}
	return out
}

// byteReader hands out fuzz bytes, then zeros.
type byteReader struct {
	data []byte
}

func (r *byteReader) next() byte {
	if len(r.data) == 0 {
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return b
}

func (r *byteReader) empty() bool { return len(r.data) == 0 }

var (
	fuzzKinds   = []MoveKind{Refresh, Take, Hire, Pass, SetDice, Choose, Build, Place, Activate, DiscardDown, Done, Undo, "", "bogus"}
	fuzzActions = []string{Research, Generate, Mine, "", "build"}
	fuzzChoices = []string{"metal", "energy", "draw", "", "goods"}
	fuzzRows    = []string{BlueprintRow, ContractorRow, "", "both"}
	fuzzPays    = []string{"metal", "energy", "", "goods"}
)

// garbageMove builds a move from fuzz bytes: any kind, with fields that are
// often plausible (the seat's own cards, small dice indexes) and sometimes
// absurd.
func garbageMove(r *byteReader, s State, seat int) Move {
	p := s.Players[0]
	if seat >= 0 && seat < len(s.Players) {
		p = s.Players[seat]
	}
	card := func() Card {
		b := r.next()
		switch b % 4 {
		case 0:
			if len(p.Hand) > 0 {
				return p.Hand[int(b/4)%len(p.Hand)]
			}
		case 1:
			if len(p.Compound) > 0 {
				return p.Compound[int(b/4)%len(p.Compound)].Card
			}
		case 2:
			return s.Market.Blueprints[int(b/4)%marketSize]
		}
		return Card(int(b/4) - 10)
	}
	small := func(n int) int { return int(r.next()%byte(n+2)) - 1 }
	m := Move{
		Kind:     fuzzKinds[int(r.next())%len(fuzzKinds)],
		Slot:     small(5),
		Card:     card(),
		Action:   fuzzActions[int(r.next())%len(fuzzActions)],
		Choice:   fuzzChoices[int(r.next())%len(fuzzChoices)],
		Value:    small(7),
		Metal:    small(5),
		Energy:   small(5),
		Row:      fuzzRows[int(r.next())%len(fuzzRows)],
		Pay:      fuzzPays[int(r.next())%len(fuzzPays)],
		Opponent: small(MaxPlayers),
	}
	for range r.next() % 4 {
		m.Dice = append(m.Dice, small(len(p.Dice)))
	}
	for range r.next() % 3 {
		m.Discard = append(m.Discard, card())
	}
	for range r.next() % 6 {
		m.Values = append(m.Values, small(7))
	}
	return m
}

// seededGame starts a game of players seats from seed; a solo game's
// difficulty comes from the seed too, and odd seeds let seats take moves
// back (the moves the fuzz bytes pick may be undos; the random player
// that finishes a game never takes one).
func seededGame(seed uint64, players int) (State, error) {
	cfg := Config{Players: players, Undo: seed%2 == 1}
	if players == 1 {
		cfg.Difficulty = []string{"easy", "medium", "hard", "insane"}[seed%4]
	}
	return New(cfg, seed)
}

// fuzzGame plays the game the fuzz input describes and returns the first
// broken property. Each step takes a byte to pick the seat and one to pick
// between a legal move and a garbage move; once the bytes run out the game
// is finished with legal moves.
func fuzzGame(seed uint64, players int, data []byte) error {
	s, err := seededGame(seed, players)
	if err != nil {
		return err
	}
	if err := invariantError(s); err != nil {
		return err
	}
	r := &byteReader{data: data}
	finish := newRandomPlayer(seed)
	var c stepChecker
	for steps := 0; s.Phase != GameOver; steps++ {
		if s.Round > maxRounds {
			return fmt.Errorf("the game passed round %d", maxRounds)
		}
		var seat int
		var m Move
		legalMove := true // garbage moves may be refused; legal ones must not
		if r.empty() {
			var ok bool
			if seat, m, ok = finish.next(s); !ok {
				return fmt.Errorf("nobody can move in round %d, %s phase", s.Round, s.Phase)
			}
		} else {
			legalMove = false
			acting := StatusOf(s).Acting
			b := r.next()
			seat = acting[int(b)%len(acting)]
			if b >= 240 {
				seat = int(b-240)%(players+2) - 1 // sometimes a seat that may not act
			}
			if mode := r.next(); mode%4 != 0 && seat >= 0 && seat < players {
				legal := Legal(s, seat)
				if len(legal) > 0 {
					m = legal[(int(mode)<<8|int(r.next()))%len(legal)]
					legalMove = true
				} else {
					m = garbageMove(r, s, seat)
				}
			} else {
				m = garbageMove(r, s, seat)
			}
		}
		raw := string(mustJSON(s))
		next, events, err := Apply(s, seat, m)
		if err := c.check(s, raw, seat, m, next, events, err); err != nil {
			return fmt.Errorf("step %d: %w", steps, err)
		}
		if err != nil && legalMove {
			return fmt.Errorf("step %d: legal move %+v for seat %d refused: %v", steps, m, seat, err)
		}
		s = next
	}
	return nil
}

func FuzzApply(f *testing.F) {
	f.Add(uint64(1), uint8(2), []byte{})
	f.Add(uint64(2), uint8(1), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add(uint64(3), uint8(3), []byte("the quick brown fox jumps over the lazy dog"))
	f.Add(uint64(4), uint8(4), []byte{255, 0, 255, 0, 250, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add(uint64(5), uint8(5), []byte{1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0})
	f.Add(uint64(6), uint8(0), []byte{8, 0, 1, 3, 9, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4})
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, data []byte) {
		if len(data) > 4096 {
			data = data[:4096]
		}
		if err := fuzzGame(seed, 1+int(players)%MaxPlayers, data); err != nil {
			t.Fatal(err)
		}
	})
}

// seededGames is how many seeded games a property test plays per number of
// seats: full, or short under -short and under the race detector.
func seededGames(full, short int) int {
	if testing.Short() || raceEnabled {
		return short
	}
	return full
}

// TestRandomGames plays many seeded games of every size with random legal
// moves and garbage moves mixed in, checking every property after every
// move, and that each game ends. CI plays the long run, 100 games a size,
// without the race detector.
func TestRandomGames(t *testing.T) {
	games := seededGames(12, 3)
	if os.Getenv("CI") != "" && !testing.Short() && !raceEnabled {
		games = 100
	}
	for players := 1; players <= MaxPlayers; players++ {
		t.Run(fmt.Sprintf("%dP", players), func(t *testing.T) {
			t.Parallel()
			for g := range games {
				seed := uint64(players*1000 + g)
				// Fuzz-style bytes from the seed: legal and garbage moves mixed.
				data := randomBytes(seed^0xabcdef, 600)
				if err := fuzzGame(seed, players, data); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
		})
	}
}

// TestLegalMovesApply checks, at many points of seeded games, that every
// legal move of every seat applies to the game read back from JSON.
func TestLegalMovesApply(t *testing.T) {
	everyNthState(t, seededGames(6, 2), 77, 5, func(seed uint64) func(int, State) {
		return func(step int, before State) {
			if err := checkLegalAfterJSON(before); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
		}
	})
}

// everyNthState plays seeded random games, games of each size seeded
// players*mul+g, and hands every nth state before a move to the checker
// that game makes for its seed.
func everyNthState(t *testing.T, games int, mul uint64, n int, game func(seed uint64) func(step int, before State)) {
	t.Helper()
	for players := 1; players <= MaxPlayers; players++ {
		for g := range games {
			seed := uint64(players)*mul + uint64(g)
			check, step := game(seed), 0
			playRandom(t, Config{Players: players}, seed, func(before, _ State, _ int, _ Move) {
				if step++; step%n == 0 {
					check(step, before)
				}
			})
		}
	}
}

// TestReplay records seeded random games, stores the move list as JSON,
// replays it from the seed and compares the final states byte for byte.
func TestReplay(t *testing.T) {
	games := seededGames(25, 6)
	for g := range games {
		players := 1 + g%MaxPlayers
		cfg := Config{Players: players}
		if players == 1 {
			cfg.Difficulty = []string{"easy", "medium", "hard", "insane"}[g%4]
		}
		seed := uint64(9000 + g)
		var allEvents []Event
		final, log := playRandom(t, cfg, seed, func(before, _ State, seat int, m Move) {
			_, events, _ := Apply(before, seat, m)
			allEvents = append(allEvents, events...)
		})
		stored := mustJSON(log)
		var moves []playedMove
		if err := json.Unmarshal(stored, &moves); err != nil {
			t.Fatal(err)
		}
		s, err := New(cfg, seed)
		if err != nil {
			t.Fatal(err)
		}
		var replayed []Event
		for i, pm := range moves {
			var events []Event
			s, events, err = Apply(s, pm.Seat, pm.Move)
			if err != nil {
				t.Fatalf("game %d: replayed move %d (%+v) refused: %v", g, i, pm, err)
			}
			replayed = append(replayed, events...)
		}
		if got, want := string(mustJSON(s)), string(mustJSON(final)); got != want {
			t.Errorf("game %d (%d players, seed %d): the replayed game differs", g, players, seed)
		}
		if string(mustJSON(replayed)) != string(mustJSON(allEvents)) {
			t.Errorf("game %d: the replay's events differ", g)
		}
		if s.Phase != GameOver {
			t.Errorf("game %d: the replay did not end", g)
		}
	}
}

// TestReplayThroughRules replays games through the JSON Ruleset, the way a
// room stores and replays them, and gets the same bytes.
func TestReplayThroughRules(t *testing.T) {
	games := seededGames(5, 2)
	r := Rules
	for g := range games {
		players := 1 + (g*2)%MaxPlayers
		seed := uint64(500 + g)
		final, log := playRandom(t, Config{Players: players, Undo: true}, seed, nil)
		raw, err := r.New(players, nil, seed)
		if err != nil {
			t.Fatal(err)
		}
		for i, pm := range log {
			raw, _, err = r.Apply(raw, pm.Seat, mustJSON(pm.Move))
			if err != nil {
				t.Fatalf("game %d move %d: %v", g, i, err)
			}
		}
		if string(mustJSON(raw)) != string(mustJSON(final)) {
			t.Errorf("game %d: the JSON replay differs from the game", g)
		}
		st, err := r.Status(raw)
		if err != nil || !st.Over {
			t.Errorf("game %d: status %+v, %v; want over", g, st, err)
		}
	}
}

// BenchmarkLegal measures Legal on mid-game 4-player states.
func BenchmarkLegal(b *testing.B) {
	var states []State
	for seed := range uint64(8) {
		s := midGame(b, Config{Players: 4}, seed, 40)
		states = append(states, s)
	}
	i := 0
	for b.Loop() {
		s := states[i%len(states)]
		for _, seat := range StatusOf(s).Acting {
			Legal(s, seat)
		}
		i++
	}
}

// TestFewAllocations guards what keeps Legal and Apply cheap: Legal builds
// its list on the stack and carves the moves' dice and discards from two
// shared arrays, and Clone carves a state from one array per type. A
// change that sends Legal's list to the heap, or gives each slice its own
// allocation again, fails here before it shows in a benchmark.
func TestFewAllocations(t *testing.T) {
	for seed := range uint64(6) {
		s := midGame(t, Config{Players: 4}, seed, 40+int(seed)*13)
		for _, seat := range StatusOf(s).Acting {
			// The list, the dice combinations, the arrays for the moves'
			// dice and discards, and one more should one fill up. (A
			// MoveBuffer reuses them all.)
			if n := testing.AllocsPerRun(10, func() { Legal(s, seat) }); n > 5 {
				t.Errorf("seed %d seat %d: Legal makes %v allocations", seed, seat, n)
			}
		}
		// Players, cards, contractors, ints, dice, buildings, The Machine.
		if n := testing.AllocsPerRun(10, func() { s.Clone() }); n > 7 {
			t.Errorf("seed %d: clone makes %v allocations", seed, n)
		}
	}
}

// TestLegalMatchesItsDefinition holds Legal, which decides candidates
// with accepts instead of playing them, to its plain definition on seeded
// games: the same moves in the same order. Every other state is also tried
// with the seats' resources squeezed, so that paying for a move is often
// just possible or just impossible.
func TestLegalMatchesItsDefinition(t *testing.T) {
	t.Parallel()
	everyNthState(t, seededGames(3, 1), 53, 2, func(seed uint64) func(int, State) {
		r := newRandomPlayer(seed ^ 0x5ca1e)
		return func(step int, before State) {
			for i, s := range []State{before, squeeze(before, r)} {
				for seat := range s.Players {
					quick, plain := mustJSON(Legal(s, seat)), mustJSON(legalByDefinition(s, seat))
					if string(quick) != string(plain) {
						t.Fatalf("seed %d step %d (squeezed: %v) seat %d: Legal\n%s\nbut by definition\n%s", seed, step, i == 1, seat, quick, plain)
					}
				}
			}
		}
	})
}

// legalByDefinition is Legal's plain definition, which the tests hold the
// quick way to: every candidate played by Apply itself on a whole copy of
// the game, and kept if accepted.
func legalByDefinition(s State, seat int) []Move {
	var kept []Move
	for _, m := range allCandidates(s, seat) {
		if _, _, err := Apply(s, seat, m); err == nil {
			kept = append(kept, m)
		}
	}
	return kept
}

// allCandidates lists every candidate Legal considers for seat, kept or
// not.
func allCandidates(s State, seat int) []Move {
	var arena moveArena
	return candidates(&s, seat, true, &arena, nil)
}

// TestAcceptsMatchesApply checks every candidate Legal considers, one by
// one: accepts takes exactly the ones Apply takes, in the states of seeded
// games and in the same states with the seats' resources squeezed.
func TestAcceptsMatchesApply(t *testing.T) {
	t.Parallel()
	everyNthState(t, seededGames(4, 1), 31, 3, func(seed uint64) func(int, State) {
		r := newRandomPlayer(seed ^ 0xacce97)
		return func(step int, before State) {
			for _, s := range []State{before, squeeze(before, r), squeeze(before, r)} {
				raw := string(mustJSON(s))
				for seat := range s.Players {
					cand := allCandidates(s, seat)
					for _, m := range cand {
						_, _, err := Apply(s, seat, m)
						if err != nil && strings.HasPrefix(err.Error(), "move refused:") {
							t.Fatalf("seed %d step %d seat %d: candidate %+v panicked: %v", seed, step, seat, m, err)
						}
						if got := accepts(&s, seat, m); got != (err == nil) {
							t.Fatalf("seed %d step %d seat %d %+v: accepts says %v, Apply says %v\n%s", seed, step, seat, m, got, err, raw)
						}
					}
				}
				if string(mustJSON(s)) != raw {
					t.Fatalf("seed %d step %d: deciding the candidates changed the state", seed, step)
				}
			}
		}
	})
}

// squeeze returns a copy of s in which each seat has a few random metal
// and energy, sometimes over the end-of-round limit.
func squeeze(s State, r randomPlayer) State {
	s = s.Clone()
	for i := range s.Players {
		p := &s.Players[i]
		p.Metal, p.Energy = r.rng.IntN(7), r.rng.IntN(7)
		if r.rng.IntN(4) == 0 {
			p.Energy += StoreLimit
		}
	}
	return s
}
