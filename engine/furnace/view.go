package furnace

import "github.com/smokestack/smokestack/engine"

// View is what one seat may see of a game. In Furnace everything on the
// table is public: the market and its discs, every seat's cards, goods and
// discs. Only the deck is hidden; a view has its size, never its order,
// and not the seed or generator it was shuffled with.
type View struct {
	Format int    `json:"format"`
	Seat   int    `json:"seat"` // engine.Spectator for a watcher
	Seats  int    `json:"seats"`
	Config Config `json:"config"`
	Round  int    `json:"round"`
	Phase  Phase  `json:"phase"`
	First  int    `json:"first"`
	// Turn is the seat to place a disc, in the auction.
	Turn int `json:"turn"`
	// Placed counts the players' placements this auction.
	Placed int `json:"placed"`
	// Market is the auction's row; in ResolvePhase the cards still to
	// resolve, the first being resolved.
	Market   []Lot    `json:"market"`
	DeckSize int      `json:"deckSize"`
	Removed  []Card   `json:"removed"`
	Players  []Player `json:"players"`
	Agent    *Agent   `json:"agent,omitempty"`
	// Legal lists the moves the seat can make now.
	Legal  Moves   `json:"legal,omitempty"`
	Scores []Score `json:"scores,omitempty"`
}

// You returns the viewing seat's record; nil for a spectator.
func (v *View) You() *Player {
	if v.Seat < 0 || v.Seat >= len(v.Players) {
		return nil
	}
	return &v.Players[v.Seat]
}

// ViewOf returns what seat may see of s. Any seat outside the game, such as
// engine.Spectator, gets the public view, with no legal moves.
func ViewOf(s State, seat int) View {
	if seat < 0 || seat >= len(s.Players) {
		seat = engine.Spectator
	}
	// The view shares no slice with the state: it is the caller's to
	// change. Cloning without the deck copies what it shows.
	deck, undo := s.Deck, s.Undo
	s.Deck, s.Undo = nil, nil
	c := s.Clone()
	s.Undo = undo // Legal reads it; the view never shows it
	v := View{
		Format: Format, Seat: seat, Seats: len(s.Players), Config: s.Config,
		Round: s.Round, Phase: s.Phase, First: s.First, Turn: s.Turn, Placed: s.Placed,
		Market: c.Market, DeckSize: len(deck), Removed: c.Removed,
		Players: c.Players, Agent: c.Agent,
	}
	if seat != engine.Spectator {
		v.Legal = Legal(s, seat)
	}
	if s.Phase == GameOver {
		v.Scores = Scores(s)
	}
	return v
}

// LegalMoves implements engine.Legal: the moves the seat may play.
func (v View) LegalMoves() []Move { return v.Legal }
