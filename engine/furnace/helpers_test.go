package furnace

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// This file holds the fixtures every test shares: a hand-built table, move
// helpers that fail the test with context, the invariant checker and the
// random player used by the property tests, fuzzing and the benchmarks.

// card returns the card with the given id, failing the test if none.
func card(t testing.TB, id string) Card {
	t.Helper()
	c, ok := CardByID(id)
	if !ok {
		t.Fatalf("no card %q", id)
	}
	return c
}

// seatSetup describes one seat of a hand-built table.
type seatSetup struct {
	Capitalist Capitalist
	Start      string   // start card id; the first one not named when empty
	Cards      []string // companies, basic side up
	Upgraded   []string // companies, upgraded side up
	New        []string // chain variant: won this round, not placed yet
	Goods      Goods
}

// table describes a hand-built game. Every company not named goes to the
// deck in id order, so a table holds each card exactly once.
type table struct {
	Players int // 2 when zero
	Phase   Phase
	Config  Config // Players and Rounds are filled in
	Seats   []seatSetup
	Market  []string // the auction's cards, left to right
	Round   int      // 1 when zero
	First   int
}

// build makes the State the table describes: production unless Phase
// says otherwise, every disc in hand, seat First to bid.
func (tb table) build(t testing.TB) State {
	t.Helper()
	cfg := tb.Config
	cfg.Players = max(tb.Players, 2)
	if cfg.Rounds == 0 {
		cfg.Rounds = Rounds
	}
	if cfg.Capitalists && cfg.Arthur == "" {
		cfg.Arthur = ArthurAlone
	}
	phase := tb.Phase
	if phase == "" {
		phase = ProductionPhase
	}
	s := State{Format: Format, Config: cfg, Seed: 7, RNG: engine.NewRNG(7), Round: max(tb.Round, 1),
		Phase: phase, First: tb.First, Turn: tb.First, Removed: []Card{}, Market: []Lot{}}
	used := map[Card]bool{}
	take := func(id string) Card {
		c := card(t, id)
		if used[c] {
			t.Fatalf("card %s is on the table twice", id)
		}
		used[c] = true
		return c
	}
	s.Players = make([]Player, cfg.Players)
	for i := range s.Players {
		var set seatSetup
		if i < len(tb.Seats) {
			set = tb.Seats[i]
		}
		p := &s.Players[i]
		start := NoCard
		if set.Start != "" {
			start = take(set.Start)
		}
		p.Capitalist, p.Goods = set.Capitalist, set.Goods
		p.Cards = []Owned{{Card: start}}
		for _, id := range set.Cards {
			p.Cards = append(p.Cards, Owned{Card: take(id)})
		}
		for _, id := range set.Upgraded {
			p.Cards = append(p.Cards, Owned{Card: take(id), Upgraded: true})
		}
		for _, id := range set.New {
			p.New = append(p.New, take(id))
		}
		p.Bidder = Bidder{Discs: allDiscs}
		p.Neutral = p.Capitalist == Arthur
	}
	for _, id := range tb.Market {
		s.Market = append(s.Market, Lot{Card: take(id)})
	}
	// Seats without a start card named get the first ones left.
	for i := range s.Players {
		for k := 1; s.Players[i].Cards[0].Card == NoCard; k++ {
			if c := card(t, fmt.Sprintf("start-%d", k)); !used[c] {
				used[c] = true
				s.Players[i].Cards[0].Card = c
			}
		}
	}
	for c := Card(1); int(c) <= NumCompanies(); c++ {
		if !used[c] {
			s.Deck = append(s.Deck, c)
		}
	}
	if cfg.Players == 2 {
		s.Agent = &Agent{Bidder: Bidder{Discs: allDiscs}}
	}
	return s
}

// mustApply applies m and fails the test if Apply refuses it.
func mustApply(t testing.TB, s State, seat int, m Move) (State, []Event) {
	t.Helper()
	next, events, err := Apply(s, seat, m)
	if err != nil {
		t.Fatalf("Apply(seat %d, %s) refused: %v", seat, marshal(t, m), err)
	}
	checkInvariants(t, next)
	if !hasLegal(s, seat, m) {
		t.Fatalf("Apply accepted %s for seat %d, which Legal does not list", marshal(t, m), seat)
	}
	return next, events
}

// mustRefuse applies m and fails the test unless Apply refuses it with an
// error containing want and leaves the state as it was; Play must refuse
// it the same way and leave its state alone too.
func mustRefuse(t testing.TB, s State, seat int, m Move, want string) {
	t.Helper()
	before := marshal(t, s)
	next, events, err := Apply(s, seat, m)
	if err == nil {
		t.Fatalf("Apply(seat %d, %s) was accepted; want a refusal containing %q", seat, marshal(t, m), want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("Apply(seat %d, %s) refused with %q; want it to contain %q", seat, marshal(t, m), err, want)
	}
	if strings.HasPrefix(err.Error(), "move refused:") {
		t.Fatalf("Apply(seat %d, %s) hit the panic backstop: %v", seat, marshal(t, m), err)
	}
	if events != nil {
		t.Fatalf("a refused move emitted events: %v", events)
	}
	if got := marshal(t, next); got != before {
		t.Fatalf("a refused move returned a changed state")
	}
	if got := marshal(t, s); got != before {
		t.Fatalf("a refused move changed its input state")
	}
	own := s.Clone()
	if err := own.Play(seat, m); err == nil || err.Error() != strings.TrimSpace(err.Error()) || marshal(t, own) != before {
		t.Fatalf("Play(seat %d, %s): %v, and the state changed: %v", seat, marshal(t, m), err, marshal(t, own) != before)
	}
	if hasLegal(s, seat, m) {
		t.Fatalf("Legal lists %s for seat %d, which Apply refuses", marshal(t, m), seat)
	}
}

func marshal(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	return string(b)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// hasLegal reports whether m is among seat's legal moves.
func hasLegal(s State, seat int, m Move) bool {
	return slices.Contains(Legal(s, seat), m)
}

// owned returns seat's record of the card with the given id.
func ownedCard(t testing.TB, s State, seat int, id string) Owned {
	t.Helper()
	c := card(t, id)
	p := &s.Players[seat]
	if j := p.owned(c); j >= 0 {
		return p.Cards[j]
	}
	t.Fatalf("seat %d does not own %s", seat, id)
	return Owned{}
}

// checkInvariants fails the test if s breaks a rule that must always hold.
func checkInvariants(t testing.TB, s State) {
	t.Helper()
	if err := invariantError(s); err != nil {
		t.Fatalf("invariant broken: %v", err)
	}
}

// invariantError reports the first broken invariant of s: every company
// in exactly one place (deck, market, a seat's cards or new cards, the
// box), one start card a seat, nothing negative, discs where they belong.
func invariantError(s State) error {
	seen := make([]string, NumCompanies()+1)
	put := func(c Card, where string) error {
		if c.IsStart() || !c.valid() {
			return fmt.Errorf("%s holds %v, not a company", where, int(c))
		}
		if seen[c] != "" {
			return fmt.Errorf("%s is both in %s and in %s", c, seen[c], where)
		}
		seen[c] = where
		return nil
	}
	for _, c := range s.Deck {
		if err := put(c, "the deck"); err != nil {
			return err
		}
	}
	for _, c := range s.Removed {
		if err := put(c, "the box"); err != nil {
			return err
		}
	}
	for i, l := range s.Market {
		if err := put(l.Card, fmt.Sprintf("market position %d", i)); err != nil {
			return err
		}
	}
	starts := map[Card]bool{}
	for seat, p := range s.Players {
		where := fmt.Sprintf("seat %d's cards", seat)
		nStart := 0
		for _, o := range p.Cards {
			if o.Card.IsStart() {
				nStart++
				if starts[o.Card] {
					return fmt.Errorf("two seats have %s", o.Card)
				}
				starts[o.Card] = true
				if o.Upgraded {
					return fmt.Errorf("seat %d's start card is upgraded", seat)
				}
				continue
			}
			if err := put(o.Card, where); err != nil {
				return err
			}
		}
		if nStart != 1 {
			return fmt.Errorf("seat %d has %d start cards", seat, nStart)
		}
		for _, c := range p.New {
			if err := put(c, fmt.Sprintf("seat %d's new cards", seat)); err != nil {
				return err
			}
		}
		if !p.Goods.Covers(Goods{}) {
			return fmt.Errorf("seat %d has negative goods: %+v", seat, p.Goods)
		}
		if p.Owed < 0 || (p.Owed > 0 && s.Phase != ResolvePhase) {
			return fmt.Errorf("seat %d is owed %d in the %s phase", seat, p.Owed, s.Phase)
		}
		if p.Done && s.Phase != ProductionPhase {
			return fmt.Errorf("seat %d is done in the %s phase", seat, s.Phase)
		}
		if len(p.New) > 0 && (!s.Config.Chain || s.Phase != ProductionPhase && s.Phase != ResolvePhase) {
			return fmt.Errorf("seat %d has new cards waiting in the %s phase", seat, s.Phase)
		}
		if p.Neutral && p.Capitalist != Arthur {
			return fmt.Errorf("seat %d holds the neutral disc without being Arthur", seat)
		}
	}
	for c := 1; c < len(seen); c++ {
		if seen[c] == "" {
			return fmt.Errorf("%s is nowhere", Card(c))
		}
	}
	if (s.Agent != nil) != (len(s.Players) == 2) {
		return fmt.Errorf("%d players and an Agent: %v", len(s.Players), s.Agent != nil)
	}
	// Every disc on the market is out of its owner's hand, and no card
	// breaks the placement rules but by Monica's discs.
	for i, l := range s.Market {
		values := map[int]bool{}
		owners := map[int]bool{}
		for _, d := range l.Discs {
			monica := d.Seat >= 0 && d.Seat < len(s.Players) && s.Players[d.Seat].Capitalist == Monica
			switch {
			case d.Seat == AgentSeat:
				if s.Agent == nil || s.Agent.Discs.Has(d.Value) {
					return fmt.Errorf("an Agent disc %d on market position %d is also in hand", d.Value, i)
				}
			case d.Seat < 0 || d.Seat >= len(s.Players):
				return fmt.Errorf("a disc of seat %d on market position %d", d.Seat, i)
			case d.Neutral:
				if s.Players[d.Seat].Neutral || d.Value != neutralValue {
					return fmt.Errorf("the neutral disc is both placed and in hand")
				}
			case s.Players[d.Seat].Discs.Has(d.Value):
				return fmt.Errorf("seat %d's %d is on market position %d and in hand", d.Seat, d.Value, i)
			}
			if !monica && (values[d.Value] || owners[d.Seat]) {
				return fmt.Errorf("market position %d breaks the placement rules: %+v", i, l.Discs)
			}
			values[d.Value], owners[d.Seat] = !monica || values[d.Value], !monica || owners[d.Seat]
		}
	}
	if s.Phase == AuctionPhase && (s.Turn < 0 || s.Turn >= len(s.Players) || s.Players[s.Turn].Out) {
		return fmt.Errorf("auction turn of seat %d", s.Turn)
	}
	if s.Phase == ResolvePhase && len(s.Market) == 0 {
		return fmt.Errorf("resolving an empty market")
	}
	if s.Round < 1 || s.Round > s.Config.Rounds {
		return fmt.Errorf("round %d of %d", s.Round, s.Config.Rounds)
	}
	return nil
}

// randomPlayer picks moves uniformly among the legal moves of a random
// acting seat.
type randomPlayer struct {
	rng *rand.Rand
}

func newRandomPlayer(seed uint64) randomPlayer {
	return randomPlayer{rng: rand.New(rand.NewPCG(seed, seed^0x5eed))}
}

// next returns the seat to act and its move, or ok false when nobody may act.
func (r randomPlayer) next(s State) (seat int, m Move, ok bool) {
	acting := StatusOf(s).Acting
	if len(acting) == 0 {
		return 0, Move{}, false
	}
	seat = acting[r.rng.IntN(len(acting))]
	legal := Legal(s, seat)
	if len(legal) == 0 {
		return seat, Move{}, false
	}
	return seat, r.pick(legal), true
}

// pick chooses among legal, passing over done most of the time so that
// random seats resolve their cards, and never taking a move back: a
// player that undoes at random could undo for ever. The undo tests take
// moves back on purpose.
func (r randomPlayer) pick(legal []Move) Move {
	if n := len(legal); n > 1 && legal[n-1].Kind == Undo {
		legal = legal[:n-1]
	}
	if n := len(legal); n > 1 && legal[n-1].Kind == Done && r.rng.IntN(4) != 0 {
		legal = legal[:n-1]
	}
	return legal[r.rng.IntN(len(legal))]
}

// playedMove is one step of a recorded game.
type playedMove struct {
	Seat int  `json:"seat"`
	Move Move `json:"move"`
}

// maxMoves bounds a random game: one that runs longer has stopped
// progressing.
const maxMoves = 5000

// playRandom plays a whole game with random legal moves and returns the
// final state and the moves. step, when set, runs after every move.
func playRandom(t testing.TB, cfg Config, seed uint64, step func(before, after State, seat int, m Move)) (State, []playedMove) {
	t.Helper()
	s, err := New(cfg, seed)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	r := newRandomPlayer(seed)
	var log []playedMove
	for s.Phase != GameOver {
		if len(log) > maxMoves {
			t.Fatalf("seed %d, %+v: no end after %d moves", seed, cfg, maxMoves)
		}
		seat, m, ok := r.next(s)
		if !ok {
			t.Fatalf("seed %d, %+v: seat %d has no legal move in the %s phase, round %d", seed, cfg, seat, s.Phase, s.Round)
		}
		next, _, err := Apply(s, seat, m)
		if err != nil {
			t.Fatalf("seed %d: legal move %s for seat %d refused: %v", seed, mustJSON(m), seat, err)
		}
		if step != nil {
			step(s, next, seat, m)
		}
		log = append(log, playedMove{seat, m})
		s = next
	}
	return s, log
}

// configs are the rule settings the property tests cover, for a number of
// players.
func configs(players int) []Config {
	var out []Config
	for _, caps := range []bool{false, true} {
		for _, chain := range []bool{false, true} {
			cfg := Config{Players: players, Capitalists: caps, Chain: chain}
			if caps {
				cfg.Arthur = []ArthurTiming{ArthurAlone, ArthurPaired}[players%2]
			}
			out = append(out, cfg)
		}
	}
	return out
}
