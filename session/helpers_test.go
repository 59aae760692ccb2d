package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/internal/waittest"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/screentest"
)

// played are the games the tests' lobbies offer: the registry's default
// game alone, Fantastic Factories, as most tests play it.
var played = games.All()[:1]

// screens are the games' screens the tests' sessions draw.
var screens = games.Screens(played)

// lobbyGames are played as the tests' lobbies take them.
func lobbyGames() []lobby.Game { return games.Lobby(played) }

// fixedNow is the session's clock in tests: output never shows real time.
var fixedNow = screentest.FixedNow

func newTestLobby(change ...func(*lobby.Config)) *lobby.Lobby {
	clock := screentest.NewClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	cfg := lobby.Config{Store: mem.New(), Games: lobbyGames(), Now: clock.Now}
	for _, f := range change {
		f(&cfg)
	}
	return lobby.New(cfg)
}

var (
	alice = lobby.Player{ID: "SHA256:alice", Name: "alice"}
	bob   = lobby.Player{ID: "SHA256:bob", Name: "bob"}
	carol = lobby.Player{ID: "SHA256:carol", Name: "carol"}
)

// driver runs a Model the way a tea.Program does, without a terminal:
// commands run in goroutines and their messages come back through msgs,
// so a test can step the model and look at it between messages.
type driver struct {
	t      *testing.T
	m      tea.Model
	msgs   chan tea.Msg
	cancel context.CancelFunc
	quit   bool
}

func newDriver(t *testing.T, cfg session.Config) *driver {
	t.Helper()
	return newDriverPosting(t, cfg, true)
}

// newDriverPosting is newDriver, and with post the session posts its
// messages from outside to the driver (Config.Post), as the server's
// sessions do; without it, commands wait for them.
func newDriverPosting(t *testing.T, cfg session.Config, post bool) *driver {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Context = ctx
	if cfg.Games == nil {
		cfg.Games = screens
	}
	if cfg.Theme == "" {
		cfg.Theme = "mono"
	}
	if cfg.Width == 0 {
		cfg.Width, cfg.Height = 120, 40
	}
	if cfg.Now == nil {
		cfg.Now = fixedNow
	}
	msgs := make(chan tea.Msg, 1024)
	if post && cfg.Post == nil {
		cfg.Post = func(m tea.Msg) {
			select {
			case msgs <- m:
			case <-ctx.Done():
			}
		}
	}
	d := &driver{t: t, m: session.New(cfg), msgs: msgs, cancel: cancel}
	t.Cleanup(func() {
		d.close()
		cancel()
	})
	d.exec(d.m.Init())
	d.send(tea.WindowSizeMsg{Width: cfg.Width, Height: cfg.Height})
	return d
}

func (d *driver) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() { d.msgs <- cmd() }()
}

func (d *driver) send(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil:
		return
	case tea.BatchMsg:
		for _, c := range msg {
			d.exec(c)
		}
		return
	case tea.QuitMsg:
		d.quit = true
		return
	}
	_, cmd := d.m.Update(msg)
	d.exec(cmd)
}

// keyMsg turns a key name as bubbletea prints it into a key message.
var keyMsg = screentest.KeyMsg

func (d *driver) keys(keys ...string) {
	for _, k := range keys {
		d.send(keyMsg(k))
	}
}

// until handles messages until cond holds, failing the test after timeout.
func (d *driver) until(what string, cond func() bool) {
	d.t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case msg := <-d.msgs:
			d.send(msg)
		case <-deadline:
			d.t.Fatalf("timed out waiting for %s; screen:\n%s", what, d.m.View())
		}
	}
}

// eventually waits for a state no message announces, such as a room's
// seats as the lobby tells them.
var eventually = waittest.Until

// drain handles the messages already waiting, and those that come until
// none has for 50ms. That is a fixed wait: use it only before asserting
// that something did not happen (a read, a bell), never to wait for
// something that will (use until).
func (d *driver) drain() {
	for {
		select {
		case msg := <-d.msgs:
			d.send(msg)
		case <-time.After(50 * time.Millisecond):
			return
		}
	}
}

func (d *driver) view() string { return d.m.View() }

// close leaves any room the session is in, as the server does when a
// program ends.
func (d *driver) close() { d.m.(*session.Model).Close() }

// game probes the game screen; ok is false on any other screen.
func (d *driver) game() (session.GameProbe, bool) { return session.ProbeGame(d.m) }

func (d *driver) screenContains(s string) func() bool {
	return func() bool { return strings.Contains(d.m.View(), s) }
}

// inGame waits until the session shows a started game.
func (d *driver) inGame() {
	d.t.Helper()
	d.until("the game", func() bool { g, ok := d.game(); return ok && g.Started() })
}

// quickSolo opens the lobby at 80x24 as alice and starts a quick solo game
// with its key, as a player would.
func quickSolo(t *testing.T, l *lobby.Lobby) *driver {
	t.Helper()
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	d.keys("s")
	d.inGame()
	return d
}

// createRoom makes a room and returns its code.
func createRoom(t *testing.T, l *lobby.Lobby, host lobby.Player, o lobby.CreateOptions) string {
	t.Helper()
	m, err := l.Create(context.Background(), host, o)
	if err != nil {
		t.Fatal(err)
	}
	return m.Code
}
