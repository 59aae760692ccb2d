package main

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"
	"github.com/charmbracelet/ssh"
)

// serveV2 runs a Bubble Tea v2 program for the session on Wish v2, with
// the options Wish's own middleware would give it (input, output, the
// colour profile from the client's TERM and COLORTERM, the window size),
// and the same alt screen and mouse mode as the v1 screens.
func serveV2(sess ssh.Session, fps int, h *hub) {
	pty, winch, ok := sess.Pty()
	if !ok {
		wish.Fatalln(sess, "uicompare: needs a terminal")
		return
	}
	var model tea.Model
	switch app, name := appOf(sess.Command()); app {
	case "counter":
		model = &counterV2{style: lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color(palette[title].fg))}
	case "table":
		rm, st := h.join(name)
		defer rm.leave(st)
		model = newTableV2(rm, st, pty.Window.Width, pty.Window.Height, sess.Context())
	default:
		wish.Fatalln(sess, "uicompare: command is counter or table ROOM")
		return
	}
	opts := bubbletea.MakeOptions(sess)
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

// screenView is how every v2 screen is shown: the v1 screens' program
// options are part of the view in v2.
func screenView(content string) tea.View {
	v := tea.NewView(content)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

type counterV2 struct {
	n     int
	style lipgloss.Style
}

func (m *counterV2) Init() tea.Cmd { return nil }

func (m *counterV2) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if k.String() == "ctrl+c" {
			return m, tea.Quit
		}
		m.n++
	}
	return m, nil
}

func (m *counterV2) View() tea.View {
	return screenView(m.style.Render(fmt.Sprintf("count %d", m.n)) + "\n\npress any key")
}

type tableV2 struct {
	room          *room
	seat          *seat
	ctx           context.Context
	t             table
	width, height int
	styles        [styleCount]lipgloss.Style
}

func newTableV2(rm *room, st *seat, width, height int, ctx context.Context) *tableV2 {
	m := &tableV2{room: rm, seat: st, ctx: ctx, width: width, height: height}
	for i, p := range palette {
		s := lipgloss.NewStyle().Bold(p.bold).Underline(p.underline)
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
func (m *tableV2) wait() tea.Cmd {
	return func() tea.Msg { return m.seat.next(m.ctx) }
}

func (m *tableV2) Init() tea.Cmd { return m.wait() }

func (m *tableV2) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tableMsg:
		m.t = msg.t
		return m, m.wait()
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
		return m, func() tea.Msg { m.room.move(m.seat); return nil }
	}
	return m, nil
}

func (m *tableV2) View() tea.View {
	return screenView(render(m.t.lines(m.seat.index, m.width, m.height), m.width, func(s int, text string) string {
		return m.styles[s].Render(text)
	}))
}
