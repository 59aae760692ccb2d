package factories

import (
	"encoding/json"
	"strconv"

	"github.com/smokestack/smokestack/engine"
)

// MarshalJSON writes every field m's kind uses, zero values included, and
// no other: a client reading a legal move finds "slot":0 and "opponent":0
// where a field left out would have meant them. Lists alone are left out
// when empty, so that a move read back is the move written. Reading stays as
// encoding/json does it (a missing field is zero), so a stored move in
// either form replays the same.
//
//	refresh   row, pay
//	take      slot
//	hire      slot, discard, opponent (the gift's receiver; unused without a gift)
//	setdice   values
//	choose    dice, value
//	build     card, discard
//	place     dice, action
//	activate  card, dice; slot for a Replicator; discard, choice, value,
//	          values when the recipe takes them; metal and energy together
//	discard   discard, metal, energy
func (m Move) MarshalJSON() ([]byte, error) {
	return m.appendJSON(make([]byte, 0, 64))
}

// Moves is a list of moves, as a view lists the legal ones.
type Moves []Move

// MarshalJSON writes the moves as Move.MarshalJSON does, into one buffer.
func (ms Moves) MarshalJSON() ([]byte, error) {
	return engine.MarshalList(ms, func(b []byte, m Move) ([]byte, error) { return m.appendJSON(b) })
}

// appendJSON appends m as MarshalJSON writes it.
func (m Move) appendJSON(b []byte) ([]byte, error) {
	start := len(b)
	b = append(b, `{"kind":`...)
	b = appendString(b, string(m.Kind))
	switch m.Kind {
	case Refresh:
		b = appendStringField(appendStringField(b, "row", m.Row), "pay", m.Pay)
	case Take:
		b = appendIntField(b, "slot", m.Slot)
	case Hire:
		b = appendIntField(b, "slot", m.Slot)
		b = appendIntsField(b, "discard", m.Discard)
		b = appendIntField(b, "opponent", m.Opponent)
	case SetDice:
		b = appendIntsField(b, "values", m.Values)
	case Choose:
		b = appendIntField(appendIntsField(b, "dice", m.Dice), "value", m.Value)
	case Build:
		b = appendIntsField(appendIntField(b, "card", int(m.Card)), "discard", m.Discard)
	case Place:
		b = appendStringField(appendIntsField(b, "dice", m.Dice), "action", m.Action)
	case Activate:
		b = m.appendActivate(b)
	case DiscardDown:
		b = appendIntsField(b, "discard", m.Discard)
		b = appendIntField(appendIntField(b, "metal", m.Metal), "energy", m.Energy)
	default:
		// Refused kinds, pass, done and undo: what was set, as given.
		plain, err := json.Marshal(plainMove(m))
		return append(b[:start], plain...), err
	}
	return append(b, '}'), nil
}

// appendActivate writes an activation's fields: what every recipe takes,
// and what this one was given.
func (m Move) appendActivate(b []byte) []byte {
	b = appendIntsField(appendIntField(b, "card", int(m.Card)), "dice", m.Dice)
	if m.Card.Name() == Replicator {
		b = appendIntField(b, "slot", m.Slot)
	}
	b = appendIntsField(b, "discard", m.Discard)
	if m.Choice != "" {
		b = appendStringField(b, "choice", m.Choice)
	}
	if m.Value != 0 {
		b = appendIntField(b, "value", m.Value)
	}
	b = appendIntsField(b, "values", m.Values)
	if m.Metal != 0 || m.Energy != 0 {
		b = appendIntField(appendIntField(b, "metal", m.Metal), "energy", m.Energy)
	}
	return b
}

// plainMove is Move without its MarshalJSON: every field set, as tagged.
type plainMove Move

// appendString writes s as a JSON string: the game's own words as they
// are, anything else through encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	return append(append(append(b, '"'), s...), '"')
}

func appendStringField(b []byte, name, s string) []byte {
	return appendString(append(b, `,"`+name+`":`...), s)
}

func appendIntField(b []byte, name string, n int) []byte {
	return strconv.AppendInt(append(b, `,"`+name+`":`...), int64(n), 10)
}

// appendIntsField writes a list of numbers (cards are numbered), when it
// is not empty: read back, a list left out is nil, as the engine makes an
// empty one, and a move read back equals the one written.
func appendIntsField[N ~int](b []byte, name string, ns []N) []byte {
	if len(ns) == 0 {
		return b
	}
	b = append(b, `,"`+name+`":[`...)
	for i, n := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}
