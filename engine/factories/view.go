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
	Refreshed  bool   `json:"refreshed"`
	FinalRound int    `json:"finalRound"`
	EndCause   string `json:"endCause"`
	EndSeat    int    `json:"endSeat"` // who triggered the end; -1 The Machine

	Market         Market `json:"market"`
	DeckSize       int    `json:"deckSize"`
	DiscardSize    int    `json:"discardSize"`
	ContractorDeck int    `json:"contractorDeck"`

	Players []PlayerView `json:"players"`
	Hand    []Card       `json:"hand,omitempty"` // the seat's own hand
	Machine *Machine     `json:"machine,omitempty"`
	// Legal lists the moves the seat can make now.
	Legal  Moves   `json:"legal,omitempty"`
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
	Foreman     bool         `json:"foreman"`
	HiredHands  int          `json:"hiredHands"`
	Specialists int          `json:"specialists"`
	SettingDice bool         `json:"settingDice"`
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
		FinalRound: s.FinalRound, EndCause: s.EndCause, EndSeat: s.EndSeat,
		Market: s.Market, DeckSize: len(s.Deck), DiscardSize: len(s.Discard),
		ContractorDeck: len(s.ContractorDeck),
	}
	// The view must share no slice with the state: it is the caller's to
	// change. It copies only what it shows, carved as clone does.
	var a copyArena
	a.reserve(&s, false, seat)
	if len(s.Players) > 0 {
		v.Players = make([]PlayerView, len(s.Players))
	}
	for i := range s.Players {
		p := a.player(&s.Players[i], i == seat)
		v.Players[i] = PlayerView{
			Seat: i, HandSize: len(s.Players[i].Hand), Compound: p.Compound,
			Metal: p.Metal, Energy: p.Energy, Goods: p.Goods, Prestige: prestige(p.Compound),
			Dice: p.Dice, HQ: p.HQ, Done: p.Done, Foreman: p.Foreman,
			HiredHands: p.HiredHands, Specialists: p.Specialists, SettingDice: p.SettingDice,
		}
		if i == seat {
			v.Hand = p.Hand
		}
	}
	if seat != engine.Spectator {
		v.Legal = Legal(s, seat)
	}
	v.Machine = a.machine(s.Machine)
	if s.Phase == GameOver {
		v.Scores = Scores(s)
	}
	return v
}

// LegalMoves implements engine.Legal: the moves the seat may play.
func (v View) LegalMoves() []Move { return v.Legal }
