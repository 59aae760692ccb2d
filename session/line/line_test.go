package line

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
)

// syncBuffer is output read while it is written.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// run starts the line mode on pipes, and returns its input and output.
func run(t *testing.T, echo bool, start session.Start) (io.Writer, *syncBuffer, func()) {
	t.Helper()
	gs := games.All()
	l := lobby.New(lobby.Config{Store: mem.New(), Games: games.Lobby(gs)})
	in, w := io.Pipe()
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Config{Lobby: l, Games: games.Screens(gs), Player: lobby.Player{ID: "SHA256:al", Key: "SHA256:al", Name: "al"},
			Start: start, In: in, Out: out, Echo: echo})
	}()
	return w, out, func() {
		cancel()
		w.Close()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}
}

func waitOut(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("never wrote %q; wrote:\n%s", want, out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestLobbyWelcomes(t *testing.T) {
	in, out, stop := run(t, false, session.Start{Mode: "lobby"})
	defer stop()
	waitOut(t, out, "Welcome to smokestack, al.")
	io.WriteString(in, "games\n")
	waitOut(t, out, "Furnace")
}
