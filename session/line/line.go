// Package line is the line mode: the lobby, the table and spectating
// spoken in lines, for screen readers, braille displays, dumb terminals
// (Emacs' shell, a serial console) and slow links. Nothing it writes
// carries an escape sequence, and nothing rests on a symbol or a colour:
// each event is one sentence as it happens, worded for this player in
// their language, and the state is read on demand by commands (look,
// hand, market, board, moves, log, card, rules).
//
// It sits at the same tables as the full-screen sessions (package
// session), through the same lobby calls, and words moves and the log
// as they do: the menu's labels (kit.Board.Menu) and session.LogLine.
//
// One goroutine does all the writing: the session's, in Run. Another
// only reads the player's input and hands it over, so an event never
// breaks a line being typed (see term).
package line

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/kit"
)

// Config is what a line-mode session needs from the server.
type Config struct {
	Lobby  *lobby.Lobby
	Games  map[string]kit.Game
	Player lobby.Player
	// Start is where the session opens: the lobby, or a room to join,
	// watch or replay.
	Start session.Start
	// Lang is the language the session speaks; "" is English.
	Lang lang.Tag
	// OnLang, if set, hears the language the player picks.
	OnLang func(lang.Tag)
	// In is the player's input, already paced and bounded by the server.
	In io.Reader
	// Out takes every line; on a terminal its "\n" become "\r\n".
	Out io.Writer
	// Echo is set when the session has a terminal in raw mode (ssh -t):
	// the line mode then echoes what is typed, edits it (backspace, ^U)
	// and shows a prompt. Without it the client's own terminal does.
	Echo bool
	// MaxLine bounds a typed line, in bytes; 0 is DefaultMaxLine.
	MaxLine int
	// Notices are what the server tells the player meanwhile (an
	// operator's announcement, a warning of inactivity), said as events.
	Notices <-chan string
}

// DefaultMaxLine bounds a typed line when Config.MaxLine does not:
// commands are short, and chat lines are bounded shorter still.
const DefaultMaxLine = 1024

// Width is the most a line the mode writes takes, in columns, but for a
// single word longer than that (an invite): lines are wrapped to it.
const Width = 80

// errQuit ends the session at the player's word.
var errQuit = errors.New("quit")

// Run speaks the line mode until the player quits, their input ends or
// ctx does.
func Run(ctx context.Context, cfg Config) error {
	if cfg.MaxLine <= 0 {
		cfg.MaxLine = DefaultMaxLine
	}
	s := &sess{cfg: cfg, ctx: ctx, out: newTerm(cfg.Out, cfg.Echo, cfg.MaxLine)}
	s.setLang(cfg.Lang)
	input := make(chan []byte)
	readDone := make(chan error, 1)
	go read(ctx, cfg.In, input, readDone)
	err := s.loop(input, readDone)
	s.closeTable()
	if errors.Is(err, errQuit) || errors.Is(err, io.EOF) || ctx.Err() != nil {
		return nil
	}
	return err
}

// read hands the player's input over in chunks as it comes, until it ends.
func read(ctx context.Context, r io.Reader, to chan<- []byte, done chan<- error) {
	buf := make([]byte, 512)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			select {
			case to <- append([]byte(nil), buf[:n]...):
			case <-ctx.Done():
				return
			}
		}
		if err != nil {
			done <- err
			return
		}
	}
}

// sess is one line-mode session: in the lobby, or at a table.
type sess struct {
	cfg   Config
	ctx   context.Context
	out   *term
	p     *lang.Printer
	theme kit.Theme
	table *table // nil in the lobby
}

// plainRenderer styles nothing: every style renders as its text.
var plainRenderer = lipgloss.NewRenderer(io.Discard, termenv.WithProfile(termenv.Ascii))

func (s *sess) setLang(t lang.Tag) {
	s.p = lang.For(t)
	s.theme = kit.NewTheme("mono", plainRenderer).In(s.p)
	s.out.words = sayWords(s.p)
}

// loop reads commands and the table's updates until the session ends.
func (s *sess) loop(input <-chan []byte, readDone <-chan error) error {
	s.open(s.cfg.Start)
	for {
		var updates <-chan lobby.Update
		if s.table != nil {
			updates = s.table.conn.Updates()
		}
		select {
		case <-s.ctx.Done():
			return s.ctx.Err()
		case err := <-readDone:
			// Every chunk read was handed over before this: read sends
			// each, unbuffered, before it reports the end.
			return err
		case chunk := <-input:
			if err := s.typed(chunk); err != nil {
				return err
			}
		case u := <-updates:
			s.table.update(s, u)
			s.out.flush()
		case n := <-s.cfg.Notices:
			if n != "" {
				s.out.event(n)
				s.out.flush()
			}
		}
	}
}

// typed takes a chunk of input: each line it completes is a command.
func (s *sess) typed(chunk []byte) error {
	for _, ln := range s.out.ed.feed(chunk) {
		if ln.tooLong {
			s.out.answer(s.p.T("line.too_long", "Max", s.cfg.MaxLine))
			continue
		}
		err := s.command(ln.text)
		s.out.done()
		if err != nil {
			return err
		}
	}
	return nil
}

// command runs one typed line, at the table or in the lobby.
func (s *sess) command(text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	name, rest, _ := strings.Cut(text, " ")
	name, rest = strings.ToLower(name), strings.TrimSpace(rest)
	if s.table != nil {
		return s.table.command(s, text, name, rest)
	}
	return s.lobbyCommand(name, rest)
}

// open goes where start says: a room, or the lobby.
func (s *sess) open(start session.Start) {
	switch start.Mode {
	case "join", "watch":
		if err := s.sit(start.Code, start.Mode == "watch"); err != nil {
			s.out.answer(s.refusal("", err))
			s.welcome()
		}
	case "replay":
		s.replay(start.Code)
		s.welcome()
	default:
		s.welcome()
		if start.Back {
			s.waiting()
		}
	}
	s.out.done()
}

// closeTable leaves the table, if at one.
func (s *sess) closeTable() {
	if s.table != nil {
		s.table.conn.Close()
		s.table = nil
	}
}

// refusal words err for the player, in the words of game's rules if it
// is theirs.
func (s *sess) refusal(game string, err error) string { return session.ErrText(s.theme, game, err) }
