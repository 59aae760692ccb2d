package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby"
)

// inputResult is what became of one line of input: a move, chat, or a
// hint asked for.
type inputResult struct {
	err  error
	chat bool
	move bool // the line went to the room as a move
	// hint is set for {"hint":true}, with the hinted moves in hints.
	hint  bool
	hints []engine.Hint
}

// readMoves plays each line of input as a move, or says it in the room's
// chat, until input ends, handing each result to play's loop. moves
// counts the moves sent to the room, each before it goes.
func (s *Set) readMoves(ctx context.Context, c *Call, conn *lobby.Conn, moves *atomic.Int64, results chan<- inputResult) {
	send := func(res inputResult) bool {
		select {
		case results <- res:
			return true
		case <-ctx.Done():
			return false
		}
	}
	report := func(err error, chat bool) bool {
		return send(inputResult{err: err, chat: chat, move: !chat && moved(err)})
	}
	in := bufio.NewScanner(c.Session.Input(ctx))
	maxLine := s.MaxLine
	if maxLine <= 0 {
		maxLine = unboundedLine
	}
	in.Buffer(make([]byte, 0, min(4096, maxLine)), maxLine)
	for in.Scan() {
		line := bytes.TrimSpace(in.Bytes())
		if len(line) == 0 {
			continue
		}
		if ctx.Err() != nil {
			return // the session is over; the move must not count
		}
		if isHint(line) {
			hints, err := conn.Hint(ctx)
			if !send(inputResult{hint: true, hints: hints, err: err}) {
				return
			}
			continue
		}
		err, chat := errNotJSON, false
		switch text, ok, cerr := chatText(line); {
		case cerr != nil:
			err, chat = cerr, true
		case ok:
			err, chat = conn.Say(ctx, text), true
		case !json.Valid(line):
		case line[0] != '{':
			// null, a number, a string, an array: the game's rules would
			// word this in the decoder's terms.
			err = errNotObject
		default:
			moves.Add(1)
			err = conn.Move(ctx, json.RawMessage(bytes.Clone(line)))
		}
		if !report(err, chat) {
			return
		}
	}
	if errors.Is(in.Err(), bufio.ErrTooLong) {
		s.Host.Refuse("line_too_long", "key", c.Player.Key, "remote", c.Remote)
		report(badInput(fmt.Sprintf("a line longer than %d bytes: send one move per line; this session ends here (the room goes on)", maxLine)), false)
	}
}

// moved reports whether a line whose result is err went to the room as
// a move: every line but those that are no JSON object.
func moved(err error) bool {
	var bad badInput
	return !errors.Is(err, errNotJSON) && !errors.Is(err, errNotObject) && !errors.As(err, &bad)
}

// badInput ends a play session: the input cannot be read as moves.
type badInput string

func (b badInput) Error() string { return string(b) }

var (
	errNotJSON   = errors.New(`that line is not JSON: send one move object per line, like {"kind":"pass"}`)
	errNotObject = errors.New(`a move is a JSON object, like {"kind":"pass"}: send one per line`)
)

// isHint reads a line of play's input as a hint asked for: {"hint":true}.
func isHint(line []byte) bool {
	var in struct {
		Hint *bool `json:"hint"`
	}
	return json.Unmarshal(line, &in) == nil && in.Hint != nil && *in.Hint
}

var errChatNotText = errors.New(`a chat line is {"chat":"text"}: its text goes in quotes`)
