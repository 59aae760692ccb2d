// Package factories is the rules engine of Fantastic Factories: pure
// functions from a State and a Move to the next State, with no I/O, clocks
// or globals beyond the read-only card tables.
package factories

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine"
)

// New sets up a game for cfg.Players seats from seed: shuffled decks, the
// marketplace, 1 metal, 2 energy and 4 blueprints each, and in solo play The
// Machine's starting compound.
func New(cfg Config, seed uint64) (State, error) {
	if cfg.Players < 1 || cfg.Players > MaxPlayers {
		return State{}, fmt.Errorf("a game needs 1 to %d players, not %d", MaxPlayers, cfg.Players)
	}
	if cfg.Players == 1 {
		if cfg.Difficulty == "" {
			cfg.Difficulty = "medium"
		}
		if _, ok := machineStart(cfg.Difficulty); !ok {
			return State{}, fmt.Errorf("unknown difficulty %q: choose easy, medium, hard or insane", cfg.Difficulty)
		}
	} else {
		cfg.Difficulty = ""
	}
	s := State{Format: Format, Config: cfg, Seed: seed, RNG: engine.NewRNG(seed), Round: 1, Phase: MarketPhase}
	// Decks and compounds made at the size they will grow to: a search
	// plays many whole games, and growing them by doubling made a sixth of
	// a game's allocations.
	s.Deck = make([]Card, 0, NumCards())
	for c := range NumCards() {
		s.Deck = append(s.Deck, Card(c))
	}
	s.ContractorDeck = make([]Contractor, 0, NumContractors())
	for c := range NumContractors() {
		s.ContractorDeck = append(s.ContractorDeck, Contractor(c))
	}
	s.RNG.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
	s.RNG.Shuffle(len(s.ContractorDeck), func(i, j int) {
		s.ContractorDeck[i], s.ContractorDeck[j] = s.ContractorDeck[j], s.ContractorDeck[i]
	})
	s.Market.Tools = Tools()
	s.Discard, s.ContractorDiscard = []Card{}, []Contractor{}
	s.Players = make([]Player, cfg.Players)
	const compound = BuildingsEnd + 2 // most games end before a compound outgrows it
	compounds := make([]Building, cfg.Players*compound)
	for i := range s.Players {
		p := &s.Players[i]
		p.Metal, p.Energy = 1, 2
		p.Compound = compounds[i*compound : i*compound : (i+1)*compound]
		for range 4 {
			if c, ok := s.draw(); ok {
				p.Hand = append(p.Hand, c)
			}
		}
	}
	for i := range marketSize {
		s.Market.Blueprints[i], s.Market.Contractors[i] = None, None
	}
	s.refill()
	if s.Solo() {
		s.Machine = &Machine{Compound: []Card{}}
		var monuments []Card
		start, _ := machineStart(cfg.Difficulty)
		for len(s.Machine.Compound) < start {
			c, ok := s.draw()
			if !ok {
				break
			}
			if c.Info().Type == Monument {
				monuments = append(monuments, c)
				continue
			}
			s.Machine.Compound = append(s.Machine.Compound, c)
		}
		s.Discard = append(s.Discard, monuments...)
	}
	// The first player token goes to a random seat: the rulebook's "who used
	// a tool most recently" is not something a server can ask.
	s.First = s.RNG.Intn(cfg.Players)
	s.Turn = s.First
	return s, nil
}

// Apply plays move for seat. It returns the new state and what happened, or
// the unchanged state and an error a player can read. It never changes s:
// it plays the move on a copy (see Play).
func Apply(s State, seat int, m Move) (next State, events []Event, err error) {
	if err := canAct(&s, seat); err != nil {
		return s, nil, err
	}
	next = s.Clone()
	if err := next.Play(seat, m, &events); err != nil {
		return s, nil, err
	}
	return next, events, nil
}

// Play is Apply in place, for a caller that owns s (a bot's search, a
// simulation): it plays move for seat on s itself and appends what
// happened to *events, or words no event at all when events is nil, which
// is most of what a move costs a search that never reads them. A refused
// move leaves s as it was, with the same error Apply gives. s must share no
// array with a state the caller wants kept (see Clone and CopyTo).
func (s *State) Play(seat int, m Move, events *[]Event) (err error) {
	if err := canAct(s, seat); err != nil {
		return err
	}
	// Rules code reads slices and indexes that a crafted move could push out
	// of range; the checks refuse those, and this is the backstop that keeps
	// a bug from taking a room down (the fuzz tests hold it never fires).
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("move refused: %v", r)
		}
	}()
	g := game{State: s, seat: seat, events: events}
	return g.play(m)
}

// canAct refuses moves from outside the game or after it.
func canAct(s *State, seat int) error {
	if seat < 0 || seat >= len(s.Players) {
		return refuse("seat", fmt.Sprintf("seat %d is not in this game", seat), num("Seat", seat))
	}
	if s.Phase == GameOver {
		return refuse("over", "the game is over")
	}
	return nil
}

// play applies m to the game. Every refusal comes before the first
// change, so a refused move leaves the state as it was.
func (g *game) play(m Move) error {
	if m.Kind == Undo {
		return g.undo()
	}
	var k undoMark
	if g.Config.Undo {
		k = g.mark()
	}
	var err error
	switch g.Phase {
	case MarketPhase:
		err = g.market(m)
	case WorkPhase:
		err = g.work(m)
	default:
		err = refuse("phase", fmt.Sprintf("the game is in no phase %q can be played in", g.Phase), quoted("Phase", string(g.Phase)))
	}
	if err != nil {
		return err
	}
	g.checkEnd()
	if g.Config.Undo {
		g.keep(&k)
	}
	return nil
}

// Event is an engine event; see engine.Event.
type Event = engine.Event

// game is a state a move is being played on, with the log its events go
// to: none when events is nil.
type game struct {
	*State
	seat   int
	events *[]Event
	// revealed says how the move showed a card from the seat's hand to
	// everyone, which makes it stand for good (see Takeback); "" if not.
	revealed string
}

func (g *game) me() *Player { return &g.Players[g.seat] }

// wording reports whether events are wanted, for the texts that take
// work to make; emit's parts cost nothing when they are not.
func (g *game) wording() bool { return g.events != nil }

// emit records an event whose text is parts joined, and w its words for
// translators (logwords.go). Parts are names, constants and small numbers
// (strconv.Itoa makes those without allocating), so a game that words no
// events pays nothing for them; Words with arguments are made only when
// g.wording().
func (g *game) emit(seat int, kind string, w engine.Words, parts ...string) {
	if g.events != nil {
		*g.events = append(*g.events, Event{Seat: seat, Kind: kind, Text: strings.Join(parts, ""), Words: w})
	}
}

// emitPrivate records an event whose details only seat may read.
func (g *game) emitPrivate(seat int, kind, public, private string, pw, xw engine.Words) {
	if g.events != nil {
		*g.events = append(*g.events, Event{Seat: seat, Kind: kind, Text: public, Private: private, Words: pw, PrivateWords: xw})
	}
}

// draw takes the top blueprint, reshuffling the discard pile into a new deck
// when the deck runs out. ok is false when both are empty.
func (s *State) draw() (Card, bool) {
	if len(s.Deck) == 0 {
		if len(s.Discard) == 0 {
			return None, false
		}
		s.Deck, s.Discard = s.Discard, []Card{}
		s.Reshuffles++
		s.RNG.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
	}
	c := s.Deck[0]
	s.Deck = s.Deck[1:]
	return c, true
}

func (s *State) drawContractor() (Contractor, bool) {
	if len(s.ContractorDeck) == 0 {
		if len(s.ContractorDiscard) == 0 {
			return None, false
		}
		s.ContractorDeck, s.ContractorDiscard = s.ContractorDiscard, []Contractor{}
		s.RNG.Shuffle(len(s.ContractorDeck), func(i, j int) {
			s.ContractorDeck[i], s.ContractorDeck[j] = s.ContractorDeck[j], s.ContractorDeck[i]
		})
	}
	c := s.ContractorDeck[0]
	s.ContractorDeck = s.ContractorDeck[1:]
	return c, true
}

// refill fills empty marketplace slots, left to right.
func (s *State) refill() {
	for i := range marketSize {
		if s.Market.Blueprints[i] == None {
			if c, ok := s.draw(); ok {
				s.Market.Blueprints[i] = c
			}
		}
		if s.Market.Contractors[i] == None {
			if c, ok := s.drawContractor(); ok {
				s.Market.Contractors[i] = c
			}
		}
	}
}

// restock refills the marketplace's empty slots and logs the cards that
// came out, so no card appears or vanishes on a screen without a line
// saying so.
func (g *game) restock() {
	before := g.Market
	g.refill()
	if !g.wording() {
		return
	}
	var fresh []string
	var words []engine.Words
	for i := range marketSize {
		if before.Blueprints[i] == None && g.Market.Blueprints[i] != None {
			fresh = append(fresh, g.Market.Blueprints[i].Name())
			words = append(words, cardWords(g.Market.Blueprints[i].Name()))
		}
		if before.Contractors[i] == None && g.Market.Contractors[i] != None {
			fresh = append(fresh, "the "+g.Market.Contractors[i].Name())
			words = append(words, engine.Say("factories.log.contractor", engine.CardArg("Card", g.Market.Contractors[i].Name())))
		}
	}
	if len(fresh) > 0 {
		g.emit(-1, "market", engine.Say("factories.log.market", engine.ItemsArg("Cards", words...)),
			"new in the marketplace: ", strings.Join(fresh, ", "))
	}
}

// drawTo draws n blueprints into seat's hand and logs it privately, and
// why: a card's name, or one of the reasons of whyWords.
func (g *game) drawTo(seat, n int, why string) {
	var space [4]string // draws are of 1 to 3 cards
	names := space[:0]
	for range n {
		c, ok := g.draw()
		if !ok {
			g.emit(seat, "deck", engine.Say("factories.log.deckempty"), "the blueprint deck and discard pile are empty")
			break
		}
		g.Players[seat].Hand = append(g.Players[seat].Hand, c)
		names = append(names, c.Name())
	}
	if len(names) == 0 {
		return
	}
	if g.wording() {
		cards := make([]engine.Words, len(names))
		for i, name := range names {
			cards[i] = cardWords(name)
		}
		reason := engine.ListArg("Why", whyWords(why))
		g.emitPrivate(seat, "draw",
			"drew "+plural(len(names), "blueprint")+" ("+why+")",
			"drew "+joinNames(names)+" ("+why+")",
			engine.Say("factories.log.drew", engine.Num("N", len(names)), reason),
			engine.Say("factories.log.drewcards", engine.Num("N", len(names)), engine.ListArg("Cards", cards...), reason))
	}
}

// gainGoods adds goods and fires Laboratory's draw, at most once a round.
func (g *game) gainGoods(n int) {
	p := g.me()
	p.Goods += n
	if n > 0 && !p.LabDrew && hasBuilding(p, Laboratory) {
		p.LabDrew = true
		g.drawTo(g.seat, 1, Laboratory)
	}
}

// takeFromHand removes the given cards from seat's hand, refusing cards
// that are not there or named twice before it removes any.
func takeFromHand(p *Player, cards ...Card) error {
	for i, c := range cards {
		switch {
		case c < 0 || int(c) >= len(cardKind):
			return refuse("no_card", fmt.Sprintf("card %d is not a blueprint of this game, so not in your hand", c), num("Card", int(c)))
		case indexOf(p.Hand, c) < 0:
			return refuse("not_in_hand", c.Name()+" is not in your hand", card("Card", c))
		case slices.Contains(cards[:i], c):
			return refuse("named_twice", "a second "+c.Name()+" is not in your hand: the same card is named twice", card("Card", c))
		}
	}
	for _, c := range cards {
		i := indexOf(p.Hand, c)
		p.Hand = slices.Delete(p.Hand, i, i+1)
	}
	return nil
}

func indexOf[T comparable](s []T, v T) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

func hasBuilding(p *Player, name string) bool {
	for _, b := range p.Compound {
		if b.Card.Name() == name {
			return true
		}
	}
	return false
}

// prestige scores a compound; the nth Beacon is worth n+1.
func prestige(compound []Building) int {
	total, beacons := 0, 0
	for _, b := range compound {
		if b.Card.Name() == Beacon {
			beacons++
			total += beacons + 1
			continue
		}
		total += b.Card.info().Prestige
	}
	return total
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func joinNames(names []string) string {
	switch len(names) {
	case 0:
		return "nothing"
	case 1:
		return names[0]
	}
	out := names[0]
	for _, n := range names[1 : len(names)-1] {
		out += ", " + n
	}
	return out + " and " + names[len(names)-1]
}
