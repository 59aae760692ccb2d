package factories

import "github.com/smokestack/smokestack/engine"

// View is what one seat may see of a game: everything public, its own hand,
// and never another hand or the order of a deck.
type View struct {
	Format     int    `json:"format"`
	Seat       int    `json:"seat"` // engine.Spectator for a watcher
	Seats      int    `json:"seats"`
	Difficulty string `json:"difficulty,omitempty"`
	Round      int    `json:"round"`
	Phase      Phase  `json:"phase"`
	First      int    `json:"first"`
	Turn       int    `json:"turn"`
	Refreshed  bool   `json:"refreshed,omitempty"`
	FinalRound int    `json:"finalRound,omitempty"`
	EndCause   string `json:"endCause,omitempty"`

	Market         Market `json:"market"`
	DeckSize       int    `json:"deckSize"`
	DiscardSize    int    `json:"discardSize"`
	ContractorDeck int    `json:"contractorDeck"`

	Players []PlayerView `json:"players"`
	Hand    []Card       `json:"hand,omitempty"` // the seat's own hand
	Machine *Machine     `json:"machine,omitempty"`
	// Legal lists the moves the seat can make now.
	Legal  []Move  `json:"legal,omitempty"`
	Scores []Score `json:"scores,omitempty"`
}

// PlayerView is a seat as everyone sees it: a hand size, not a hand.
type PlayerView struct {
	Seat        int          `json:"seat"`
	HandSize    int          `json:"handSize"`
	Compound    []Building   `json:"compound"`
	Metal       int          `json:"metal"`
	Energy      int          `json:"energy"`
	Goods       int          `json:"goods"`
	Prestige    int          `json:"prestige"`
	Dice        []Die        `json:"dice"`
	HQ          Headquarters `json:"hq"`
	Done        bool         `json:"done"`
	Foreman     bool         `json:"foreman,omitempty"`
	HiredHands  int          `json:"hiredHands,omitempty"`
	Specialists int          `json:"specialists,omitempty"`
	SettingDice bool         `json:"settingDice,omitempty"`
}

// You returns the viewing seat's own public record (zero for a spectator).
func (v View) You() PlayerView {
	if v.Seat < 0 || v.Seat >= len(v.Players) {
		return PlayerView{Seat: engine.Spectator}
	}
	return v.Players[v.Seat]
}

// ViewOf returns what seat may see of s. Any seat outside the game, such as
// engine.Spectator, gets the public view.
func ViewOf(s State, seat int) View {
	if seat < 0 || seat >= len(s.Players) {
		seat = engine.Spectator
	}
	v := View{
		Format: Format, Seat: seat, Seats: len(s.Players), Difficulty: s.Config.Difficulty,
		Round: s.Round, Phase: s.Phase, First: s.First, Turn: s.Turn, Refreshed: s.Refreshed,
		FinalRound: s.FinalRound, EndCause: s.EndCause,
		Market: s.Market, DeckSize: len(s.Deck), DiscardSize: len(s.Discard),
		ContractorDeck: len(s.ContractorDeck),
	}
	s = s.clone() // the view must not share slices with the state
	for i := range s.Players {
		p := &s.Players[i]
		v.Players = append(v.Players, PlayerView{
			Seat: i, HandSize: len(p.Hand), Compound: p.Compound,
			Metal: p.Metal, Energy: p.Energy, Goods: p.Goods, Prestige: prestige(p.Compound),
			Dice: p.Dice, HQ: p.HQ, Done: p.Done, Foreman: p.Foreman,
			HiredHands: p.HiredHands, Specialists: p.Specialists, SettingDice: p.SettingDice,
		})
	}
	if seat != engine.Spectator {
		v.Hand = s.Players[seat].Hand
		v.Legal = Legal(s, seat)
	}
	v.Machine = s.Machine
	if s.Phase == GameOver {
		v.Scores = Scores(s)
	}
	return v
}
