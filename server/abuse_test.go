package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/engine/factories/bot"
)

// A terminal with no input is warned, then closed on a restored screen;
// one with input stays.
func TestInactivityTimeout(t *testing.T) {
	srv := startServer(t, withLimits(Limits{Inactivity: 800 * time.Millisecond}))
	c := dialKey(t, srv.addr, "alice", newKey(t))
	_, busyScr := ptySession(t, c, "", 100, 30)
	_, idleScr := ptySession(t, c, "", 100, 30)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				busyScr.in.Write([]byte{'j'})
			}
		}
	}()
	idleScr.waitFor(t, "no input for a while: this session closes in")
	idleScr.waitFor(t, "closed after 800ms without input; your seat is kept")
	raw := idleScr.raw()
	if strings.LastIndex(raw, "\x1b[?1049l") > strings.LastIndex(raw, "closed after") {
		t.Error("the note came before the terminal was restored")
	}
	if strings.Contains(busyScr.text(), "closed after") || strings.Contains(busyScr.text(), "no input for a while") {
		t.Error("a session with input was warned or closed")
	}
	if srv.refusals("inactivity") != 1 {
		t.Errorf("%d inactivity closes counted", srv.refusals("inactivity"))
	}
}

// Garbage, escape bytes, invalid UTF-8, absurd window sizes and a resize
// storm in a terminal; bad arguments and bad JSON from scripts: each gets
// a clear message or is ignored, and the room goes on for everyone else.
func TestBadInput(t *testing.T) {
	srv := startServer(t)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --players 2 --seed 11", "").stdout)
	a := startPlay(t, alice, "play "+code)
	<-a.lines
	// Bad lines to play are answered one by one; the session goes on.
	bad := []string{`{"kind":`, "\xff\xfe", `[1,2,3]`, `{"kind":"pass","seat":1}`, `{"kind":"hire","slot":0,"discard":[999]}`, `"x"`, `null`}
	for _, l := range bad {
		a.in.Write([]byte(l + "\n"))
	}
	for range bad {
		if l := <-a.lines; l.Error == "" || l.OK {
			t.Errorf("a bad line was not refused: %+v", l)
		}
	}
	b := startPlay(t, bob, "play "+code)

	// A terminal fed garbage while its window size goes wild.
	term, scr := ptySession(t, bob, "watch "+code, 100, 30)
	scr.waitFor(t, code)
	for _, junk := range []string{"\x00\x01\x02\x7f", "\x1b[999;999H\x1b]0;pwned\x07", "\xff\xfe\xc3\x28", "\x1b[M\xff\xff\xff", "\x1b[<0;99999;99999M", strings.Repeat("\x1b", 100)} {
		scr.in.Write([]byte(junk))
	}
	for _, size := range [][2]int{{0, 0}, {1, 1}, {10000, 10000}, {80, 24}} {
		if err := term.WindowChange(size[1], size[0]); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 500 { // a resize storm
		term.WindowChange(24+i%50, 80+i%100)
	}
	term.WindowChange(30, 100)

	for _, tt := range []struct{ cmd, stderr string }{
		{"join " + code, "needs a terminal"},
		{"frobnicate " + strings.Repeat("x", 300), `unknown command "frobnicate`},
		{"rooms " + strings.Repeat("--json ", 400), "that command is"},
		{"play " + strings.Repeat("A", 2000), "that command is"},
		{"new --players 2 --seed " + strings.Repeat("9", 50), "invalid value"},
	} {
		r := run(t, bob, tt.cmd, "")
		if r.status != 1 || !strings.Contains(r.stderr, tt.stderr) || len(r.stderr) > 300 {
			t.Errorf("%.60s: %+v, want a short error saying %q", tt.cmd, r, tt.stderr)
		}
	}

	// The game goes on: the seats play it through.
	done := make(chan factories.View, 2)
	for i, s := range []*stream{a, b} {
		go func() {
			done <- playToEnd(t, []string{"alice", "bob"}[i], s, uint64(i), func(int, int, []factories.Card) {})
		}()
	}
	for range 2 {
		if v := <-done; v.Phase != factories.GameOver {
			t.Fatalf("a seat's last view: %s", v.Phase)
		}
	}
	scr.waitFor(t, "game over")
}

// A client that stops reading its channel holds up nobody: the same game
// played with a spectator whose windows are full, and without, brings
// each seat the other's moves as fast, give or take a frame.
func TestSilentClientDelaysNobody(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two whole games")
	}
	quiet, silent := moveLatencies(t, false), moveLatencies(t, true)
	if len(quiet) != len(silent) {
		t.Fatalf("the same game took %d and %d moves", len(quiet), len(silent))
	}
	// From well after the silent windows filled (see moveLatencies).
	q, s := median(quiet[2*silentFrom:]), median(silent[2*silentFrom:])
	t.Logf("%d moves; median move-to-other-seat %s alone, %s beside a silent spectator", len(quiet), q, s)
	// A blocked broadcast would cost seconds. The race detector slows
	// the spectator's own rendering tenfold on the same cores, so there
	// the bound is ten frames.
	frames := time.Duration(1)
	if raceEnabled {
		frames = 10
	}
	if s > q+frames*time.Second/60 {
		t.Errorf("a silent spectator slowed the other seat's updates by %s, more than %d frame(s)", s-q, frames)
	}
}

// silentFrom is the move after which the silent spectator's windows fill.
const silentFrom = 30

// moveLatencies plays a seeded game over SSH, two greedy bots in play
// sessions, and returns each move's time from its line being sent to the
// other seat's update. With silent, a spectator on a connection of its own
// never reads its terminal or its JSON stream, and from move silentFrom on
// its terminal's window is far over full.
func moveLatencies(t *testing.T, silent bool) []time.Duration {
	srv := startServer(t)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --players 2 --seed 5", "").stdout)
	// Alice sits down first, so she holds seat 0 in both games: the seats
	// taken the other way round make another game.
	players := []*stream{startPlay(t, alice, "play "+code)}
	first := <-players[0].lines
	players = append(players, startPlay(t, bob, "play "+code))
	last := []line{first, {}}
	for i, p := range players {
		for l := range p.lines {
			if last[i] = l; l.Room.Started || l.Error != "" {
				break
			}
		}
	}
	// The silent ones: a spectator's terminal and a JSON stream whose
	// output nobody reads, on a connection of their own.
	mute := dialKey(t, srv.addr, "mute", newKey(t))
	var muteTerm *gossh.Session
	cmds := []string{"watch " + code, "play " + code + " --watch"}
	if !silent {
		cmds = nil
	}
	for _, cmd := range cmds {
		s, err := mute.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if strings.HasPrefix(cmd, "watch") {
			if err := s.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{}); err != nil {
				t.Fatal(err)
			}
			muteTerm = s
		}
		if _, err := s.StdoutPipe(); err != nil { // never read
			t.Fatal(err)
		}
		if _, err := s.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if err := s.Start(cmd); err != nil {
			t.Fatal(err)
		}
	}

	// Each move's time from sending it to the other seat's update.
	var bots []bot.Bot
	for i := range 2 {
		b, err := bot.New("greedy", uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, b)
	}
	// next reads seat i's next line, or fails the test after a while.
	next := func(i int) (line, bool) {
		select {
		case l, ok := <-players[i].lines:
			if ok && !l.OK && l.Error == "" {
				last[i] = l
			}
			return l, ok
		case <-time.After(10 * time.Second):
			t.Fatalf("seat %d: no line for 10s at version %d", i, last[i].Version)
		}
		return line{}, false
	}
	var lat []time.Duration
	for {
		if len(lat) == silentFrom && silent {
			// Full redraws of a huge window, none of them read: far more
			// than the 2 MB the channel's window holds.
			for i := range 40 {
				muteTerm.WindowChange(200+i%2*56, 400+i%2*112)
			}
		}
		mover := -1
		for i := range players {
			for len(players[i].lines) > 0 { // take what has arrived
				next(i)
			}
			var v factories.View
			json.Unmarshal(last[i].View, &v)
			if last[i].Room.Over {
				goto over
			}
			if len(v.Legal) > 0 && mover < 0 {
				mover = i
			}
		}
		if mover < 0 {
			if _, ok := next(0); !ok {
				goto over
			}
			continue
		}
		var v factories.View
		json.Unmarshal(last[mover].View, &v)
		version, other := last[mover].Version, 1-mover
		sent := time.Now()
		players[mover].send(t, bots[mover].Choose(v))
		for last[other].Version <= version && !last[other].Room.Over {
			if _, ok := next(other); !ok {
				goto over
			}
		}
		lat = append(lat, time.Since(sent))
		for {
			l, ok := next(mover)
			if !ok || l.OK {
				break
			}
			if l.Error != "" {
				t.Fatalf("seat %d's move refused: %s", mover, l.Error)
			}
		}
	}
over:
	return lat
}

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}
