package furnace

import (
	"encoding/json"
	"fmt"
	"math/bits"

	"github.com/smokestack/smokestack/engine"
)

// Format is the version of the JSON encoding of State, Move and View.
// 2 added taking moves back: Config.Undo, State.Undo and the move undo.
const Format = 2

// Limits from the rules.
const (
	MinPlayers = 2
	MaxPlayers = 4
	// Rounds is the length of a game; the short game plays ShortRounds.
	Rounds      = 4
	ShortRounds = 3
	// extraLots is how many more cards than players the auction offers.
	extraLots = 4
	// neutralValue is the value of the neutral disc, Arthur's extra disc.
	neutralValue = 2
	// maxDiscs is the most discs a card can hold: one of each value, and
	// Monica's four again.
	maxDiscs = 8
	// repeatCoal is what Évariste pays to use a card again.
	repeatCoal = 2
)

// AgentSeat is the seat of the 2-player game's Agent on a Disc: it is not
// a player and has no place in Players.
const AgentSeat = -2

// Phase is the part of the round being played.
type Phase string

// Phases of a round, and the finished game.
const (
	// AuctionPhase: players place capital discs on the cards, one at a
	// time in turn.
	AuctionPhase Phase = "auction"
	// ResolvePhase: the cards are resolved left to right; the phase waits
	// only while some seats choose how much processing compensation to take.
	ResolvePhase Phase = "resolve"
	// ProductionPhase: every seat resolves its own cards at once.
	ProductionPhase Phase = "production"
	GameOver        Phase = "over"
)

// ArthurTiming is when Arthur's extra disc is placed.
type ArthurTiming string

// Arthur's timings: Alone is the base card, a fifth disc placed on a turn
// of its own; Paired is the updated card, placed together with another of
// his discs, on a different card.
const (
	ArthurAlone  ArthurTiming = "alone"
	ArthurPaired ArthurTiming = "paired"
)

// Config is what New needs besides the seed.
type Config struct {
	Players int `json:"players"`
	// Rounds is 4, or 3 for the short game (0 means 4).
	Rounds int `json:"rounds"`
	// Capitalists deals each seat a capitalist with a power.
	Capitalists bool `json:"capitalists,omitempty"`
	// Chain plays the production-chain variant.
	Chain bool `json:"chain,omitempty"`
	// Arthur is when Arthur's extra disc is placed (default alone).
	Arthur ArthurTiming `json:"arthur,omitempty"`
	// Undo lets seats take moves back (see Takeback). Rooms turn it on; a
	// bot's search or a simulation leaves it off and pays nothing for it.
	Undo bool `json:"undo,omitempty"`
}

// State is a whole game, the deck order included. Apply never changes the
// State it is given; Play changes a State its caller owns.
type State struct {
	Format int        `json:"format"`
	Config Config     `json:"config"`
	Seed   uint64     `json:"seed"`
	RNG    engine.RNG `json:"rng"`
	Round  int        `json:"round"`
	Phase  Phase      `json:"phase"`
	// First holds the first player marker.
	First int `json:"first"`
	// Turn is the seat to place a disc in the auction.
	Turn int `json:"turn"`
	// Placed counts the players' placements this auction: the Agent
	// places after every second one.
	Placed int `json:"placed"`

	Deck []Card `json:"deck"`
	// Market is the auction's row of cards, left to right. While it is
	// resolved, the cards still to resolve: the first is being resolved.
	Market []Lot `json:"market"`
	// Removed holds the cards out of the game: no disc on them, or won by
	// the Agent.
	Removed []Card   `json:"removed"`
	Players []Player `json:"players"`
	// Agent is the 2-player game's Agent; nil with more players.
	Agent *Agent `json:"agent,omitempty"`
	// Undo holds, by seat, what each may take back; nil when nobody has
	// anything there (and always without Config.Undo).
	Undo engine.Takebacks[Step] `json:"undo,omitempty"`
}

// Lot is a card in the auction and the discs placed on it, in order.
type Lot struct {
	Card  Card   `json:"card"`
	Discs []Disc `json:"discs,omitempty"`
}

// Disc is a capital disc on a card. Seat is AgentSeat for the Agent's discs;
// Neutral marks Arthur's extra disc, which counts as his.
type Disc struct {
	Seat    int  `json:"seat"`
	Value   int  `json:"value"`
	Neutral bool `json:"neutral,omitempty"`
}

// Bidder is what every placer of discs has in an auction: the discs still
// in hand and whether it has stopped placing.
type Bidder struct {
	// Discs are the coloured discs not yet placed this auction.
	Discs Discs `json:"discs"`
	// Out is set once it may place no more discs this auction: none left,
	// or none with a legal place (it then places no more, even should one
	// open up, as the publisher's FAQ rules).
	Out bool `json:"out"`
}

// Agent is the dummy bidder of the 2-player game: it places its discs by
// a die and wins cards only to discard them.
type Agent struct {
	Bidder
	// Roll is its last die: the card position it tried first.
	Roll int `json:"roll,omitempty"`
}

// Player is one seat: capitalist, cards, goods and the round's progress.
type Player struct {
	Capitalist Capitalist `json:"capitalist,omitempty"`
	Goods      Goods      `json:"goods"`
	// Cards are the seat's start card and companies. In the chain
	// variant their order is the chain, resolved left to right.
	Cards []Owned `json:"cards"`
	// New are cards won this round waiting for a place in the chain.
	New []Card `json:"new,omitempty"`
	Bidder
	// Neutral is set while Arthur's neutral disc is in hand.
	Neutral bool `json:"neutral"`
	// Owed is how many times the seat may still process the compensation
	// of the card being resolved.
	Owed int `json:"owed"`
	// Open is the card last resolved in production: while it is the start
	// card, its upgrade line is open.
	Open Card `json:"open,omitzero"`
	// Repeated is set once Évariste has used a card again this round.
	Repeated bool `json:"repeated"`
	Done     bool `json:"done"`
}

// Owned is one of a seat's cards.
type Owned struct {
	Card     Card `json:"card"`
	Upgraded bool `json:"upgraded"`
	// Used is set once the card is resolved this production phase.
	Used bool `json:"used"`
}

// Discs is a set of coloured disc values 1-4, in JSON a list: [1,3,4].
type Discs uint8

// allDiscs is a full set, 1 to 4.
const allDiscs Discs = 1<<1 | 1<<2 | 1<<3 | 1<<4

// Has reports whether the set holds a disc of value v.
func (d Discs) Has(v int) bool { return v >= 1 && v <= 4 && d&(1<<v) != 0 }

// Len counts the discs.
func (d Discs) Len() int { return bits.OnesCount8(uint8(d)) }

// smallest is the lowest value in the set, 0 for none.
func (d Discs) smallest() int {
	if d == 0 {
		return 0
	}
	return bits.TrailingZeros8(uint8(d))
}

// MarshalJSON writes the set as a list of values.
func (d Discs) MarshalJSON() ([]byte, error) {
	out := make([]byte, 0, 9)
	out = append(out, '[')
	for v := 1; v <= 4; v++ {
		if d.Has(v) {
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(out, byte('0'+v))
		}
	}
	return append(out, ']'), nil
}

// UnmarshalJSON reads a list of values 1-4.
func (d *Discs) UnmarshalJSON(b []byte) error {
	var vs []int
	if err := json.Unmarshal(b, &vs); err != nil {
		return err
	}
	*d = 0
	for _, v := range vs {
		if v < 1 || v > 4 {
			return refuse(fmt.Sprintf("there is no disc of value %d", v), "furnace.refuse.noSuchDisc", engine.Num("Disc", v))
		}
		*d |= 1 << v
	}
	return nil
}

// Player returns seat's record, or nil for a seat not in the game.
func (s *State) Player(seat int) *Player {
	if seat < 0 || seat >= len(s.Players) {
		return nil
	}
	return &s.Players[seat]
}

// owned returns the index of card in p's cards, or -1.
func (p *Player) owned(c Card) int {
	for i := range p.Cards {
		if p.Cards[i].Card == c {
			return i
		}
	}
	return -1
}

// Clone returns a deep copy of s that shares nothing with it, for a caller
// that wants to Play on its own copy. Its slices are carved from one array
// per element type, so a copy costs a handful of allocations.
func (s *State) Clone() State {
	c := *s
	cards := len(s.Deck) + len(s.Removed)
	owned, discs := 0, 0
	for i := range s.Players {
		cards += len(s.Players[i].New)
		owned += len(s.Players[i].Cards)
	}
	for i := range s.Market {
		discs += len(s.Market[i].Discs)
	}
	cardArena := make([]Card, 0, cards)
	ownedArena := make([]Owned, 0, owned)
	discArena := make([]Disc, 0, discs)
	c.Deck = carve(&cardArena, s.Deck)
	c.Removed = carve(&cardArena, s.Removed)
	c.Market = carve(nil, s.Market)
	for i := range c.Market {
		c.Market[i].Discs = carve(&discArena, s.Market[i].Discs)
	}
	c.Players = carve(nil, s.Players)
	for i := range c.Players {
		c.Players[i].Cards = carve(&ownedArena, s.Players[i].Cards)
		c.Players[i].New = carve(&cardArena, s.Players[i].New)
	}
	if s.Agent != nil {
		a := *s.Agent
		c.Agent = &a
	}
	c.Undo = s.Undo.Clone((*Step).clone)
	return c
}

// carve copies v into the free space of *arena (a fresh array when arena
// is nil or full) and returns the copy, whose capacity ends with it so that
// appending to it reallocates instead of overwriting its neighbour. nil
// stays nil.
func carve[T any](arena *[]T, v []T) []T {
	if v == nil {
		return nil
	}
	if arena == nil {
		return append(make([]T, 0, len(v)), v...)
	}
	if cap(*arena)-len(*arena) < len(v) {
		*arena = make([]T, 0, max(2*cap(*arena), 8, len(v)))
	}
	start := len(*arena)
	*arena = append(*arena, v...)
	return (*arena)[start:len(*arena):len(*arena)]
}
