package server

import (
	"errors"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	bm "github.com/charmbracelet/wish/bubbletea"

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
		Lobby: s.cfg.Lobby, Player: c.player, Start: start, Theme: theme,
		Width: pty.Window.Width, Height: pty.Window.Height,
	})
	opts := append(bm.MakeOptions(c.sess),
		tea.WithAltScreen(),
		tea.WithMouseCellMotion(),
		tea.WithEnvironment(append(c.sess.Environ(), "TERM="+pty.Term)),
	)
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
