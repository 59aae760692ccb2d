package factories

import (
	"github.com/smokestack/smokestack/engine"
)

// Format is the version of the JSON encoding of State, Move and View.
// 2 added taking moves back: Config.Undo, State.Undo and Reshuffles, and
// the move undo.
const Format = 2

// Limits from the rules.
const (
	MaxPlayers   = 5
	HandLimit    = 10 // cards in hand after the work phase
	StoreLimit   = 12 // metal + energy after the work phase
	GoodsToEnd   = 12
	BuildingsEnd = 10
	marketSize   = 4
	startDice    = 4
)

// Phase is the part of the round being played.
type Phase string

// Phases of a round, and the finished game.
const (
	MarketPhase Phase = "market"
	WorkPhase   Phase = "work"
	GameOver    Phase = "over"
)

// machineStart is the size of The Machine's starting compound for a solo
// difficulty; ok is false for an unknown one. It is a function, not a
// package map, so no caller can change the rules of a new game.
func machineStart(difficulty string) (cards int, ok bool) {
	switch difficulty {
	case "easy":
		return 2, true
	case "medium":
		return 3, true
	case "hard":
		return 4, true
	case "insane":
		return 5, true
	}
	return 0, false
}

// Config is what New needs besides the seed.
type Config struct {
	Players int `json:"players"`
	// Difficulty is The Machine's level in solo games: easy, medium, hard
	// or insane (default medium).
	Difficulty string `json:"difficulty,omitempty"`
	// Undo lets seats take moves back (see Takeback). Rooms turn it on; a
	// bot's search or a simulation leaves it off and pays nothing for it.
	Undo bool `json:"undo,omitempty"`
}

// State is a whole game. It is a plain value: every function here takes a
// State and returns a new one, so the caller's copy never changes.
type State struct {
	Format     int        `json:"format"`
	Config     Config     `json:"config"`
	Seed       uint64     `json:"seed"`
	RNG        engine.RNG `json:"rng"`
	Round      int        `json:"round"`
	Phase      Phase      `json:"phase"`
	First      int        `json:"first"`      // holder of the first player token
	Turn       int        `json:"turn"`       // seat acting in the market phase
	Turns      int        `json:"turns"`      // market turns taken this round
	Refreshed  bool       `json:"refreshed"`  // the acting seat paid for a refresh
	FinalRound int        `json:"finalRound"` // last round once the end is triggered
	// EndCause says what triggered the end ("has 12 goods", as it stood then), and EndSeat
	// who did (-1 for The Machine), so screens can name them.
	EndCause string `json:"endCause,omitempty"`
	EndSeat  int    `json:"endSeat,omitempty"`

	Deck              []Card       `json:"deck"`
	Discard           []Card       `json:"discard"`
	ContractorDeck    []Contractor `json:"contractorDeck"`
	ContractorDiscard []Contractor `json:"contractorDiscard"`
	Market            Market       `json:"market"`
	Players           []Player     `json:"players"`
	Machine           *Machine     `json:"machine,omitempty"`
	// Reshuffles counts the times the discard pile became the deck.
	Reshuffles int `json:"reshuffles,omitempty"`
	// Undo holds, by seat, what each may take back; nil when nobody has
	// anything there (and always without Config.Undo).
	Undo engine.Takebacks[Step] `json:"undo,omitempty"`
}

// Market is the face-up marketplace: four blueprints, four contractors and
// the tool token fixed over each contractor slot.
type Market struct {
	Blueprints  [marketSize]Card       `json:"blueprints"`
	Contractors [marketSize]Contractor `json:"contractors"`
	Tools       [marketSize]Tool       `json:"tools"`
}

// Player is one seat's hand, compound, resources and workers.
type Player struct {
	Hand     []Card       `json:"hand"`
	Compound []Building   `json:"compound"`
	Metal    int          `json:"metal"`
	Energy   int          `json:"energy"`
	Goods    int          `json:"goods"`
	Dice     []Die        `json:"dice"`
	HQ       Headquarters `json:"hq"`
	Done     bool         `json:"done"`

	// Contractors hired in the market phase take effect in the work phase.
	Foreman     bool `json:"foreman,omitempty"`
	HiredHands  int  `json:"hiredHands,omitempty"`
	Specialists int  `json:"specialists,omitempty"`
	// SettingDice is true while a Foreman's dice wait for their values.
	SettingDice bool `json:"settingDice,omitempty"`

	// Once-per-round passive effects.
	LabDrew   bool `json:"labDrew,omitempty"`
	ScrapUsed bool `json:"scrapUsed,omitempty"`
	SolarUsed bool `json:"solarUsed,omitempty"`
}

// Building is a card in a compound and what happened to it this round.
type Building struct {
	Card Card  `json:"card"`
	Used bool  `json:"used,omitempty"` // activated this round
	Dice []int `json:"dice,omitempty"` // values of the workers placed on it
	// Copied names the marketplace card a Replicator activated this round.
	Copied string `json:"copied,omitempty"`
}

// Die is one worker. Extra dice (Golem, Robot, Mega Factory, Hired Hands,
// Specialist) leave at the end of the round. A die with Value 0 has not been
// set yet (Foreman, Specialist).
type Die struct {
	Value  int  `json:"value"`
	Placed bool `json:"placed,omitempty"`
	Extra  bool `json:"extra,omitempty"`
	// Chosen marks a Specialist die whose value the player picks.
	Chosen bool `json:"chosen,omitempty"`
}

// Headquarters holds the die values placed on the three basic actions.
type Headquarters struct {
	Research []int `json:"research,omitempty"`
	Generate []int `json:"generate,omitempty"`
	Mine     []int `json:"mine,omitempty"`
}

// Machine is the solo opponent: a compound and goods, no hand or resources.
type Machine struct {
	Compound []Card `json:"compound"`
	Goods    int    `json:"goods"`
	// Roll is its last roll: green, red, blue, purple, yellow.
	Roll [5]int `json:"roll"`
}

// Solo reports whether the game is against The Machine.
func (s *State) Solo() bool { return s.Config.Players == 1 }

// Buildings counts the cards in p's compound.
func (p *Player) Buildings() int { return len(p.Compound) }

// Clone returns a deep copy of s that shares nothing with it, for a
// caller that will Play moves on one of the two. The copy's slices are
// carved from one array per element type (see copyArena) instead of being
// allocated one by one: a 4-seat state has some thirty of them.
func (s *State) Clone() State {
	var a copyArena
	a.reserve(s, true, -1)
	c := *s
	c.Deck = carve(&a.cards, s.Deck)
	c.Discard = carve(&a.cards, s.Discard)
	c.ContractorDeck = carve(&a.contractors, s.ContractorDeck)
	c.ContractorDiscard = carve(&a.contractors, s.ContractorDiscard)
	c.Players = make([]Player, len(s.Players))
	for i := range s.Players {
		c.Players[i] = a.player(&s.Players[i], true)
	}
	c.Machine = a.machine(s.Machine)
	c.Undo = s.Undo.Clone((*Step).clone)
	return c
}

// CopyTo makes *dst a deep copy of s, reusing the arrays of dst's slices
// where they are large enough, so a search that recycles its positions
// copies one into another without allocating. dst must share no array with
// s or with any other state (a state from Clone or CopyTo shares none).
// The copy is s in JSON; the workers on the Headquarters and on buildings,
// which JSON leaves out when there are none, may be empty where s has nil,
// so that their arrays are kept for the next copy.
func (s *State) CopyTo(dst *State) {
	// Only the arrays are kept from *dst: copying the whole of a large
	// struct aside showed in a search's profile.
	deck, discard := dst.Deck, dst.Discard
	contractorDeck, contractorDiscard := dst.ContractorDeck, dst.ContractorDiscard
	players, machine := dst.Players, dst.Machine
	*dst = *s
	dst.Deck = reuse(deck, s.Deck)
	dst.Discard = reuse(discard, s.Discard)
	dst.ContractorDeck = reuse(contractorDeck, s.ContractorDeck)
	dst.ContractorDiscard = reuse(contractorDiscard, s.ContractorDiscard)
	if s.Players == nil {
		dst.Players = nil
	} else {
		dst.Players = reusePlayers(players, len(s.Players))
	}
	for i := range s.Players {
		s.Players[i].copyTo(&dst.Players[i])
	}
	if s.Machine == nil {
		dst.Machine = nil
	} else {
		if machine == nil || machine == s.Machine {
			machine = new(Machine)
		}
		c := machine.Compound
		*machine = *s.Machine
		machine.Compound = reuse(c, s.Machine.Compound)
		dst.Machine = machine
	}
	dst.Undo = s.Undo.Clone((*Step).clone) // only with Config.Undo, which a search leaves off
}

// copyTo makes *dst a deep copy of p, reusing dst's arrays (see CopyTo).
func (p *Player) copyTo(dst *Player) {
	hand, compound, dice, hq := dst.Hand, dst.Compound, dst.Dice, dst.HQ
	*dst = *p
	dst.Hand = reuse(hand, p.Hand)
	dst.Dice = reuse(dice, p.Dice)
	dst.HQ = Headquarters{append(hq.Research[:0], p.HQ.Research...),
		append(hq.Generate[:0], p.HQ.Generate...), append(hq.Mine[:0], p.HQ.Mine...)}
	if p.Compound == nil {
		dst.Compound = nil
		return
	}
	// Keep the old buildings' dice arrays for the new buildings in their
	// places: append would copy the old slices' headers over them.
	old := compound[:cap(compound)]
	if old == nil || len(old) < len(p.Compound) {
		old = make([]Building, max(len(p.Compound), 2*cap(compound)))
		copy(old, compound[:cap(compound)])
	}
	dst.Compound = old[:len(p.Compound)]
	for j := range p.Compound {
		// Field by field, through pointers: a Building copied whole (and
		// through a range variable) cost more than its fields.
		b, d := &p.Compound[j], &dst.Compound[j]
		d.Card, d.Used, d.Copied = b.Card, b.Used, b.Copied
		d.Dice = append(d.Dice[:0], b.Dice...)
	}
}

// reusePlayers returns n players, those of old first with their arrays.
func reusePlayers(old []Player, n int) []Player {
	if cap(old) >= n {
		return old[:n]
	}
	grown := make([]Player, n)
	copy(grown, old[:cap(old)])
	return grown
}

// reuse returns a copy of v in the array of old when it is large enough:
// nil stays nil and empty stays empty, as Clone keeps them.
func reuse[T any](old, v []T) []T {
	if v == nil {
		return nil
	}
	if old == nil {
		old = []T{} // empty stays empty: appending nothing to nil is nil
	}
	return append(old[:0], v...)
}

// copyArena holds the arrays that the slices of a copied state, or of a
// view, are carved from. Each carved slice ends its capacity with its
// length, so code that appends to one reallocates it instead of writing
// into its neighbour.
type copyArena struct {
	cards       []Card
	contractors []Contractor
	ints        []int
	dice        []Die
	buildings   []Building
}

// reserve makes a exactly large enough to copy every seat's dice,
// Headquarters and compound, The Machine, and either everything else in
// s (whole) or only the hand of seat.
func (a *copyArena) reserve(s *State, whole bool, seat int) {
	var cards, contractors, ints, dice, buildings int
	if whole {
		cards += len(s.Deck) + len(s.Discard)
		contractors += len(s.ContractorDeck) + len(s.ContractorDiscard)
	}
	for i, p := range s.Players {
		if whole || i == seat {
			cards += len(p.Hand)
		}
		dice += len(p.Dice)
		ints += len(p.HQ.Research) + len(p.HQ.Generate) + len(p.HQ.Mine)
		buildings += len(p.Compound)
		for _, b := range p.Compound {
			ints += len(b.Dice)
		}
	}
	if s.Machine != nil {
		cards += len(s.Machine.Compound)
	}
	a.cards = make([]Card, 0, cards)
	a.contractors = make([]Contractor, 0, contractors)
	a.ints = make([]int, 0, ints)
	a.dice = make([]Die, 0, dice)
	a.buildings = make([]Building, 0, buildings)
}

// player returns a deep copy of p carved from a, with its hand only if
// hand is set.
func (a *copyArena) player(p *Player, hand bool) Player {
	q := *p
	q.Hand = nil
	if hand {
		q.Hand = carve(&a.cards, p.Hand)
	}
	q.Dice = carve(&a.dice, p.Dice)
	q.HQ = Headquarters{carve(&a.ints, p.HQ.Research), carve(&a.ints, p.HQ.Generate), carve(&a.ints, p.HQ.Mine)}
	q.Compound = carve(&a.buildings, p.Compound)
	if q.Compound == nil {
		q.Compound = []Building{} // a copied compound is never null in JSON
	}
	for j, b := range p.Compound {
		q.Compound[j].Dice = carve(&a.ints, b.Dice)
	}
	return q
}

// machine returns a deep copy of m carved from a, or nil for no machine.
func (a *copyArena) machine(m *Machine) *Machine {
	if m == nil {
		return nil
	}
	c := *m
	c.Compound = carve(&a.cards, m.Compound)
	return &c
}

// carve copies v to the free end of *arena, making a new arena when too
// little is free, and returns the copy; nil stays nil and empty stays
// empty. The copy's capacity ends with it, so appending to it reallocates
// instead of overwriting whatever is carved next.
func carve[T any](arena *[]T, v []T) []T {
	if v == nil {
		return nil
	}
	if cap(*arena)-len(*arena) < len(v) {
		*arena = make([]T, 0, max(2*cap(*arena), 16, len(v)))
	}
	start := len(*arena)
	*arena = append(*arena, v...)
	return (*arena)[start:len(*arena):len(*arena)]
}
