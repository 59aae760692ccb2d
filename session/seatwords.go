package session

import "slices"

// SeatWord is a guest's word for taking a seat back, with its room: what
// a game screen showed them once, at sit-down.
type SeatWord struct {
	Code, Word string
}

// seatWords are the seat words the session was given, newest first: the
// screen that showed one may be long gone (the lobby, another room) when
// the server ends the session, and a guest who did not note it could
// not come back.
type seatWords []SeatWord

// add remembers word for the room code, first.
func (s *seatWords) add(code, word string) {
	*s = slices.DeleteFunc(*s, func(w SeatWord) bool { return w.Code == code })
	*s = slices.Insert(*s, 0, SeatWord{Code: code, Word: word})
}

// SeatWords are the seat words the session's screens showed its guest,
// newest first, for the server to repeat when it ends the session.
func (m *Model) SeatWords() []SeatWord { return slices.Clone(m.env.words) }
