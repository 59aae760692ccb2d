package factories

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine"
)

// MoveKind names what a move does.
type MoveKind string

// Market phase moves.
const (
	// Refresh pays 1 metal or energy (Pay) to replace a whole marketplace
	// row (Row: "blueprints" or "contractors"), once per turn.
	Refresh MoveKind = "refresh"
	// Take puts the marketplace blueprint in Slot into the hand.
	Take MoveKind = "take"
	// Hire hires the contractor in Slot, discarding Discard[0] (matching the
	// slot's tool); Opponent receives the contractor's gift, if any.
	Hire MoveKind = "hire"
	// Pass ends a market turn; legal only when nothing can be taken or hired.
	Pass MoveKind = "pass"
)

// Work phase moves.
const (
	// SetDice sets a Foreman's dice: up to 4 Values, the rest are rolled.
	SetDice MoveKind = "setdice"
	// Choose sets the value of the Specialist die Dice[0] to Value.
	Choose MoveKind = "choose"
	// Build builds Card from the hand, discarding Discard[0] (same tool).
	Build MoveKind = "build"
	// Place puts die Dice[0] on the Headquarters Action.
	Place MoveKind = "place"
	// Activate runs the recipe of the compound building Card with the dice,
	// discards and choices its recipe needs. A Replicator names the
	// marketplace slot it copies in Slot.
	Activate MoveKind = "activate"
	// DiscardDown gives up the hand cards in Discard and Metal/Energy
	// resources, to meet the end-of-round limits.
	DiscardDown MoveKind = "discard"
	// Done declares the seat finished with the work phase.
	Done MoveKind = "done"
	// Undo takes back the seat's last move (see Takeback).
	Undo MoveKind = engine.Undo
)

// Headquarters actions for Place.
const (
	Research = "research"
	Generate = "generate"
	Mine     = "mine"
)

// Move is every action of the game. Only the fields its Kind uses matter;
// the rest stay zero, so a move reads naturally in JSON:
//
//	{"kind":"activate","card":12,"dice":[0,2]}
type Move struct {
	Kind     MoveKind `json:"kind"`
	Slot     int      `json:"slot,omitempty"`
	Card     Card     `json:"card,omitempty"`
	Discard  []Card   `json:"discard,omitempty"`
	Dice     []int    `json:"dice,omitempty"` // indexes into the seat's dice
	Action   string   `json:"action,omitempty"`
	Choice   string   `json:"choice,omitempty"` // metal, energy or draw
	Value    int      `json:"value,omitempty"`
	Values   []int    `json:"values,omitempty"`
	Metal    int      `json:"metal,omitempty"`
	Energy   int      `json:"energy,omitempty"`
	Row      string   `json:"row,omitempty"` // blueprints or contractors
	Pay      string   `json:"pay,omitempty"` // metal or energy
	Opponent int      `json:"opponent,omitempty"`
}

// Rows for Refresh.
const (
	BlueprintRow  = "blueprints"
	ContractorRow = "contractors"
)

// Describe words m for a menu, naming cards from the state the seat sees
// and other seats by number.
func (m Move) Describe(v View) string {
	return m.DescribeFor(v, func(seat int) string { return fmt.Sprintf("seat %d", seat+1) })
}

// DescribeFor words m for a menu as Describe does, naming other seats
// with name: screens know the people at the table, the engine does not.
func (m Move) DescribeFor(v View, name func(seat int) string) string {
	switch m.Kind {
	case Refresh:
		return fmt.Sprintf("Pay 1 %s to refresh the %s", m.Pay, m.Row)
	case Take:
		return "Take " + marketName(v.Market.Blueprints, m.Slot)
	case Hire:
		s := "Hire "
		if m.Slot >= 0 && m.Slot < marketSize {
			s += v.Market.Contractors[m.Slot].Name()
		}
		s += m.discards()
		if gift(v.Market.Contractors, m.Slot) && v.Seats > 1 {
			s += " (gift to " + name(m.Opponent) + ")"
		}
		return s
	case Pass:
		return "Pass (nothing to take or hire)"
	case SetDice:
		return fmt.Sprintf("Set Foreman dice to %v", m.Values)
	case Choose:
		return fmt.Sprintf("Set Specialist die to %d", m.Value)
	case Build:
		return "Build " + m.Card.Name() + m.discards()
	case Place:
		// Short, for a narrow menu under the "Headquarters" title.
		return strings.TrimPrefix(m.dice(v), " with ") + " on " + m.Action + placeGain(v, m)
	case Activate:
		return m.describeActivate(v)
	case DiscardDown:
		return m.describeDiscardDown()
	case Done:
		return "Done with the work phase"
	case Undo:
		return "Take back your last move"
	}
	return string(m.Kind)
}

// describeActivate words an Activate move for DescribeFor.
func (m Move) describeActivate(v View) string {
	s, design := "Activate "+m.Card.Name(), m.Card.Name()
	if m.Card.Name() == Replicator {
		design = marketName(v.Market.Blueprints, m.Slot)
		s += " as " + design
	}
	s += m.dice(v) + m.discards()
	if m.Choice != "" {
		s += " for " + m.Choice
	}
	if m.Value != 0 {
		s += fmt.Sprintf(" (value %d)", m.Value)
	}
	// What it brings, as the Headquarters' moves say theirs; the Black
	// Market's split of metal and energy is part of it.
	if r := activationResult(design, m, m.diceValues(v)); r != "" {
		return s + ": " + r
	}
	if m.Metal+m.Energy > 0 {
		s += fmt.Sprintf(" (take %d metal %d energy)", m.Metal, m.Energy)
	}
	return s
}

// diceValues are the values of m's dice in v.
func (m Move) diceValues(v View) []int {
	var vals []int
	for _, i := range m.Dice {
		if i >= 0 && i < len(v.You().Dice) {
			vals = append(vals, v.You().Dice[i].Value)
		}
	}
	return vals
}

// describeDiscardDown words a DiscardDown move for DescribeFor.
func (m Move) describeDiscardDown() string {
	switch {
	case len(m.Discard) > 0:
		return "Discard" + strings.TrimPrefix(m.discards(), ", discarding")
	case m.Metal > 0 && m.Energy > 0:
		return fmt.Sprintf("Discard %d metal and %d energy", m.Metal, m.Energy)
	case m.Metal > 0:
		return fmt.Sprintf("Discard %d metal", m.Metal)
	default:
		return fmt.Sprintf("Discard %d energy", m.Energy)
	}
}

// dice words the values of m's dice in v: " with 3+4", or "" for none.
func (m Move) dice(v View) string {
	var vals []string
	for _, d := range m.diceValues(v) {
		vals = append(vals, strconv.Itoa(d))
	}
	if len(vals) == 0 {
		return ""
	}
	return " with " + strings.Join(vals, "+")
}

// discards words m's discards: ", discarding Mine and Dojo", or "".
func (m Move) discards() string {
	if len(m.Discard) == 0 {
		return ""
	}
	var names []string
	for _, c := range m.Discard {
		names = append(names, c.Name())
	}
	return ", discarding " + strings.Join(names, " and ")
}

// placeGain says what a worker on the Headquarters brings, and why when
// the matching bonus adds to it: ": 4 energy (+1 matching)".
func placeGain(v View, m Move) string {
	you := v.You()
	if len(m.Dice) != 1 || m.Dice[0] < 0 || m.Dice[0] >= len(you.Dice) {
		return ""
	}
	d := you.Dice[m.Dice[0]].Value
	var there []int
	switch m.Action {
	case Research:
		there = you.HQ.Research
	case Generate:
		there = you.HQ.Generate
	case Mine:
		there = you.HQ.Mine
	}
	bonus, note := 0, ""
	if slices.Contains(there, d) {
		bonus, note = 1, " (+1 matching)"
	}
	switch m.Action {
	case Research:
		return fmt.Sprintf(": draw %d%s", 1+bonus, note)
	case Generate:
		return fmt.Sprintf(": %d energy%s", d+bonus, note)
	case Mine:
		return fmt.Sprintf(": %d metal%s", 1+bonus, note)
	}
	return ""
}

func marketName(row [marketSize]Card, slot int) string {
	if slot < 0 || slot >= marketSize || row[slot] == None {
		return "an empty slot"
	}
	return row[slot].Name()
}

func gift(row [marketSize]Contractor, slot int) bool {
	if slot < 0 || slot >= marketSize || row[slot] == None {
		return false
	}
	switch row[slot].Name() {
	case Architect, Electrician, Miner:
		return true
	}
	return false
}
