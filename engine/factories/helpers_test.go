package factories

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
// random player used by the property tests, fuzzing and the benchmark.

// seatSetup describes one seat of a hand-built table by card names.
type seatSetup struct {
	Hand     []string
	Compound []string
	Dice     []int // values of the seat's workers, all unplaced
	Metal    int
	Energy   int
	Goods    int
}

// table describes a hand-built game. Cards named here are taken from the
// 74 physical cards (lowest free copy first); every card not named goes to
// the deck in id order, so a table always holds each card exactly once and
// draws are predictable.
type table struct {
	Players int // 2 when zero
	Phase   Phase
	Seats   []seatSetup // seat i is Seats[i]; missing seats are empty
	Market  []string    // up to 4 blueprint names, left to right
	// Contractors fills the contractor row (gear, wrench, hammer, shovel
	// slots); by default it holds contractors 0 to 3.
	Contractors []string
	Deck        []string // the top of the deck, in order
	Difficulty  string   // solo only
	Machine     []string // The Machine's compound in solo
}

// cardPool hands out physical copies by name, each at most once.
type cardPool struct {
	used map[Card]bool
}

func (p *cardPool) take(t testing.TB, name string) Card {
	t.Helper()
	for _, c := range CardsNamed(name) {
		if !p.used[c] {
			p.used[c] = true
			return c
		}
	}
	t.Fatalf("no free copy of %q left for the table", name)
	return None
}

// build makes the State the table describes: the work phase unless Phase
// says otherwise, seat 0 first player, contractors in id order.
func (tb table) build(t testing.TB) State {
	t.Helper()
	players := tb.Players
	if players == 0 {
		players = 2
	}
	phase := tb.Phase
	if phase == "" {
		phase = WorkPhase
	}
	s := State{Format: Format, Config: Config{Players: players}, Seed: 7, RNG: engine.NewRNG(7),
		Round: 1, Phase: phase, Discard: []Card{}, ContractorDiscard: []Contractor{}}
	pool := &cardPool{used: map[Card]bool{}}
	s.Players = make([]Player, players)
	for i := range s.Players {
		var set seatSetup
		if i < len(tb.Seats) {
			set = tb.Seats[i]
		}
		p := &s.Players[i]
		p.Hand, p.Compound = []Card{}, []Building{}
		for _, n := range set.Hand {
			p.Hand = append(p.Hand, pool.take(t, n))
		}
		for _, n := range set.Compound {
			p.Compound = append(p.Compound, Building{Card: pool.take(t, n)})
		}
		for _, v := range set.Dice {
			p.Dice = append(p.Dice, Die{Value: v})
		}
		p.Metal, p.Energy, p.Goods = set.Metal, set.Energy, set.Goods
	}
	hired := map[Contractor]bool{}
	for i := range marketSize {
		s.Market.Blueprints[i] = None
		s.Market.Contractors[i] = None
		if tb.Contractors == nil {
			s.Market.Contractors[i] = Contractor(i)
			hired[Contractor(i)] = true
		}
	}
	for i, n := range tb.Contractors {
		for _, c := range ContractorsNamed(n) {
			if !hired[c] {
				s.Market.Contractors[i] = c
				hired[c] = true
				break
			}
		}
		if s.Market.Contractors[i] == None {
			t.Fatalf("no free %s for the contractor row", n)
		}
	}
	s.Market.Tools = Tools()
	for i, n := range tb.Market {
		s.Market.Blueprints[i] = pool.take(t, n)
	}
	for c := range NumContractors() {
		if !hired[Contractor(c)] {
			s.ContractorDeck = append(s.ContractorDeck, Contractor(c))
		}
	}
	if players == 1 {
		s.Config.Difficulty = tb.Difficulty
		if s.Config.Difficulty == "" {
			s.Config.Difficulty = "medium"
		}
		s.Machine = &Machine{Compound: []Card{}}
		for _, n := range tb.Machine {
			s.Machine.Compound = append(s.Machine.Compound, pool.take(t, n))
		}
	}
	for _, n := range tb.Deck {
		s.Deck = append(s.Deck, pool.take(t, n))
	}
	for c := range NumCards() {
		if !pool.used[Card(c)] {
			s.Deck = append(s.Deck, Card(c))
		}
	}
	return s
}

// one returns the first physical copy of a blueprint.
func one(name string) Card { return CardsNamed(name)[0] }

// copyOf returns the nth (0-based) physical copy of a blueprint.
func copyOf(name string, n int) Card { return CardsNamed(name)[n] }

// hireable returns the first physical copy of a contractor.
func hireable(name string) Contractor { return ContractorsNamed(name)[0] }

// mustApply applies m and fails the test if Apply refuses it.
func mustApply(t testing.TB, s State, seat int, m Move) (State, []Event) {
	t.Helper()
	next, events, err := Apply(s, seat, m)
	if err != nil {
		t.Fatalf("Apply(seat %d, %+v) refused: %v", seat, m, err)
	}
	checkInvariants(t, next)
	return next, events
}

// mustRefuse applies m and fails the test unless Apply refuses it with an
// error containing want and leaves the state as it was.
func mustRefuse(t testing.TB, s State, seat int, m Move, want string) {
	t.Helper()
	before := marshal(t, s)
	next, events, err := Apply(s, seat, m)
	if err == nil {
		t.Fatalf("Apply(seat %d, %+v) was accepted; want a refusal containing %q", seat, m, want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("Apply(seat %d, %+v) refused with %q; want it to contain %q", seat, m, err, want)
	}
	if strings.HasPrefix(err.Error(), "move refused:") {
		t.Fatalf("Apply(seat %d, %+v) hit the panic backstop: %v", seat, m, err)
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
}

func marshal(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	return string(b)
}

// building returns seat's compound entry for card c.
func building(t testing.TB, s State, seat int, c Card) Building {
	t.Helper()
	for _, b := range s.Players[seat].Compound {
		if b.Card == c {
			return b
		}
	}
	t.Fatalf("seat %d has no %s in its compound", seat, c.Name())
	return Building{}
}

// diceValues lists the values of seat's dice, placed or not.
func diceValues(p Player) []int {
	var out []int
	for _, d := range p.Dice {
		out = append(out, d.Value)
	}
	return out
}

// hasLegal reports whether m is among the legal moves. Legal lists one
// move per multiset of die values, so dice compare by their values.
func hasLegal(t testing.TB, s State, seat int, m Move) bool {
	t.Helper()
	norm := func(m Move) string {
		var vals []int
		for _, i := range m.Dice {
			if i >= 0 && i < len(s.Players[seat].Dice) {
				vals = append(vals, s.Players[seat].Dice[i].Value)
			} else {
				vals = append(vals, -1-i)
			}
		}
		slices.Sort(vals)
		m.Dice = vals
		return marshal(t, m)
	}
	want := norm(m)
	for _, l := range Legal(s, seat) {
		if norm(l) == want {
			return true
		}
	}
	return false
}

// checkInvariants fails the test if s breaks a rule that must always hold.
func checkInvariants(t testing.TB, s State) {
	t.Helper()
	if err := invariantError(s); err != nil {
		t.Fatalf("invariant broken: %v", err)
	}
}

// invariantError reports the first broken invariant of s: every card and
// contractor exactly once, no negative resources, sane dice and workers.
func invariantError(s State) error {
	seen := make([]string, NumCards())
	put := func(c Card, where string) error {
		if c < 0 || int(c) >= NumCards() {
			return fmt.Errorf("card id %d in %s is out of range", c, where)
		}
		if seen[c] != "" {
			return fmt.Errorf("card %d (%s) is both in %s and in %s", c, c.Name(), seen[c], where)
		}
		seen[c] = where
		return nil
	}
	for _, c := range s.Deck {
		if err := put(c, "the deck"); err != nil {
			return err
		}
	}
	for _, c := range s.Discard {
		if err := put(c, "the discard pile"); err != nil {
			return err
		}
	}
	for i, c := range s.Market.Blueprints {
		if c != None {
			if err := put(c, fmt.Sprintf("market slot %d", i)); err != nil {
				return err
			}
		}
	}
	for seat, p := range s.Players {
		for _, c := range p.Hand {
			if err := put(c, fmt.Sprintf("seat %d's hand", seat)); err != nil {
				return err
			}
		}
		for _, b := range p.Compound {
			if err := put(b.Card, fmt.Sprintf("seat %d's compound", seat)); err != nil {
				return err
			}
		}
	}
	if s.Machine != nil {
		for _, c := range s.Machine.Compound {
			if err := put(c, "The Machine's compound"); err != nil {
				return err
			}
		}
	}
	for c, where := range seen {
		if where == "" {
			return fmt.Errorf("card %d (%s) is nowhere", c, Card(c).Name())
		}
	}
	hired := make([]string, NumContractors())
	putC := func(c Contractor, where string) error {
		if c < 0 || int(c) >= NumContractors() {
			return fmt.Errorf("contractor id %d in %s is out of range", c, where)
		}
		if hired[c] != "" {
			return fmt.Errorf("contractor %d is both in %s and in %s", c, hired[c], where)
		}
		hired[c] = where
		return nil
	}
	for _, c := range s.ContractorDeck {
		if err := putC(c, "the contractor deck"); err != nil {
			return err
		}
	}
	for _, c := range s.ContractorDiscard {
		if err := putC(c, "the contractor discard pile"); err != nil {
			return err
		}
	}
	for i, c := range s.Market.Contractors {
		if c != None {
			if err := putC(c, fmt.Sprintf("contractor slot %d", i)); err != nil {
				return err
			}
		}
	}
	for c, where := range hired {
		if where == "" {
			return fmt.Errorf("contractor %d (%s) is nowhere", c, Contractor(c).Name())
		}
	}
	if s.Market.Tools != Tools() {
		return fmt.Errorf("the tool tokens moved: %v", s.Market.Tools)
	}
	for seat, p := range s.Players {
		if p.Metal < 0 || p.Energy < 0 || p.Goods < 0 {
			return fmt.Errorf("seat %d has %d metal, %d energy, %d goods", seat, p.Metal, p.Energy, p.Goods)
		}
		names := map[string]int{}
		for _, b := range p.Compound {
			names[b.Card.Name()]++
		}
		for n, k := range names {
			if k > 1 && !multipleAllowed(n) {
				return fmt.Errorf("seat %d has %d copies of %s", seat, k, n)
			}
		}
		for _, d := range p.Dice {
			if d.Value < 0 || d.Value > 6 || (d.Value == 0 && !d.Chosen && !p.SettingDice) {
				return fmt.Errorf("seat %d has a die showing %d", seat, d.Value)
			}
		}
		if s.Phase != WorkPhase {
			if p.Done {
				return fmt.Errorf("seat %d is done outside the work phase", seat)
			}
			continue
		}
		// Every placed die is a worker on the Headquarters or a building.
		placed, workers := 0, len(p.HQ.Research)+len(p.HQ.Generate)+len(p.HQ.Mine)
		for _, d := range p.Dice {
			if d.Placed {
				placed++
			}
		}
		for _, b := range p.Compound {
			workers += len(b.Dice)
			if len(b.Dice) > 0 && !b.Used {
				return fmt.Errorf("seat %d's %s holds workers but is not marked used", seat, b.Card.Name())
			}
		}
		if placed != workers {
			return fmt.Errorf("seat %d has %d placed dice but %d workers on cards", seat, placed, workers)
		}
		for _, slot := range [][]int{p.HQ.Research, p.HQ.Generate, p.HQ.Mine} {
			if len(slot) > 3 {
				return fmt.Errorf("seat %d has %d workers on one action", seat, len(slot))
			}
		}
	}
	if s.Machine != nil && s.Machine.Goods < 0 {
		return fmt.Errorf("The Machine has %d goods", s.Machine.Goods)
	}
	if s.Phase == MarketPhase && (s.Turn < 0 || s.Turn >= len(s.Players)) {
		return fmt.Errorf("market turn of seat %d", s.Turn)
	}
	return nil
}

// randomPlayer picks moves uniformly among the legal moves of a random
// acting seat. Done is picked less often so that seats use their dice and
// the game moves towards its end.
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

func (r randomPlayer) pick(legal []Move) Move {
	if n := len(legal); n > 1 && legal[n-1].Kind == Undo {
		// Never taken back: a player that undoes at random could undo
		// for ever. The undo tests take moves back on purpose.
		legal = legal[:len(legal)-1]
	}
	if len(legal) > 1 && legal[0].Kind == Done && r.rng.IntN(4) != 0 {
		legal = legal[1:]
	}
	return legal[r.rng.IntN(len(legal))]
}

// playedMove is one step of a recorded game.
type playedMove struct {
	Seat int  `json:"seat"`
	Move Move `json:"move"`
}

// maxRounds bounds a random game: random play ends far sooner, and a game
// that runs past this has stopped progressing.
const maxRounds = 80

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
		if s.Round > maxRounds {
			t.Fatalf("seed %d, %+v: the game passed round %d without ending", seed, cfg, maxRounds)
		}
		seat, m, ok := r.next(s)
		if !ok {
			t.Fatalf("seed %d, %+v: seat %d has no legal move in %s phase, round %d", seed, cfg, seat, s.Phase, s.Round)
		}
		next, _, err := Apply(s, seat, m)
		if err != nil {
			t.Fatalf("seed %d: legal move %+v for seat %d refused: %v", seed, m, seat, err)
		}
		if step != nil {
			step(s, next, seat, m)
		}
		log = append(log, playedMove{seat, m})
		s = next
	}
	return s, log
}

// names lists the printed names of cards, for messages.
func names(cards []Card) []string {
	var out []string
	for _, c := range cards {
		out = append(out, c.Name())
	}
	return out
}

// sameCards reports whether a and b hold the same cards in any order.
func sameCards(a, b []Card) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// act describes an activation by seat 0 in card names, resolved against a
// state by on: the building in the compound, discards from the hand.
type act struct {
	name    string
	dice    []int // indexes of seat 0's dice
	discard []string
	choice  string
	value   int
	metal   int
	energy  int
	slot    int // Replicator's marketplace slot
}

func (a act) on(t testing.TB, s State) Move {
	t.Helper()
	return Move{Kind: Activate, Card: inCompound(t, s, 0, a.name), Dice: a.dice,
		Discard: inHand(t, s, 0, a.discard...), Choice: a.choice, Value: a.value,
		Metal: a.metal, Energy: a.energy, Slot: a.slot}
}

// inCompound returns seat's building of the given name.
func inCompound(t testing.TB, s State, seat int, name string) Card {
	t.Helper()
	for _, b := range s.Players[seat].Compound {
		if b.Card.Name() == name {
			return b.Card
		}
	}
	t.Fatalf("seat %d has no %s in its compound", seat, name)
	return None
}

// inHand returns distinct cards of the given names from seat's hand, in
// order; a name given twice picks two copies.
func inHand(t testing.TB, s State, seat int, names ...string) []Card {
	t.Helper()
	var out []Card
	for _, n := range names {
		found := false
		for _, c := range s.Players[seat].Hand {
			if c.Name() == n && !slices.Contains(out, c) {
				out = append(out, c)
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("seat %d has no (more) %s in hand", seat, n)
		}
	}
	return out
}
