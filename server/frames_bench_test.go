package server

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/muesli/termenv"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
)

// gameFrames plays a 4-seat game of Fantastic Factories (alice and three
// random bots, seed 5) through alice's session at w×h in the default
// theme on a 256-colour terminal, alice pressing enter (playing the move
// her menu is on) whenever the table is quiet, presses times. It returns
// the different views she was shown, one per update, and her session,
// at the position the presses lead to (the same every run).
func gameFrames(tb testing.TB, w, h, presses int) ([]string, tea.Model) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	l := lobby.New(lobby.Config{Store: mem.New(), Games: testGames})
	alice := lobby.Player{ID: "SHA256:alice", Name: "alice"}
	room, err := l.Create(ctx, alice, lobby.CreateOptions{Seats: 4, HasSeed: true, Seed: 5, Bots: []string{"random", "random", "random"}})
	if err != nil {
		tb.Fatal(err)
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	m := session.New(session.Config{Lobby: l, Games: testScreens, Player: alice, Theme: "default", Renderer: r,
		Start: session.Start{Mode: "join", Code: room.Code}, Width: w, Height: h, Context: ctx,
		Now: func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) }})
	tb.Cleanup(m.(interface{ Close() }).Close)
	msgs := make(chan tea.Msg, 64)
	exec := func(cmd tea.Cmd) {
		if cmd != nil {
			go func() {
				select {
				case msgs <- cmd():
				case <-ctx.Done():
				}
			}()
		}
	}
	handle := func(msg tea.Msg) {
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range msg {
				exec(c)
			}
		default:
			_, cmd := m.Update(msg)
			exec(cmd)
		}
	}
	exec(m.Init())
	var views []string
	deadline := time.After(30 * time.Second)
	for presses > 0 {
		select {
		case msg := <-msgs:
			handle(msg)
		case <-time.After(50 * time.Millisecond):
			// The table is quiet: alice plays the move her menu is on
			// (twice for a costly one), or nothing when it is not her
			// turn.
			handle(tea.KeyMsg{Type: tea.KeyEnter})
			presses--
		case <-deadline:
			tb.Fatalf("%d presses left after 30s; the screen:\n%s", presses, m.View())
		}
		if v := m.View(); strings.Contains(v, "MARKETPLACE") && (len(views) == 0 || views[len(views)-1] != v) {
			views = append(views, v)
		}
	}
	return views, m
}

// BenchmarkFrames measures what a game screen costs to draw at 120x40 and
// 80x24: its view (the whole frame as text; bytes/frame), a key's frame
// with the board unchanged (key: drawn and diffed, writing nothing), and the frame
// written for each update of a game in play, drawing on change
// (bytes/update, the bytes sent to each screen at the table) and with
// Bubble Tea's own renderer (tick-bytes/update; not timed, as it draws
// on its ticker).
//
//	go test ./server -run '^$' -bench Frames -benchmem
func BenchmarkFrames(b *testing.B) {
	for _, sz := range []struct {
		name string
		w, h int
	}{{"120x40", 120, 40}, {"80x24", 80, 24}} {
		views, m := gameFrames(b, sz.w, sz.h, 30)
		b.Run("view/"+sz.name, func(b *testing.B) {
			b.ReportAllocs()
			size := 0
			for b.Loop() {
				size = len(m.View())
			}
			b.ReportMetric(float64(size), "bytes/frame")
		})
		b.Run("change/"+sz.name, func(b *testing.B) {
			var out countWriter
			f := &frames{out: &out, width: sz.w, height: sz.h, full: true}
			f.draw("", views[0])
			b.ReportAllocs()
			updates := 0
			out.n = 0
			for b.Loop() {
				for _, v := range views[1:] {
					f.draw("", v)
					updates++
				}
				f.draw("", views[0])
				updates++
			}
			b.ReportMetric(float64(out.n)/float64(updates), "bytes/update")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(updates), "ns/update")
		})
		// A key's frame with the board unchanged, whole, as the frames
		// draw it: appended into a pooled buffer, and diffed.
		b.Run("key/"+sz.name, func(b *testing.B) {
			f := &frames{out: io.Discard, width: sz.w, height: sz.h, full: true}
			b.ReportAllocs()
			for b.Loop() {
				f.render("", m)
			}
		})
		b.Run("tick/"+sz.name, func(b *testing.B) {
			b.ReportMetric(tickBytes(b, views, sz.w, sz.h), "tick-bytes/update")
		})
	}
}

// tickBytes runs Bubble Tea's own renderer at 120 fps over views, one
// update per frame, and returns the bytes it wrote per update.
func tickBytes(b *testing.B, views []string, w, h int) float64 {
	out := &countWriter{}
	rm := &replay{views: views}
	p := tea.NewProgram(rm, tea.WithInput(nil), tea.WithOutput(out), tea.WithAltScreen(), tea.WithMouseCellMotion(),
		tea.WithFPS(120), tea.WithoutSignalHandler())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := p.Run(); err != nil {
			b.Error(err)
		}
	}()
	p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	for b.Loop() {
		for range 2 * len(views) {
			p.Send(nextView{})
		}
	}
	p.Quit()
	<-done
	return float64(out.total()) / float64(rm.shown())
}

// replay is a model that shows views one after another, a frame each:
// each update waits for the last one's frame to be written.
type replay struct {
	views []string
	mu    sync.Mutex
	i, n  int
}

type nextView struct{}

func (r *replay) Init() tea.Cmd { return nil }

func (r *replay) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(nextView); ok {
		r.mu.Lock()
		r.i, r.n = (r.i+1)%len(r.views), r.n+1
		r.mu.Unlock()
		// Paces the benchmark's updates, waiting for nothing: one a tick
		// of the 120 fps renderer at most, so each view is a frame.
		time.Sleep(time.Second / 100)
	}
	return r, nil
}

func (r *replay) View() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.views[r.i]
}

func (r *replay) shown() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// countWriter counts what is written to it.
type countWriter struct {
	mu sync.Mutex
	n  int
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.n += len(p)
	c.mu.Unlock()
	return len(p), nil
}

func (c *countWriter) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// BenchmarkFrameWrite measures a frame's way from the frames to the
// channel: each update of a game in play at 120x40, drawn on change and
// written as a terminal session's frames are (raw), and as they were,
// through the library's emulated PTY (ptyWriter): an op is an update.
//
//	go test ./server -run '^$' -bench FrameWrite -benchmem -count 5
func BenchmarkFrameWrite(b *testing.B) {
	views, _ := gameFrames(b, 120, 40, 30)
	for _, out := range []struct {
		name string
		w    func(io.Writer) io.Writer // the channel's writer, as the frames get it
	}{
		{"raw", func(ch io.Writer) io.Writer { return rawOutput(&termSession{Session: channelSession{w: ch}}) }},
		{"ptyWriter", func(ch io.Writer) io.Writer { return ssh.NewPtyWriter(ch) }},
	} {
		b.Run(out.name, func(b *testing.B) {
			var channel countWriter
			f := &frames{out: &lockedWriter{mu: new(sync.Mutex), w: out.w(&channel)}, width: 120, height: 40, full: true}
			f.draw("", views[0])
			channel.n = 0
			b.ReportAllocs()
			updates := 0
			for b.Loop() { // an update each, the views over and over
				updates++
				f.draw("", views[updates%len(views)])
			}
			b.ReportMetric(float64(channel.total())/float64(updates), "bytes/update")
		})
	}
}

// BenchmarkFrameSend measures a frame's way out over a real SSH
// connection on loopback: each update of a game in play at 120x40, drawn
// on change and written as a terminal session's frames are (lockedWriter,
// maxWrite bytes a packet), with the connection holding a frame's
// packets for one write (held), and without (packets, as before).
// writes/update is the server's system calls for each update; the time
// includes the encryption.
//
//	go test ./server -run '^$' -bench FrameSend -benchmem -count 5
func BenchmarkFrameSend(b *testing.B) {
	views, _ := gameFrames(b, 120, 40, 30)
	for _, held := range []bool{true, false} {
		name := "packets"
		if held {
			name = "held"
		}
		b.Run(name, func(b *testing.B) {
			p := newSSHPair(b)
			ch, i := p.open(b)
			w := &lockedWriter{mu: new(sync.Mutex), w: ch}
			if held {
				w.conn = p.cs
			}
			f := &frames{out: w, width: 120, height: 40, full: true}
			f.draw("", views[0])
			sent := p.waitRead(b, i, 1)
			writes, bytes := p.cs.writeCount(), len(sent)
			b.ReportAllocs()
			updates := 0
			for b.Loop() {
				updates++
				f.draw("", views[updates%len(views)])
			}
			b.StopTimer()
			b.ReportMetric(float64(p.cs.writeCount()-writes)/float64(updates), "writes/update")
			p.mu.Lock()
			bytes = p.read[i].Len() - bytes
			p.mu.Unlock()
			b.ReportMetric(float64(bytes)/float64(updates), "bytes/update")
		})
	}
}
