package server

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/muesli/termenv"

	"github.com/smokestack/smokestack/session"
)

// sessionStart maps a terminal command to the screen it opens on.
func sessionStart(cmd string, pos []string) session.Start {
	if cmd == "lobby" || len(pos) == 0 {
		return session.Start{Mode: "lobby"}
	}
	return session.Start{Mode: cmd, Code: pos[0]}
}

// runTUI runs the Bubble Tea program for a terminal session until the
// player quits, the connection drops or the server shuts down.
func (s *Server) runTUI(c *call, start session.Start, theme string) error {
	pty, winch, _ := c.sess.Pty()
	model := session.New(session.Config{
		Lobby: s.cfg.Lobby, Games: s.cfg.Screens, Player: c.player, Start: start, Theme: theme,
		Width: pty.Window.Width, Height: pty.Window.Height,
		Context:  c.ctx,
		Renderer: renderer(c.sess, pty.Term),
	})
	inputEnded := make(chan struct{})
	var endOnce sync.Once
	opts := []tea.ProgramOption{
		tea.WithInput(inputEnd{c.sess, func() { endOnce.Do(func() { close(inputEnded) }) }}),
		tea.WithOutput(c.sess),
		tea.WithAltScreen(),
		tea.WithMouseCellMotion(),
		// The renderer draws on a fixed tick: at 120 fps (Bubble Tea's
		// most) a move reaches the other screens in about 6 ms, not 10.
		// See docs/performance.md.
		tea.WithFPS(120),
		tea.WithEnvironment(append(c.sess.Environ(), "TERM="+pty.Term)),
	}
	prog := tea.NewProgram(model, opts...)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-c.sess.Context().Done():
				prog.Kill() // nobody is left to see a goodbye
				return
			case <-inputEnded:
				// The client closed the session (the connection may live
				// on, multiplexed): nothing more can be typed.
				prog.Quit()
				return
			case <-s.stopping.Done():
				prog.Quit() // leave the alt screen so the note below shows
				return
			case w := <-winch:
				prog.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
			}
		}
	}()
	final, err := prog.Run()
	// A session holding rooms open lets go of them here, however it ended.
	if closer, ok := final.(interface{ Close() }); ok {
		closer.Close()
	}
	switch {
	case errors.Is(err, tea.ErrProgramPanic):
		s.log.Error("session screen panic", "user", c.sess.User(), "start", start.Mode, "code", start.Code)
		return errors.New("the game screen hit an internal error; it has been logged. Your seat is kept: reconnect to carry on")
	case s.stopping.Err() != nil:
		fmt.Fprintln(c.errOut, restartNote)
		return nil
	case errors.Is(err, tea.ErrProgramKilled):
		return nil // the connection went away
	}
	return err
}

// inputEnd reports when the client's input ends. Bubble Tea ignores the
// end of its input, which would leave a closed session's program running.
type inputEnd struct {
	r     io.Reader
	ended func()
}

func (i inputEnd) Read(p []byte) (int, error) {
	n, err := i.r.Read(p)
	if err != nil {
		i.ended()
	}
	return n, err
}

// renderer styles for the client's terminal, from the TERM and COLORTERM
// it sent. Unlike wish's MakeRenderer it never queries the terminal for its
// background: a client that does not answer would leave the session
// waiting for a keypress before the first frame.
func renderer(sess ssh.Session, term string) *lipgloss.Renderer {
	env := clientEnv(append(sess.Environ(), "TERM="+term))
	r := lipgloss.NewRenderer(sess, termenv.WithEnvironment(env), termenv.WithUnsafe(), termenv.WithColorCache(true))
	r.SetHasDarkBackground(true)
	return r
}

// clientEnv is the environment the SSH client sent, for termenv.
type clientEnv []string

func (e clientEnv) Environ() []string { return e }

func (e clientEnv) Getenv(key string) string {
	for i := len(e) - 1; i >= 0; i-- { // the last setting wins, as in a shell
		if k, v, ok := strings.Cut(e[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}
