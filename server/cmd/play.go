package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"sync/atomic"
	"time"

	"github.com/smokestack/smokestack/engine"
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

// hintLine answers {"hint":true}: the seat's best moves as the game's
// search bot rates them, best first (lobby.Conn.Hint).
type hintLine struct {
	Hint []engine.Hint `json:"hint"`
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
func (s *Set) play(c *Call) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	watch := fs.Bool("watch", false, "")
	pos, err := c.flagsUpTo(fs, 1, 2, c.T("cmd.missing_room"))
	if err != nil {
		return err
	}
	out := json.NewEncoder(c.Out) // only play's loop writes
	out.SetEscapeHTML(false)
	var conn *lobby.Conn
	room, err := c.roomArg(pos) // CODE, or a guest's CODE WORD
	if err != nil {
		return err
	}
	if *watch {
		conn, err = s.Lobby.Watch(c.Ctx, room, c.Player)
	} else {
		conn, err = s.Lobby.Join(c.Ctx, room, c.Player)
	}
	if err != nil {
		err = told(c, err)
		_ = out.Encode(errorLine{Error: err.Error()})
		return err
	}
	defer conn.Close()

	ctx, cancel := context.WithCancel(c.Ctx)
	defer cancel()
	results := make(chan inputResult)
	p := &playLoop{out: out, chat: newChatSender(out)}
	go func() {
		if !*watch {
			defer cancel()
		}
		s.readMoves(ctx, c, conn, &p.sent, results)
	}()
	return p.run(ctx, c, conn, results)
}

// playLoop is play's side that writes: the room's updates as they come,
// and the answer to each line read.
type playLoop struct {
	out     *json.Encoder
	chat    *chatSender
	version int              // of the last update sent
	settle  <-chan time.Time // after the game over, the wait for its record
	// sent counts the moves the reader sent to the room, answered those
	// answered here: the update showing a move is pushed before the move
	// returns, so the game over can come before the answer to the move
	// that ended the game, which is given all the same.
	sent     atomic.Int64
	answered int64
}

// run writes updates and answers until the session ends.
func (p *playLoop) run(ctx context.Context, c *Call, conn *lobby.Conn, results <-chan inputResult) error {
	for {
		select {
		case <-p.settle:
			return nil // the record is late: the game is over all the same
		case <-ctx.Done():
			if note, ok := c.Session.Ended(); ok {
				_ = p.out.Encode(errorLine{Error: note})
			}
			return nil
		case u := <-conn.Updates():
			over, err := p.send(u)
			if err != nil {
				return nil // the client went away
			}
			if over {
				return p.last(ctx, conn, results)
			}
		case res := <-results:
			if end, err := p.answer(ctx, conn, res, results); end {
				return err
			}
		}
	}
}

// last answers, once the game is over, the move still with the room, if
// any: the move that ended the game, or one that came too late for it.
func (p *playLoop) last(ctx context.Context, conn *lobby.Conn, results <-chan inputResult) error {
	for p.sent.Load() > p.answered {
		select {
		case res := <-results:
			if end, err := p.answer(ctx, conn, res, results); end {
				return err
			}
		case <-ctx.Done():
			return nil
		}
	}
	return nil
}

// send writes an update and its new chat, and reports whether it shows
// the game over with nothing more to wait for.
func (p *playLoop) send(u lobby.Update) (over bool, err error) {
	p.version = u.Version
	u.WordLog()
	if u.Room.Over && u.Room.Recording && p.settle == nil {
		p.settle = time.After(recordWait)
	}
	return u.Room.Over && !u.Room.Recording, p.chat.send(u)
}

// answer writes what became of a line of input, and reports whether the
// session ends there, with what error.
func (p *playLoop) answer(ctx context.Context, conn *lobby.Conn, res inputResult, results <-chan inputResult) (end bool, err error) {
	if res.move {
		p.answered++
	}
	var bad badInput
	if errors.As(res.err, &bad) {
		_ = p.out.Encode(errorLine{Error: res.err.Error()})
		return true, res.err
	}
	if res.hint {
		if res.err != nil {
			return p.out.Encode(errorLine{Error: res.err.Error(), About: "hint"}) != nil, nil
		}
		return p.out.Encode(hintLine{Hint: res.hints}) != nil, nil
	}
	if res.chat {
		// The line said comes back as a chat line; only a refusal is
		// answered.
		return res.err != nil && p.out.Encode(errorLine{Error: res.err.Error(), About: "chat"}) != nil, nil
	}
	if res.err != nil {
		return p.out.Encode(errorLine{Error: res.err.Error()}) != nil, nil
	}
	// The room pushed the update showing the move before Move returned:
	// it is either written already or waiting here. It may be the game
	// over, by this move or a move made just after it: the session then
	// ends after the ok, as after any update showing the game over.
	over := false
	select {
	case u := <-conn.Updates():
		if over, err = p.send(u); err != nil {
			return true, nil
		}
	default:
	}
	if p.out.Encode(okLine{OK: true, Version: p.version}) != nil {
		return true, nil
	}
	if over {
		// The next move may be with the room already: it is answered too.
		return true, p.last(ctx, conn, results)
	}
	return false, nil
}
