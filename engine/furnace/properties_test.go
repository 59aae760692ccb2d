package furnace

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// stepChecker follows a game move by move and checks the properties that
// must hold whatever is played.
type stepChecker struct{}

// check is called for every Apply: before and m are the input, next, events
// and err the output, raw the JSON of before taken ahead of the call.
func (stepChecker) check(before State, raw string, seat int, m Move, next State, events []Event, err error) error {
	if after := string(mustJSON(before)); after != raw {
		return fmt.Errorf("Apply(seat %d, %s) changed its input state", seat, mustJSON(m))
	}
	// Play on an owned copy must do exactly what Apply did.
	own, _ := Decode([]byte(raw))
	perr := own.Play(seat, m)
	if (perr == nil) != (err == nil) || (err != nil && perr.Error() != err.Error()) {
		return fmt.Errorf("seat %d's %s: Apply says %v, Play says %v", seat, mustJSON(m), err, perr)
	}
	if err != nil {
		if strings.HasPrefix(err.Error(), "move refused:") {
			return fmt.Errorf("Apply(seat %d, %s) panicked: %v", seat, mustJSON(m), err)
		}
		if err.Error() == "" {
			return fmt.Errorf("Apply(seat %d, %s) refused without a reason", seat, mustJSON(m))
		}
		if events != nil {
			return fmt.Errorf("a refused move emitted events")
		}
		if got := string(mustJSON(next)); got != raw {
			return fmt.Errorf("refused move %s returned a changed state", mustJSON(m))
		}
		if got := string(mustJSON(own)); got != raw {
			return fmt.Errorf("refused move %s changed the state Play was given", mustJSON(m))
		}
		if slices.Contains(Legal(before, seat), m) {
			return fmt.Errorf("Legal lists %s for seat %d, which Apply refuses: %v", mustJSON(m), seat, err)
		}
		return nil
	}
	if got, want := string(mustJSON(own)), string(mustJSON(next)); got != want {
		return fmt.Errorf("seat %d's %s: Play and Apply disagree\nplay  %s\napply %s", seat, mustJSON(m), got, want)
	}
	if !slices.Contains(Legal(before, seat), m) {
		return fmt.Errorf("Apply accepted %s for seat %d, which Legal does not list", mustJSON(m), seat)
	}
	if err := invariantError(next); err != nil {
		return fmt.Errorf("after seat %d's %s: %w", seat, mustJSON(m), err)
	}
	if len(events) == 0 {
		return fmt.Errorf("seat %d's %s emitted no event", seat, mustJSON(m))
	}
	if next.Round < before.Round {
		return fmt.Errorf("the round went from %d to %d", before.Round, next.Round)
	}
	for i, p := range next.Players {
		q := before.Players[i]
		if m.Kind == Undo && i == seat {
			continue // taking a move back takes back its money (TestUndoProperties)
		}
		if p.Goods.Money < q.Goods.Money {
			return fmt.Errorf("seat %d lost money: %d -> %d", i, q.Goods.Money, p.Goods.Money)
		}
		if len(p.Cards)+len(p.New) < len(q.Cards)+len(q.New) {
			return fmt.Errorf("seat %d lost a card", i)
		}
		// In production a seat's move changes no other seat, but the last
		// done, which ends the round for all.
		if i != seat && before.Phase == ProductionPhase && next.Phase == ProductionPhase {
			if string(mustJSON(p)) != string(mustJSON(q)) {
				return fmt.Errorf("seat %d's production move %s changed seat %d", seat, mustJSON(m), i)
			}
		}
	}
	// Every seat that may act has a legal move.
	for _, a := range StatusOf(next).Acting {
		if len(Legal(next, a)) == 0 {
			return fmt.Errorf("acting seat %d has no legal move", a)
		}
	}
	if next.Phase != GameOver && len(StatusOf(next).Acting) == 0 {
		return fmt.Errorf("nobody may act in the %s phase", next.Phase)
	}
	return nil
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

var fuzzKinds = []MoveKind{Bid, Compensate, Place, Produce, Upgrade, Done, Undo, "", "pass"}

// garbageMove builds a move from fuzz bytes: any kind, with fields that are
// often plausible (market cards, the seat's own cards, small numbers) and
// sometimes absurd.
func garbageMove(r *byteReader, s State, seat int) Move {
	p := s.Players[0]
	if seat >= 0 && seat < len(s.Players) {
		p = s.Players[seat]
	}
	card := func() Card {
		b := r.next()
		switch b % 5 {
		case 0:
			if len(s.Market) > 0 {
				return s.Market[int(b/5)%len(s.Market)].Card
			}
		case 1:
			return p.Cards[int(b/5)%len(p.Cards)].Card
		case 2:
			if len(p.New) > 0 {
				return p.New[int(b/5)%len(p.New)]
			}
		case 3:
			return NoCard
		}
		return Card(int(b/5) - 3)
	}
	small := func(n int) int { return int(r.next()%byte(n+2)) - 1 }
	m := Move{Kind: fuzzKinds[int(r.next())%len(fuzzKinds)], Card: card()}
	flags := r.next()
	if flags&1 != 0 {
		m.Disc = small(5)
	}
	if flags&2 != 0 {
		m.Neutral = true
	}
	if flags&4 != 0 {
		m.Extra = card()
	}
	if flags&8 != 0 {
		m.Times = Times{small(5), 0}
	}
	if flags&16 != 0 {
		m.Times[1] = small(4)
	}
	if flags&32 != 0 {
		m.At = small(len(p.Cards) + 1)
	}
	if flags&64 != 0 {
		m.Again = true
	}
	return m
}

// fuzzGame plays the game the fuzz input describes and returns the first
// broken property. Each step takes a byte to pick the seat and one to pick
// between a legal move and a garbage move; once the bytes run out the game
// is finished with legal moves. Odd seeds let seats take moves back: the
// moves the bytes pick may be undos, the random player that finishes a
// game never takes one.
func fuzzGame(cfg Config, seed uint64, data []byte) error {
	cfg.Undo = seed%2 == 1
	s, err := New(cfg, seed)
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
		if steps > maxMoves {
			return fmt.Errorf("no end after %d moves", maxMoves)
		}
		var seat int
		var m Move
		legalMove := true
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
				seat = int(b-240)%(cfg.Players+2) - 1 // sometimes a seat that may not act
			}
			if mode := r.next(); mode%4 != 0 && seat >= 0 && seat < cfg.Players {
				if legal := Legal(s, seat); len(legal) > 0 {
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
			return fmt.Errorf("step %d: legal move %s for seat %d refused: %v", steps, mustJSON(m), seat, err)
		}
		s = next
	}
	return nil
}

// fuzzConfig picks the rule settings of a fuzzed game from one byte.
func fuzzConfig(b uint8) Config {
	cfg := Config{Players: MinPlayers + int(b)%3, Capitalists: b&4 != 0, Chain: b&8 != 0}
	if b&16 != 0 {
		cfg.Rounds = ShortRounds
	}
	if cfg.Capitalists {
		cfg.Arthur = []ArthurTiming{ArthurAlone, ArthurPaired}[b>>5&1]
	}
	return cfg
}

func FuzzApply(f *testing.F) {
	f.Add(uint64(1), uint8(0), []byte{})
	f.Add(uint64(2), uint8(4), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add(uint64(3), uint8(13), []byte("the quick brown fox jumps over the lazy dog"))
	f.Add(uint64(4), uint8(38), []byte{255, 0, 255, 0, 250, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add(uint64(5), uint8(45), []byte{1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, seed uint64, config uint8, data []byte) {
		if len(data) > 4096 {
			data = data[:4096]
		}
		if err := fuzzGame(fuzzConfig(config), seed, data); err != nil {
			t.Fatal(err)
		}
	})
}

// seededGames is how many seeded games a property test plays per setting:
// full, or short under -short.
func seededGames(full, short int) int {
	if testing.Short() || raceEnabled {
		return short
	}
	return full
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

// TestRandomGames plays many seeded games of every size and setting with
// random legal moves and garbage moves mixed in, checking every property
// after every move (Play and Apply agreeing among them), and that each
// game ends. CI plays the long run, without the race detector.
func TestRandomGames(t *testing.T) {
	games := seededGames(4, 1)
	if os.Getenv("CI") != "" && !testing.Short() && !raceEnabled {
		games = 25
	}
	for b := range 64 {
		cfg := fuzzConfig(uint8(b))
		t.Run(fmt.Sprintf("%+v", cfg), func(t *testing.T) {
			t.Parallel()
			for g := range games {
				seed := uint64(b*1000 + g)
				if err := fuzzGame(cfg, seed, randomBytes(seed^0xabcdef, 500)); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
		})
	}
}

// everyNthState plays seeded random games in every setting and hands every
// nth state before a move to check.
func everyNthState(t *testing.T, games, n int, check func(seed uint64, step int, s State)) {
	t.Helper()
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for ci, cfg := range configs(players) {
			for g := range games {
				seed := uint64(players*100 + ci*10 + g)
				step := 0
				playRandom(t, cfg, seed, func(before, _ State, _ int, _ Move) {
					if step++; step%n == 0 {
						check(seed, step, before)
					}
				})
			}
		}
	}
}

// candidates lists, for seat, every move a player could send that is worth
// asking Apply about: each kind with each field drawn from the cards on the
// table and the numbers around the rules' limits. Legal's plain definition
// is the candidates Apply accepts.
func candidates(s State, seat int) []Move {
	p := s.Players[seat]
	absent := Card(NumCompanies() + len(starts) + 1)
	// Cards a bid may name: the market's, and some that are not there.
	bidding := []Card{NoCard, absent, p.Cards[0].Card}
	for _, l := range s.Market {
		bidding = append(bidding, l.Card)
	}
	if len(s.Deck) > 0 {
		bidding = append(bidding, s.Deck[0])
	}
	// Cards a production move may name: the seat's own, and others.
	producing := []Card{NoCard, absent}
	for _, o := range p.Cards {
		producing = append(producing, o.Card)
	}
	producing = append(producing, p.New...)
	if len(s.Market) > 0 {
		producing = append(producing, s.Market[0].Card)
	}
	var out []Move
	for _, c := range bidding {
		for d := 0; d <= 5; d++ {
			for _, x := range bidding {
				out = append(out, Move{Kind: Bid, Card: c, Disc: d, Extra: x})
			}
			out = append(out, Move{Kind: Bid, Card: c, Disc: d, Neutral: true},
				Move{Kind: Bid, Card: c, Disc: d, Neutral: true, Extra: bidding[len(bidding)-1]})
		}
	}
	for _, c := range producing {
		for a := -1; a <= len(p.Cards)+1; a++ {
			out = append(out, Move{Kind: Place, Card: c, At: a})
		}
		for t0 := -1; t0 <= 5; t0++ {
			for t1 := -1; t1 <= 4; t1++ {
				for _, again := range []bool{false, true} {
					out = append(out, Move{Kind: Produce, Card: c, Times: Times{t0, t1}, Again: again})
				}
			}
		}
		out = append(out, Move{Kind: Upgrade, Card: c}, Move{Kind: Upgrade, Card: c, Disc: 1})
	}
	for n := -1; n <= 12; n++ {
		out = append(out, Move{Kind: Compensate, Times: Times{n}}, Move{Kind: Compensate, Times: Times{n, 1}})
	}
	return append(out, Move{Kind: Done}, Move{Kind: Done, At: 1}, Move{Kind: "pass"})
}

// squeeze returns a copy of s in which each seat holds a few random goods,
// so that paying for a line is often just possible or just impossible.
func squeeze(s State, r randomPlayer) State {
	s = s.Clone()
	for i := range s.Players {
		g := &s.Players[i].Goods
		g.Coal, g.Iron, g.Oil, g.Tokens = r.rng.IntN(6), r.rng.IntN(4), r.rng.IntN(4), r.rng.IntN(3)
	}
	return s
}

// TestLegalMatchesItsDefinition holds Legal, which builds only moves it
// knows to be legal, to its plain definition: every candidate Apply
// accepts, no more, no fewer, listed once. Every state is also tried with
// the seats' goods squeezed.
func TestLegalMatchesItsDefinition(t *testing.T) {
	t.Parallel()
	every := 7
	if testing.Short() || raceEnabled {
		every = 29
	}
	everyNthState(t, seededGames(1, 1), every, func(seed uint64, step int, before State) {
		r := newRandomPlayer(seed ^ uint64(step))
		for _, s := range []State{before, squeeze(before, r)} {
			for seat := range s.Players {
				legal := Legal(s, seat)
				var want []string
				for _, m := range candidates(s, seat) {
					if _, _, err := Apply(s, seat, m); err == nil {
						want = append(want, string(mustJSON(m)))
					} else if strings.HasPrefix(err.Error(), "move refused:") {
						t.Fatalf("seed %d step %d: %s panicked: %v", seed, step, mustJSON(m), err)
					}
				}
				var got []string
				for _, m := range legal {
					got = append(got, string(mustJSON(m)))
				}
				slices.Sort(got)
				slices.Sort(want)
				want = slices.Compact(want)
				if !slices.Equal(got, want) {
					t.Fatalf("seed %d step %d seat %d (%s phase): Legal\n%v\nbut by definition\n%v", seed, step, seat, s.Phase, got, want)
				}
			}
		}
	})
}

// TestPlayMatchesApply plays seeded games twice over, once with Apply and
// once with Play on one owned state, and compares the states move by move.
func TestPlayMatchesApply(t *testing.T) {
	t.Parallel()
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for ci, cfg := range configs(players) {
			for g := range seededGames(25, 4) {
				seed := uint64(7000 + players*100 + ci*10 + g)
				own, err := New(cfg, seed)
				if err != nil {
					t.Fatal(err)
				}
				playRandom(t, cfg, seed, func(_, after State, seat int, m Move) {
					if err := own.Play(seat, m); err != nil {
						t.Fatalf("seed %d: Play refused %s: %v", seed, mustJSON(m), err)
					}
					if a, b := string(mustJSON(own)), string(mustJSON(after)); a != b {
						t.Fatalf("seed %d: after %s Play gives\n%s\nApply gives\n%s", seed, mustJSON(m), a, b)
					}
				})
			}
		}
	}
}

// TestReplay records seeded random games, stores the move list as JSON,
// replays it from the seed and compares the final states and the events
// byte for byte.
func TestReplay(t *testing.T) {
	for g := range seededGames(24, 6) {
		cfg := configs(MinPlayers + g%3)[g%4]
		seed := uint64(9000 + g)
		var all []Event
		final, log := playRandom(t, cfg, seed, func(before, _ State, seat int, m Move) {
			_, events, _ := Apply(before, seat, m)
			all = append(all, events...)
		})
		var moves []playedMove
		if err := json.Unmarshal(mustJSON(log), &moves); err != nil {
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
				t.Fatalf("game %d: replayed move %d (%s) refused: %v", g, i, mustJSON(pm), err)
			}
			replayed = append(replayed, events...)
		}
		if got, want := string(mustJSON(s)), string(mustJSON(final)); got != want {
			t.Errorf("game %d (%+v, seed %d): the replayed game differs", g, cfg, seed)
		}
		if string(mustJSON(replayed)) != string(mustJSON(all)) {
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
	r := Rules
	for g := range seededGames(8, 3) {
		players := MinPlayers + g%3
		opts := map[string]string{"capitalists": []string{"off", "on"}[g%2], "chain": []string{"off", "on"}[g/2%2],
			"rounds": []string{"4", "3"}[g/4%2], "arthur": "paired"}
		cfg, err := ConfigOf(players, opts)
		if err != nil {
			t.Fatal(err)
		}
		seed := uint64(500 + g)
		cfg.Undo = true // as rooms play it
		final, log := playRandom(t, cfg, seed, nil)
		raw, err := r.New(players, mustJSON(opts), seed)
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
		if err != nil || !st.Over || st.Round != cfg.Rounds {
			t.Errorf("game %d: status %+v, %v; want over after round %d", g, st, err, cfg.Rounds)
		}
	}
}

// TestViewsHideTheDeck: no view, of any seat or a spectator, says anything
// about the deck but its size. Two states that differ only in the deck's
// order give byte-identical views, and a view's JSON has no deck, seed or
// generator in it.
func TestViewsHideTheDeck(t *testing.T) {
	everyNthState(t, seededGames(1, 1), 9, func(seed uint64, step int, s State) {
		other := s.Clone()
		slices.Reverse(other.Deck)
		other.Seed, other.RNG.State = other.Seed+1, other.RNG.State^0xfeed
		for seat := -1; seat < len(s.Players); seat++ {
			a, b := mustJSON(ViewOf(s, seat)), mustJSON(ViewOf(other, seat))
			if string(a) != string(b) {
				t.Fatalf("seed %d step %d: seat %d's view depends on the deck order or the seed", seed, step, seat)
			}
			var keys map[string]json.RawMessage
			if err := json.Unmarshal(a, &keys); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"deck", "seed", "rng"} {
				if _, ok := keys[k]; ok {
					t.Fatalf("a view has %q", k)
				}
			}
		}
	})
}

// TestEveryGameEnds: random games of every size and setting end after
// their rounds, with the result in the status.
func TestEveryGameEnds(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for _, cfg := range configs(players) {
			for _, rounds := range []int{Rounds, ShortRounds} {
				cfg.Rounds = rounds
				for seed := range uint64(seededGames(10, 2)) {
					final, _ := playRandom(t, cfg, seed, nil)
					st := StatusOf(final)
					if !st.Over || st.Round != rounds || st.Result == nil || len(st.Acting) != 0 {
						t.Fatalf("%+v seed %d: status %+v", cfg, seed, st)
					}
					if len(final.Deck) != NumCompanies()-rounds*(players+extraLots) {
						t.Errorf("%+v: %d cards left in the deck", cfg, len(final.Deck))
					}
				}
			}
		}
	}
}
