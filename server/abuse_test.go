package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/engine/factories/bot"
)

// A terminal with no input is warned, then closed on a restored screen,
// one too small for the game too, its warning wrapped whole; one with
// input stays.
func TestInactivityTimeout(t *testing.T) {
	srv := startServer(t, withLimits(Limits{Inactivity: 800 * time.Millisecond}))
	c := dialKey(t, srv.addr, "alice", newKey(t))
	_, busyScr := ptySession(t, c, "", 100, 30)
	_, idleScr := ptySession(t, c, "", 100, 30)
	_, smallScr := ptySession(t, c, "", 40, 10)
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
	smallScr.waitFor(t, "unless you press a key") // the end of the warning, on its second line
	smallScr.waitFor(t, "closed after 800ms without input; your seat is kept")
	raw := idleScr.raw()
	if strings.LastIndex(raw, "\x1b[?1049l") > strings.LastIndex(raw, "closed after") {
		t.Error("the note came before the terminal was restored")
	}
	if strings.Contains(busyScr.text(), "closed after") || strings.Contains(busyScr.text(), "no input for a while") {
		t.Error("a session with input was warned or closed")
	}
	if srv.refusals("inactivity") != 2 {
		t.Errorf("%d inactivity closes counted", srv.refusals("inactivity"))
	}
}

// Bad input of every kind, in a running game: lines that are not moves,
// moves of the wrong shape, moves off turn or naming another seat, unknown
// kinds and huge numbers are each refused with the reason, nothing is
// played, and the game goes on for both seats; a terminal fed garbage and
// wild window sizes draws the too-small notice or a bounded frame; bad
// exec commands get a short error.
func TestBadInput(t *testing.T) {
	srv := startServer(t)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	// No clock: its countdown redraws the header every second, a frame
	// that drawnAfter's quiet would take for part of a resize's.
	code := strings.TrimSpace(run(t, alice, "new --players 2 --seed 11 --clock off", "").stdout)
	a := startPlay(t, alice, "play "+code)
	<-a.lines
	b := startPlay(t, bob, "play "+code)
	started := func(s *stream) line {
		t.Helper()
		for l := range s.lines {
			if l.Room.Started {
				return l
			}
		}
		t.Fatal("the session ended before the game started")
		return line{}
	}
	la, lb := started(a), started(b)
	if la.Seat != 0 || lb.Seat != 1 || !slices.Equal(lb.Room.Acting, []int{1}) {
		t.Fatalf("seed 11 should seat alice at 0 and bob at 1, bob to act: alice %d, bob %d, acting %v", la.Seat, lb.Seat, lb.Room.Acting)
	}
	const (
		offTurn  = "it is not your turn in the market phase: wait for yours"
		notJSON  = "that line is not JSON"
		notMove  = `a move is a JSON object, like {"kind":"pass"}: send one per line`
		unread   = "that move cannot be read: "
		slots    = "marketplace slots are numbered 0 to 3"
		noPass   = "you can take a blueprint or hire a contractor, so you cannot pass"
		notKind  = `is not a market phase move: take a blueprint, hire a contractor or refresh a row`
		huge     = "123456789012345678901234567890123456789012345678901234567890"
		tooLarge = `{"kind":"take","slot":1e300}`
	)
	refusals := []struct {
		who  string
		s    *stream
		line string
		want string
	}{
		// Alice is off turn: every move is hers and refused as such, one
		// naming bob's seat too (a line is a move for its session's seat).
		{"alice", a, `{"kind":"take","slot":0}`, offTurn},
		{"alice", a, `{"kind":"take","slot":0,"seat":1}`, offTurn},
		{"alice", a, `{"kind":"hire","slot":0,"discard":[999]}`, offTurn},
		{"alice", a, `{"kind":"frobnicate"}`, offTurn},
		{"alice", a, tooLarge, unread},
		{"alice", a, `{"kind":7}`, unread},
		{"alice", a, `{"kind":`, notJSON},
		{"alice", a, "\xff\xfe", notJSON},
		{"alice", a, `null`, notMove},
		{"alice", a, `[1,2,3]`, notMove},
		{"alice", a, `"x"`, notMove},
		{"alice", a, huge, notMove},
		// Bob is to act: his bad moves get the rules' reasons.
		{"bob", b, `{"kind":"frobnicate"}`, `"frobnicate" ` + notKind},
		{"bob", b, `{}`, `"" ` + notKind},
		{"bob", b, `{"kind":"take","slot":99999999999}`, slots},
		{"bob", b, `{"kind":"take","slot":-1}`, slots},
		{"bob", b, `{"kind":"take","slot":` + huge + `}`, unread},
		{"bob", b, tooLarge, unread},
		{"bob", b, `{"kind":"take","slot":"0"}`, unread},
		{"bob", b, `{"kind":"hire","slot":0,"discard":[999]}`, "is not in your hand"},
		{"bob", b, `{"kind":"pass"}`, noPass},
		{"bob", b, `{"kind":"pass","seat":0}`, noPass},
		{"bob", b, `null`, notMove},
		{"bob", b, `[{"kind":"take","slot":0}]`, notMove},
	}
	for _, r := range refusals {
		r.s.in.Write([]byte(r.line + "\n"))
		for l := range r.s.lines {
			if l.Version != 0 {
				t.Fatalf("%s's %s: a move was played: %s", r.who, r.line, l.raw)
			}
			if l.OK || l.Error != "" {
				if !strings.Contains(l.Error, r.want) {
					t.Errorf("%s's %s: %+v; want an error saying %q", r.who, r.line, l.Error, r.want)
				}
				break
			}
		}
	}

	// A terminal fed garbage while its window size goes wild.
	term, scr := ptySession(t, bob, "watch "+code, 100, 30)
	scr.waitFor(t, "watching")
	for _, junk := range []string{"\x00\x01\x02\x7f", "\x1b[999;999H\x1b]0;pwned\x07", "\xff\xfe\xc3\x28", "\x1b[M\xff\xff\xff", "\x1b[<0;99999;99999M", strings.Repeat("\x1b", 100)} {
		scr.in.Write([]byte(junk))
	}
	// The escapes' note says the junk was read: a resize measured before it
	// would count the note's frame as the resize's.
	scr.waitFor(t, "nothing to close")
	for _, tt := range []struct {
		w, h int
		want func(frame []string) bool
	}{
		// Nothing fits: the notice, whole, for a terminal to cut.
		{0, 0, func(f []string) bool { return strings.Join(f, "") == "make the window at least 80x24" }},
		// One cell: the notice cut to it, with the mark of a cut.
		{1, 1, func(f []string) bool { return len(f) == 1 && f[0] == "…" }},
		{30, 10, func(f []string) bool {
			j := strings.Join(f, "\n")
			return len(f) == 10 && strings.Contains(j, "make the window") && strings.Contains(j, "(it is 30x10)") && maxWidth(f) == 30
		}},
		// Drawn at 512x256, not 10000x10000.
		{10000, 10000, func(f []string) bool { return len(f) == maxRows && maxWidth(f) == maxCols }},
		{80, 24, func(f []string) bool {
			return len(f) == 24 && maxWidth(f) == 80 && strings.Contains(f[0], "room "+code)
		}},
	} {
		from := len(scr.raw())
		if err := term.WindowChange(tt.h, tt.w); err != nil {
			t.Fatal(err)
		}
		if f := drawnAfter(t, scr, from); !tt.want(f) {
			t.Errorf("at %dx%d the terminal drew %d lines, %d wide:\n%.2000s", tt.w, tt.h, len(f), maxWidth(f), strings.Join(f, "\n"))
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

	// The game goes on: bob plays, then both seats play it through.
	var view factories.View
	if err := json.Unmarshal(lb.View, &view); err != nil {
		t.Fatal(err)
	}
	choose, err := bot.New("greedy", 1)
	if err != nil {
		t.Fatal(err)
	}
	b.send(t, choose.Choose(view))
	if l := b.answer(t); !l.OK || l.Version != 1 {
		t.Fatalf("bob's legal move after the bad ones: %+v", l)
	}
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

// drawnAfter waits for a terminal to draw past from (a length of its raw
// output) and then go quiet, and returns the lines it drew since, escapes
// removed. A resize redraws the whole screen, each line but the last
// ending in CR LF. Quiet is 300ms without output: nothing else marks a
// frame's end in what the client receives, and a frame cut short would
// leave its tail to the next one's lines. (Waiting until the lines looked
// as wanted did just that on one CPU: the 512x256 frame's last rows came
// after the mark for the next size.) Nothing else may draw meanwhile.
func drawnAfter(t *testing.T, scr *screen, from int) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	last, quiet := from, time.Now()
	for {
		n := len(scr.raw())
		switch {
		case n != last:
			last, quiet = n, time.Now()
		case n > from && time.Since(quiet) > 300*time.Millisecond:
			lines := strings.Split(ansi.Strip(scr.raw()[from:]), "\n")
			for i, l := range lines {
				lines[i] = strings.ReplaceAll(l, "\r", "")
			}
			return lines
		case time.Now().After(deadline):
			t.Fatalf("the terminal drew nothing after a resize; it shows:\n%s", scr.text())
		}
		time.Sleep(20 * time.Millisecond) // the poll's pace
	}
}

// maxWidth is the widest of lines, in terminal cells.
func maxWidth(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	return w
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
			// than the 2 MB the channel's window holds. A storm of sizes
			// is drawn once (resizeEvery): these come apart.
			for i := range 24 {
				muteTerm.WindowChange(200+i%2*56, 400+i%2*112)
				time.Sleep(resizeEvery + 10*time.Millisecond)
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
