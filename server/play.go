package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/smokestack/smokestack/lobby"
)

// unboundedLine is the longest line play reads with Limits.MaxLine off.
const unboundedLine = 16 << 20

// recordWait is how long play waits after the game over for the update
// with the rating changes.
const recordWait = 5 * time.Second

// errorLine answers a refused move, or reports a failure. About is
// "chat" when it answers a chat line, so a client waiting for its move's
// answer can tell the two apart.
type errorLine struct {
	Error string `json:"error"`
	About string `json:"about,omitempty"`
}

// okLine answers an accepted move. It follows the update that shows the
// move, so a client that waits for it before choosing again never chooses
// from a view older than its own move.
type okLine struct {
	OK      bool `json:"ok"`
	Version int  `json:"version"`
}

// play speaks the JSON-lines protocol of docs/protocol.md: every update of
// the room as this seat sees it goes out as one line, each chat line said
// in the room as a line of its own (playchat.go); each line read is a move
// for the seat, answered by an ok or an error line, or a chat line to say
// ({"chat":"…"}), answered only when refused; a refused move does not end
// the session. It ends after the update that shows the game over (for a
// game that counts in its players' records, the one after that with the
// rating changes, if it comes within recordWait), when a player's input
// ends, or when the connection closes. A spectator's input is chat only,
// and its end ends nothing.
func (s *Server) play(c *call) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	watch := fs.Bool("watch", false, "")
	pos, err := c.flagsUpTo(fs, 1, 2, "room CODE")
	if err != nil {
		return err
	}
	out := json.NewEncoder(c.out) // only this goroutine writes
	out.SetEscapeHTML(false)
	var conn *lobby.Conn
	room, err := roomArg(pos) // CODE, or a guest's CODE WORD
	if err != nil {
		return err
	}
	if *watch {
		conn, err = s.cfg.Lobby.Watch(c.ctx, room, c.player)
	} else {
		conn, err = s.cfg.Lobby.Join(c.ctx, room, c.player)
	}
	if err != nil {
		err = toldAs(c.ctx, err)
		_ = out.Encode(errorLine{Error: err.Error()})
		return err
	}
	defer conn.Close()

	ctx, cancel := context.WithCancel(c.ctx)
	defer cancel()
	results := make(chan inputResult)
	go func() {
		if !*watch {
			defer cancel()
		}
		s.readMoves(ctx, c, conn, results)
	}()
	version := 0
	var settle <-chan time.Time // after the game over, the wait for its record
	chat := newChatSender(out)
	send := func(u lobby.Update) (over bool, err error) {
		version = u.Version
		if u.Room.Over && u.Room.Recording && settle == nil {
			settle = time.After(recordWait)
		}
		return u.Room.Over && !u.Room.Recording, chat.send(u)
	}
	for {
		select {
		case <-settle:
			return nil // the record is late: the game is over all the same
		case <-ctx.Done():
			if note, ok := noteFor(c.ctx); ok {
				_ = out.Encode(errorLine{Error: string(note)})
			}
			return nil
		case u := <-conn.Updates():
			if over, err := send(u); over || err != nil {
				return nil // game over, or the client went away
			}
		case res := <-results:
			err := res.err
			var bad badInput
			if errors.As(err, &bad) {
				_ = out.Encode(errorLine{Error: err.Error()})
				return err
			}
			if res.chat {
				if err != nil && out.Encode(errorLine{Error: err.Error(), About: "chat"}) != nil {
					return nil
				}
				continue // the line said comes back as a chat line
			}
			if err != nil {
				if out.Encode(errorLine{Error: err.Error()}) != nil {
					return nil
				}
				continue
			}
			// The room pushed the update showing the move before Move
			// returned: it is either written already or waiting here. It
			// may be the game over, by this move or a move made just after
			// it: the session then ends after the ok, as after any update
			// showing the game over.
			over := false
			select {
			case u := <-conn.Updates():
				if over, err = send(u); err != nil {
					return nil
				}
			default:
			}
			if out.Encode(okLine{OK: true, Version: version}) != nil || over {
				return nil
			}
		}
	}
}

// inputResult is what became of one line of input: a move, or chat.
type inputResult struct {
	err  error
	chat bool
}

// readMoves plays each line of input as a move, or says it in the room's
// chat, until input ends, handing each result to play's loop.
func (s *Server) readMoves(ctx context.Context, c *call, conn *lobby.Conn, results chan<- inputResult) {
	report := func(err error, chat bool) bool {
		select {
		case results <- inputResult{err: err, chat: chat}:
			return true
		case <-ctx.Done():
			return false
		}
	}
	in := bufio.NewScanner(s.input(ctx, c))
	maxLine := s.cfg.Limits.MaxLine
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
		err, chat := errNotJSON, false
		switch text, ok := chatText(line); {
		case ok:
			err, chat = conn.Say(ctx, text), true
		case !json.Valid(line):
		case line[0] != '{':
			// null, a number, a string, an array: the game's rules would
			// word this in the decoder's terms.
			err = errNotObject
		default:
			err = conn.Move(ctx, json.RawMessage(bytes.Clone(line)))
		}
		if !report(err, chat) {
			return
		}
	}
	if errors.Is(in.Err(), bufio.ErrTooLong) {
		s.refuse("line_too_long", "key", c.player.Key, "remote", c.sess.RemoteAddr().String())
		report(badInput(fmt.Sprintf("a line longer than %d bytes: send one move per line; this session ends here (the room goes on)", maxLine)), false)
	}
}

// badInput ends a play session: the input cannot be read as moves.
type badInput string

func (b badInput) Error() string { return string(b) }

var (
	errNotJSON   = errors.New(`that line is not JSON: send one move object per line, like {"kind":"pass"}`)
	errNotObject = errors.New(`a move is a JSON object, like {"kind":"pass"}: send one per line`)
)
