package furnace

import (
	"encoding/json"
	"strconv"

	"github.com/smokestack/smokestack/engine"
)

// MarshalJSON writes every field m's kind uses, zero values included, and
// no other: a client reading a legal move finds "at":0 and "times":[]
// where a field left out would have meant them. Reading stays as
// encoding/json does it (a missing field is zero), so a stored move in
// either form replays the same.
//
//	bid         card, disc, neutral, extra ("" for none)
//	compensate  times
//	place       card, at
//	produce     card, times, again
//	upgrade     card
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
	var f moveFields
	switch m.Kind {
	case Bid:
		f = moveFields{Kind: m.Kind, Card: &m.Card, Disc: &m.Disc, Neutral: &m.Neutral, Extra: &m.Extra}
	case Compensate:
		f = moveFields{Kind: m.Kind, Times: &m.Times}
	case Place:
		f = moveFields{Kind: m.Kind, Card: &m.Card, At: &m.At}
	case Produce:
		f = moveFields{Kind: m.Kind, Card: &m.Card, Times: &m.Times, Again: &m.Again}
	case Upgrade:
		f = moveFields{Kind: m.Kind, Card: &m.Card}
	default:
		// Refused kinds, done and undo: what was set, as given.
		plain, err := json.Marshal(plainMove(m))
		return append(b, plain...), err
	}
	return f.appendTo(b)
}

// plainMove is Move without its MarshalJSON: every field set, as tagged.
type plainMove Move

// moveFields are the fields a kind of move uses; nil for the others.
type moveFields struct {
	Kind    MoveKind
	Card    *Card
	Disc    *int
	Neutral *bool
	Extra   *Card
	Times   *Times
	At      *int
	Again   *bool
}

// appendTo writes f as a JSON object, in Move's order of fields.
func (f moveFields) appendTo(b []byte) ([]byte, error) {
	kind, err := json.Marshal(string(f.Kind))
	if err != nil {
		return nil, err
	}
	b = append(append(b, `{"kind":`...), kind...)
	if b, err = appendCard(b, "card", f.Card); err != nil {
		return nil, err
	}
	if f.Disc != nil {
		b = strconv.AppendInt(append(b, `,"disc":`...), int64(*f.Disc), 10)
	}
	if f.Neutral != nil {
		b = strconv.AppendBool(append(b, `,"neutral":`...), *f.Neutral)
	}
	if b, err = appendCard(b, "extra", f.Extra); err != nil {
		return nil, err
	}
	if f.Times != nil {
		t, _ := f.Times.MarshalJSON() // counts always encode
		b = append(append(b, `,"times":`...), t...)
	}
	if f.At != nil {
		b = strconv.AppendInt(append(b, `,"at":`...), int64(*f.At), 10)
	}
	if f.Again != nil {
		b = strconv.AppendBool(append(b, `,"again":`...), *f.Again)
	}
	return append(b, '}'), nil
}

// appendCard writes the field name with card's id, when it is set.
func appendCard(b []byte, name string, card *Card) ([]byte, error) {
	if card == nil {
		return b, nil
	}
	id, err := card.MarshalText()
	if err != nil {
		return nil, err
	}
	return append(append(append(b, `,"`+name+`":"`...), id...), '"'), nil
}
