package session

import (
	"errors"

	"github.com/smokestack/smokestack/lobby"
)

// ReplayFrame is one frame of a finished game as the replay screen draws
// it: At is the move it shows (0 for the starting position), of Moves.
type ReplayFrame struct {
	Info      lobby.RoomInfo
	At, Moves int
	View      string
}

// ReplayFrames draws the finished game in the room typed names (its
// code, or a private room's invite) as the replay screen shows it to
// cfg.Player at cfg.Width by cfg.Height, in cfg.Lang: the starting
// position, then a frame after each move, handed to frame in turn. It is
// the replay screen itself, stepped a move at a time, so what it draws
// is what the screen shows: the viewer's own hand if they held a seat,
// never another seat's, nor the deck.
func ReplayFrames(cfg Config, typed string, frame func(ReplayFrame) error) error {
	m := New(cfg).(*Model)
	rs := newReplayScreen(m.env, typed)
	m.cur = rs
	loaded := rs.load()().(replayMsg)
	if loaded.err != nil {
		return loaded.err
	}
	m.Update(loaded)
	for {
		if rs.err != "" {
			return errors.New(rs.err) // a frame its game's screens cannot read
		}
		if err := frame(ReplayFrame{Info: rs.info, At: rs.at, Moves: len(rs.frames) - 1, View: m.View()}); err != nil {
			return err
		}
		if rs.at >= len(rs.frames)-1 {
			return nil
		}
		rs.at++
		rs.decode()
	}
}
