package furnace

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/smokestack/smokestack/engine"
)

// MoveKind names what a move does.
type MoveKind string

// The moves, by phase.
const (
	// Bid places the disc of value Disc on the market card Card (auction).
	// Neutral places Arthur's extra disc instead (alone timing); Extra
	// places it on a second card with this bid (paired timing).
	Bid MoveKind = "bid"
	// Compensate processes the compensation of the card being resolved
	// Times[0] times, 0 to decline (resolution).
	Compensate MoveKind = "compensate"
	// Place puts Card, won this round, at position At of the chain
	// (production, chain variant).
	Place MoveKind = "place"
	// Produce resolves Card: its extractions, and its processing lines
	// the number of times Times gives, one count per processing line top
	// to bottom. Again is Évariste's repeat of a used card for 2 coal.
	Produce MoveKind = "produce"
	// Upgrade flips the company Card for 1 coal and 1 upgrade token (Timur:
	// iron once the tokens are gone), while the start card's upgrade line
	// is open.
	Upgrade MoveKind = "upgrade"
	// Done ends the seat's production; cards not resolved yet give their
	// extractions, which are mandatory, and no processing.
	Done MoveKind = "done"
	// Undo takes back the seat's last move (see Takeback).
	Undo MoveKind = engine.Undo
)

// Move is every action of the game. Only the fields its Kind uses matter;
// the rest stay zero, so a move reads naturally as JSON:
//
//	{"kind":"bid","card":"oil-03","disc":3}
//	{"kind":"produce","card":"oil-02","times":[2,1]}
type Move struct {
	Kind    MoveKind `json:"kind"`
	Card    Card     `json:"card,omitzero"`
	Disc    int      `json:"disc,omitempty"`
	Neutral bool     `json:"neutral,omitempty"`
	Extra   Card     `json:"extra,omitzero"`
	Times   Times    `json:"times,omitzero"`
	At      int      `json:"at,omitempty"`
	Again   bool     `json:"again,omitempty"`
}

// Times counts how often each processing line of a card is done, top to
// bottom; a card has at most two. In JSON it is a list without its
// trailing zeros, [2] or [0,1]; a missing count is 0.
type Times [2]int

// MarshalJSON writes the counts up to the last that is not 0.
func (t Times) MarshalJSON() ([]byte, error) {
	n := len(t)
	for n > 0 && t[n-1] == 0 {
		n--
	}
	out := []byte{'['}
	for i, v := range t[:n] {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendInt(out, int64(v), 10)
	}
	return append(out, ']'), nil
}

// UnmarshalJSON reads up to two counts.
func (t *Times) UnmarshalJSON(b []byte) error {
	var vs []int
	if err := json.Unmarshal(b, &vs); err != nil {
		return err
	}
	if len(vs) > len(t) {
		return refuse(fmt.Sprintf("times lists at most %d counts, one per processing line", len(t)), "furnace.refuse.timesLength", engine.Num("N", len(t)))
	}
	*t = Times{}
	copy(t[:], vs)
	return nil
}

// Describe words m for a menu, naming what it does with the cards and
// goods of the seat whose view v is.
func (m Move) Describe(v View) string {
	me := v.You()
	switch m.Kind {
	case Bid:
		switch {
		case m.Neutral:
			return "Place the neutral 2 on " + cardName(m.Card)
		case m.Extra != NoCard:
			return fmt.Sprintf("Place your %d on %s and the neutral 2 on %s", m.Disc, cardName(m.Card), cardName(m.Extra))
		}
		return fmt.Sprintf("Place your %d on %s", m.Disc, cardName(m.Card))
	case Compensate:
		if len(v.Market) == 0 {
			return "Process the compensation " + timesWord(m.Times[0])
		}
		c := v.Market[0].Card
		line := c.compensation()
		if m.Times[0] == 0 {
			return "Take no compensation for " + c.ID()
		}
		return fmt.Sprintf("Turn %s into %s (compensation for %s)", line.Pay.Times(m.Times[0]), line.Gain.Times(m.Times[0]), c)
	case Place:
		return fmt.Sprintf("Put %s at position %d of your chain", cardName(m.Card), m.At+1)
	case Produce:
		o := Owned{Card: m.Card}
		if me != nil {
			if j := me.owned(m.Card); j >= 0 {
				o = me.Cards[j]
			}
		}
		text := "Resolve "
		if m.Again {
			text = "Pay 2 coal to resolve again "
		}
		return text + cardName(m.Card) + lineText(o, m.Times, "skip")
	case Upgrade:
		if me != nil {
			if cost, ok := me.upgradeCost(); ok {
				return fmt.Sprintf("Upgrade %s for %s", cardName(m.Card), cost)
			}
		}
		return "Upgrade " + cardName(m.Card)
	case Done:
		return "Done with production"
	case Undo:
		return "Take back your last move"
	}
	return string(m.Kind)
}

// timesWord words a count: "once", "twice", "3 times".
func timesWord(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return strconv.Itoa(n) + " times"
}
