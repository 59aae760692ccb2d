package main

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	"github.com/muesli/termenv"
)

// serveV1 runs a Bubble Tea v1 program for the session the way
// server/tui.go does: alt screen, cell-motion mouse, a Lip Gloss renderer
// from the client's TERM that never queries the terminal.
func serveV1(sess ssh.Session, fps int, h *hub) {
	pty, winch, ok := sess.Pty()
	if !ok {
		wish.Fatalln(sess, "uicompare: needs a terminal")
		return
	}
	env := append(sess.Environ(), "TERM="+pty.Term)
	r := lipgloss.NewRenderer(sess, termenv.WithEnvironment(clientEnv(env)), termenv.WithUnsafe(), termenv.WithColorCache(true))
	r.SetHasDarkBackground(true)
	var model tea.Model
	switch app, name := appOf(sess.Command()); app {
	case "counter":
		model = &counterV1{style: r.NewStyle().Bold(true).Foreground(lipgloss.Color(palette[title].fg))}
	case "table":
		rm, st := h.join(name)
		defer rm.leave(st)
		model = newTableV1(rm, st, r, pty.Window.Width, pty.Window.Height, sess.Context())
	default:
		wish.Fatalln(sess, "uicompare: command is counter or table ROOM")
		return
	}
	opts := []tea.ProgramOption{
		tea.WithInput(sess),
		tea.WithOutput(sess),
		tea.WithAltScreen(),
		tea.WithMouseCellMotion(),
		tea.WithEnvironment(env),
	}
	if fps > 0 {
		opts = append(opts, tea.WithFPS(fps))
	}
	prog := tea.NewProgram(model, opts...)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-sess.Context().Done():
				prog.Kill()
				return
			case w := <-winch:
				prog.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
			}
		}
	}()
	_, _ = prog.Run()
}

type counterV1 struct {
	n     int
	style lipgloss.Style
}

func (m *counterV1) Init() tea.Cmd { return nil }

func (m *counterV1) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		if k.String() == "ctrl+c" {
			return m, tea.Quit
		}
		m.n++
	}
	return m, nil
}

func (m *counterV1) View() string {
	return m.style.Render(fmt.Sprintf("count %d", m.n)) + "\n\npress any key"
}

type tableV1 struct {
	room          *room
	seat          *seat
	ctx           context.Context
	t             table
	width, height int
	styles        [styleCount]lipgloss.Style
}

func newTableV1(rm *room, st *seat, r *lipgloss.Renderer, width, height int, ctx context.Context) *tableV1 {
	m := &tableV1{room: rm, seat: st, ctx: ctx, width: width, height: height}
	for i, p := range palette {
		s := r.NewStyle().Bold(p.bold).Underline(p.underline)
		if p.fg != "" {
			s = s.Foreground(lipgloss.Color(p.fg))
		}
		if p.bg != "" {
			s = s.Background(lipgloss.Color(p.bg))
		}
		m.styles[i] = s
	}
	return m
}

// wait delivers the room's next table, as session/game.go's wait does.
func (m *tableV1) wait() tea.Cmd {
	return func() tea.Msg { return m.seat.next(m.ctx) }
}

func (m *tableV1) Init() tea.Cmd { return m.wait() }

func (m *tableV1) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tableMsg:
		m.t = msg.t
		return m, m.wait()
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyMsg:
		if msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
		return m, func() tea.Msg { m.room.move(m.seat); return nil }
	}
	return m, nil
}

func (m *tableV1) View() string {
	return render(m.t.lines(m.seat.index, m.width, m.height), m.width, func(s int, text string) string {
		return m.styles[s].Render(text)
	})
}

// clientEnv is the environment the SSH client sent, for termenv.
type clientEnv []string

func (e clientEnv) Environ() []string { return e }

func (e clientEnv) Getenv(key string) string {
	for i := len(e) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(e[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// appOf reads the session's command: "counter" or "table ROOM".
func appOf(cmd []string) (app, room string) {
	if len(cmd) == 0 {
		return "", ""
	}
	if len(cmd) > 1 {
		room = cmd[1]
	}
	return cmd[0], room
}
