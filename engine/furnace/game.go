// Package furnace is the rules engine of Furnace (Ivan Lashin, 2020): pure
// functions from a State and a Move to the next State, with no I/O, clocks
// or globals beyond the read-only card tables of cards.json.
//
// Each rule is written once, as a change to a State the caller owns
// (State.Play); Apply is Play on a copy, for callers that keep the old
// state, such as rooms.
package furnace

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine"
)

// Event is an engine event; see engine.Event.
type Event = engine.Event

// New sets up a game from seed: each seat gets a random start card and its
// resources (and a random capitalist with the module on), the first player
// is drawn, and the first auction is dealt.
func New(cfg Config, seed uint64) (State, error) {
	if cfg.Players < MinPlayers || cfg.Players > MaxPlayers {
		return State{}, fmt.Errorf("a game of Furnace has %d to %d players, not %d", MinPlayers, MaxPlayers, cfg.Players)
	}
	switch cfg.Rounds {
	case 0:
		cfg.Rounds = Rounds
	case Rounds, ShortRounds:
	default:
		return State{}, fmt.Errorf("a game lasts %d rounds, or %d for the short game, not %d", Rounds, ShortRounds, cfg.Rounds)
	}
	switch {
	case !cfg.Capitalists:
		cfg.Arthur = "" // no Arthur to place a disc
	case cfg.Arthur == "":
		cfg.Arthur = ArthurAlone
	case cfg.Arthur != ArthurAlone && cfg.Arthur != ArthurPaired:
		return State{}, fmt.Errorf("Arthur's extra disc is placed %q or %q, not %q", ArthurAlone, ArthurPaired, cfg.Arthur)
	}
	if need := cfg.Rounds * (cfg.Players + extraLots); NumCompanies() < need {
		return State{}, fmt.Errorf("the card data has %d companies; %d rounds of %d players need %d", NumCompanies(), cfg.Rounds, cfg.Players, need)
	}
	if cfg.Players > len(starts) {
		return State{}, fmt.Errorf("the card data has %d start cards for %d players", len(starts), cfg.Players)
	}
	s := State{Format: Format, Config: cfg, Seed: seed, RNG: engine.NewRNG(seed), Round: 1, Removed: []Card{}}
	s.Deck = make([]Card, NumCompanies())
	for i := range s.Deck {
		s.Deck[i] = Card(i + 1)
	}
	s.shuffle()
	first := Card(NumCompanies() + 1)
	dealt := perm(&s.RNG, len(starts))
	var powers []int
	if cfg.Capitalists {
		powers = perm(&s.RNG, len(capitalists))
	}
	s.Players = make([]Player, cfg.Players)
	for i := range s.Players {
		p := &s.Players[i]
		start := first + Card(dealt[i])
		p.Cards = []Owned{{Card: start}}
		p.Goods = start.Start().Resources
		if powers != nil {
			p.Capitalist = capitalists[powers[i]].ID
		}
	}
	if cfg.Players == 2 {
		s.Agent = &Agent{}
	}
	s.First = s.RNG.Intn(cfg.Players)
	g := game{State: &s, seat: engine.Spectator}
	g.startAuction()
	return s, nil
}

// shuffle shuffles the deck; the rulebook's cut, done before every
// auction, so the card on top is never known.
func (s *State) shuffle() {
	s.RNG.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
}

// perm returns a random order of 0..n-1.
func perm(r *engine.RNG, n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	r.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// Apply plays move for seat. It returns the new state and what happened, or
// the unchanged state and an error a player can read. It never changes s.
func Apply(s State, seat int, m Move) (next State, events []Event, err error) {
	if err := s.canAct(seat); err != nil {
		return s, nil, err
	}
	// The checks refuse every move the rules do not allow before anything
	// changes; this is the backstop that keeps a bug from taking a room
	// down. The fuzz tests assert it never fires.
	defer func() {
		if r := recover(); r != nil {
			next, events, err = s, nil, fmt.Errorf("move refused: %v", r)
		}
	}()
	c := s.Clone()
	g := game{State: &c, seat: seat, log: true}
	if err := g.play(m); err != nil {
		return s, nil, err
	}
	return c, g.events, nil
}

// Play plays move for seat on s itself, recording no events: the fast path
// for bots and simulations, which own the state they play on. A refused
// move leaves s as it was, except after an error starting "move refused:"
// (a bug the tests hold to never happen), after which s must be dropped.
func (s *State) Play(seat int, m Move) (err error) {
	if err := s.canAct(seat); err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("move refused: %v", r)
		}
	}()
	g := game{State: s, seat: seat}
	return g.play(m)
}

// canAct refuses moves from outside the game or after it.
func (s *State) canAct(seat int) error {
	if seat < 0 || seat >= len(s.Players) {
		return refuse(fmt.Sprintf("seat %d is not in this game", seat), "furnace.refuse.noSeat", engine.Num("Seat", seat))
	}
	if s.Phase == GameOver {
		return refuse("the game is over", "furnace.refuse.over")
	}
	return nil
}

// game is a state being changed by one move, and the events it emits.
type game struct {
	*State
	seat int
	// log is set when events are wanted; Play runs without, so no text
	// is built.
	log    bool
	events []Event
}

func (g *game) me() *Player { return &g.Players[g.seat] }

// emit records an event, its English text and w, its words for
// translators (logwords.go). Callers that build its text or words with
// arguments check g.log first.
func (g *game) emit(seat int, kind, text string, w engine.Words) {
	if g.log {
		g.events = append(g.events, Event{Seat: seat, Kind: kind, Text: text, Words: w})
	}
}

// play checks m against the phase and hands it to its rule, keeping what
// the seat may take back when the game lets it (see Takeback).
func (g *game) play(m Move) error {
	if err := fieldsFit(m); err != nil {
		return err
	}
	if m.Kind == Undo {
		return g.undo()
	}
	if !g.Config.Undo {
		return g.move(m)
	}
	k := g.mark()
	if err := g.move(m); err != nil {
		return err
	}
	g.keep(&k, m)
	return nil
}

// move plays m by the rule of its kind.
func (g *game) move(m Move) error {
	p := g.me()
	switch m.Kind {
	case Bid:
		if g.Phase != AuctionPhase {
			return refuse("discs are placed only in the auction", "furnace.refuse.notAuction")
		}
		return g.bid(m)
	case Compensate:
		if g.Phase != ResolvePhase {
			return refuse("compensation is taken only while the auction is resolved", "furnace.refuse.notResolve")
		}
		return g.compensate(m.Times[0])
	case Place, Produce, Upgrade, Done:
		if g.Phase != ProductionPhase {
			return refuse("it is not the production phase", "furnace.refuse.notProduction")
		}
		if p.Done {
			return refuse("you are done with production this round", "furnace.refuse.doneAlready")
		}
		if m.Kind == Place {
			return g.place(m.Card, m.At)
		}
		if len(p.New) > 0 {
			return refuse(fmt.Sprintf("first put %s in your chain", p.New[0]), "furnace.refuse.placeFirst", cardArg("Card", p.New[0]))
		}
		switch m.Kind {
		case Produce:
			return g.produce(m)
		case Upgrade:
			return g.upgrade(m.Card)
		}
		g.done()
		return nil
	}
	return refuse(fmt.Sprintf("there is no move %q: choose bid, compensate, place, produce, upgrade, done or undo", m.Kind),
		"furnace.refuse.noKind", engine.Str("Kind", string(m.Kind)))
}

// fieldsFit refuses a move that sets fields its kind does not use, so that
// a move Apply accepts is always one Legal lists.
func fieldsFit(m Move) error {
	var uses string
	switch m.Kind {
	case Bid:
		uses = "card disc neutral extra"
	case Compensate:
		uses = "times"
	case Place:
		uses = "card at"
	case Produce:
		uses = "card times again"
	case Upgrade:
		uses = "card"
	case Done, Undo:
		uses = ""
	default:
		return nil // play refuses the kind
	}
	for _, f := range [...]struct {
		name string
		set  bool
	}{
		{"card", m.Card != NoCard}, {"disc", m.Disc != 0}, {"neutral", m.Neutral}, {"extra", m.Extra != NoCard},
		{"times", m.Times != (Times{})}, {"at", m.At != 0}, {"again", m.Again},
	} {
		if f.set && !strings.Contains(uses, f.name) {
			article := "a"
			if strings.ContainsRune("aeiou", rune(m.Kind[0])) {
				article = "an"
			}
			return refuse(fmt.Sprintf("%s %s move has no %s", article, m.Kind, f.name), "furnace.refuse.noField",
				engine.Str("Kind", string(m.Kind)), engine.Str("Field", f.name))
		}
	}
	if m.Kind == Compensate && m.Times[1] != 0 {
		return refuse("compensation takes one count", "furnace.refuse.oneCount")
	}
	return nil
}

// times words a count of repeats for the log: "", " twice", " 3 times".
func times(n int) string {
	switch n {
	case 1:
		return ""
	case 2:
		return " twice"
	}
	return " " + strconv.Itoa(n) + " times"
}
