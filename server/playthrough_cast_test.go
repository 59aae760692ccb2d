package server

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// cast is an asciicast v2 recording, read as its format says: a header
// line, then one event a line, [seconds, code, data].
type cast struct {
	Version, Width, Height int
	Title                  string
	times                  []float64
	frames                 []string // the output events' data
}

func parseCast(t *testing.T, text string) cast {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<22)
	if !sc.Scan() {
		t.Fatalf("an empty recording: %q", text)
	}
	var c cast
	if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
		t.Fatalf("the header %q: %v", sc.Text(), err)
	}
	for sc.Scan() {
		var ev []any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || len(ev) != 3 {
			t.Fatalf("an event %q: %v", sc.Text(), err)
		}
		at, ok1 := ev[0].(float64)
		code, ok2 := ev[1].(string)
		data, ok3 := ev[2].(string)
		if !ok1 || !ok2 || !ok3 || code != "o" {
			t.Fatalf("an event that is no output event: %q", sc.Text())
		}
		if n := len(c.times); n > 0 && at < c.times[n-1] {
			t.Fatalf("event %d goes back in time: %v after %v", n, at, c.times[n-1])
		}
		c.times, c.frames = append(c.times, at), append(c.frames, data)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return c
}

// screens are what the recording shows after each of its output events,
// played on a terminal of its size.
func (c cast) screens() []string {
	term := vt.NewSafeEmulator(c.Width, c.Height)
	out := make([]string, len(c.frames))
	for i, data := range c.frames {
		_, _ = term.Write([]byte(data))
		out[i] = ansi.Strip(term.Render())
	}
	return out
}

// anyShows reports whether any of screens shows want.
func anyShows(screens []string, want string) bool {
	return slices.ContainsFunc(screens, func(s string) bool { return strings.Contains(s, want) })
}

// asciinemaCat plays the recording through asciinema's own reader
// (`asciinema cat`, Debian's asciinema, which CI installs), and returns
// what it wrote to the terminal. asciinema 2 reads its keys from
// /dev/tty even to cat, so it runs on a terminal of its own (script(1)),
// which it sets raw: what it writes comes through untouched.
func asciinemaCat(t *testing.T, text string) string {
	t.Helper()
	bin, err := exec.LookPath("asciinema")
	if err == nil {
		_, err = exec.LookPath("script")
	}
	if err != nil {
		msg := "asciinema or script not found in PATH: the recording is NOT checked by asciinema's own reader (apt-get install asciinema)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Log(msg)
		return ""
	}
	file := filepath.Join(t.TempDir(), "game.cast")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("script", "-qec", bin+" cat "+file, "/dev/null").Output()
	if err != nil {
		t.Fatalf("asciinema cat refuses the recording: %v\n%s", err, out)
	}
	return string(out)
}

// TestPlayThroughReplayCast: alice and bob play a game of Fantastic
// Factories to its end; alice records its replay with `replay CODE
// --cast`, with no terminal, to share it. The recording is an asciicast
// v2 stream asciinema reads, at 100x30, a move a second, and each frame
// is exactly what her replay screen shows at that move, her own hand
// included; bob's shows his, and carol's, who held no seat, no hand; bob
// reads his in Polish.
func TestPlayThroughReplayCast(t *testing.T) {
	srv := startServer(t)
	aliceKey := newKey(t)
	ac, bc := dialKey(t, srv.addr, "alice", aliceKey), dialKey(t, srv.addr, "bob", newKey(t))
	code := newRoom(t, ac, "--players 2")
	if r := run(t, ac, "replay "+code+" --cast", ""); r.status != 1 || !strings.Contains(r.stderr, "replays open once the game is over") {
		t.Errorf("the cast of a game not over: status %d, %q", r.status, r.stderr)
	}
	playGame(t, code, ac, bc)

	r := run(t, ac, "replay "+code+" --cast", "")
	if r.status != 0 {
		t.Fatalf("replay --cast: status %d, %s", r.status, r.stderr)
	}
	c := parseCast(t, r.stdout)
	if c.Version != 2 || c.Width != 100 || c.Height != 30 || !strings.Contains(c.Title, "Fantastic Factories") || !strings.Contains(c.Title, code) {
		t.Errorf("the header: %+v", c)
	}
	if len(c.frames) < 10 {
		t.Fatalf("%d events for a whole game", len(c.frames))
	}
	for i, at := range c.times {
		if at != float64(i) { // a move a second; the last frame stays a second
			t.Fatalf("event %d at %vs, want %ds", i, at, i)
		}
	}
	if played := asciinemaCat(t, r.stdout); played != "" && played != strings.Join(c.frames, "") {
		t.Errorf("asciinema cat plays %d bytes, not the %d of the events", len(played), len(strings.Join(c.frames, "")))
	}
	screens := c.screens()
	for _, want := range []string{"replay " + code, "move 0 of", "hand (", "your seat, as you saw it", "GAME OVER"} {
		if !anyShows(screens, want) {
			t.Errorf("the recording never shows %q; its last frame:\n%s", want, screens[len(screens)-1])
		}
	}

	// Each frame is the replay screen's own, at that move.
	alice := &player{t: t, name: "alice", key: aliceKey, addr: srv.addr, w: 100, h: 30}
	alice.connect("replay " + code)
	for i := range 3 {
		want := screens[i]
		alice.waitScreen("the recording's frame "+string(rune('0'+i)), func(s string) bool { return s == want })
		alice.press("right")
	}

	// Hidden information: a seat sees its own hand, a spectator none.
	carol := dialKey(t, srv.addr, "carol", newKey(t))
	spectator := parseCast(t, run(t, carol, "replay "+code+" --cast --size 120x40 --pace 250ms", "").stdout)
	if spectator.Width != 120 || spectator.Height != 40 || spectator.times[1] != 0.25 {
		t.Errorf("--size 120x40 --pace 250ms: %dx%d, the second frame at %vs", spectator.Width, spectator.Height, spectator.times[1])
	}
	for i, s := range spectator.screens() {
		if strings.Contains(s, "hand (") || strings.Contains(s, "your seat") {
			t.Fatalf("the spectator's recording shows a hand at move %d:\n%s", i, s)
		}
	}
	polish := runEnv(t, bc, []string{"LANG=pl_PL.UTF-8"}, "replay "+code+" --cast")
	pc := parseCast(t, polish.stdout)
	bobs := pc.screens()
	if !strings.Contains(pc.Title, "powtórka") || !anyShows(bobs, "ręka (") || len(bobs) != len(screens) {
		t.Errorf("bob's recording in Polish, %q, %d frames:\n%s", pc.Title, len(bobs), bobs[len(bobs)/2])
	}
	// Each seat's area shows its own hand (lobby's
	// TestReplayFromTheViewersSeat holds the views to it, move by move).
	if aliceHand, bobHand := handLines(screens), handLines(bobs); len(aliceHand) == 0 || slices.Equal(aliceHand, bobHand) {
		t.Errorf("alice's recording shows the hands %q, bob's %q", aliceHand, bobHand)
	}

	for _, bad := range []string{"--size 60x20", "--size big", "--size 1000x1000", "--pace 0s", "--pace 2h", "--theme neon"} {
		r := run(t, ac, "replay "+code+" --cast "+bad, "")
		if r.status != 1 || !strings.Contains(r.stderr, "usage: replay") || r.stdout != "" {
			t.Errorf("replay --cast %s: status %d, stdout %d bytes, %q", bad, r.status, len(r.stdout), r.stderr)
		}
	}
}

// handLines are the lines of the seat's own hand ("hand (4) gear: Dojo")
// the screens show, in any language: the lines of the "you" area from the
// hand's head on.
func handLines(screens []string) []string {
	var out []string
	for _, s := range screens {
		for line := range strings.Lines(s) {
			if m := handHead.FindStringIndex(line); m != nil {
				out = append(out, strings.TrimSpace(line[m[0]:min(len(line), m[0]+60)]))
			}
		}
	}
	return out
}

var handHead = regexp.MustCompile(`(hand|ręka) \([0-9]+\)`)
