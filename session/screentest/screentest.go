// Package screentest draws a session's screens in tests, for the generic
// screens and every game's: golden frames at a terminal's size, keys as
// Bubble Tea reads them, and clocks that never show real time.
package screentest

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session"
)

// Clock is a deterministic clock for a lobby: each reading is one second
// later than the one before, so rooms sort the same way on every run.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock whose first reading is a second after start.
func NewClock(start time.Time) *Clock { return &Clock{t: start} }

// Now reads the clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

// FixedNow is a session's clock in tests: output never shows real time.
func FixedNow() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) }

// KeyMsg turns a key name as Bubble Tea prints it ("enter", "right", "i")
// into a key message.
func KeyMsg(k string) tea.KeyMsg {
	special := map[string]tea.KeyType{"enter": tea.KeyEnter, "up": tea.KeyUp, "down": tea.KeyDown,
		"left": tea.KeyLeft, "right": tea.KeyRight, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
		"esc": tea.KeyEsc, "backspace": tea.KeyBackspace, "ctrl+c": tea.KeyCtrlC, " ": tea.KeySpace,
		"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown}
	if t, ok := special[k]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// Golden runs cfg's session at w×h in the mono theme and the fixed clock
// until its output shows wait, presses keys, and compares the final frame
// with testdata/<test name>.golden, each of codes (rooms' random codes)
// written ROOM01, ROOM02… Run the test with -update to rewrite the file
// after a deliberate change, and read the diff.
func Golden(t *testing.T, cfg session.Config, w, h int, codes []string, wait string, keys ...string) {
	t.Helper()
	GoldenThen(t, cfg, w, h, codes, wait, keys, "")
}

// GoldenThen is Golden that, after the keys, also waits until the output
// shows then (when not empty): for what a key starts and a message
// finishes.
//
// A screen drawn in English is drawn again in lang.Pseudo, the same keys
// pressed, and must show no word the catalogues did not word (Pseudo).
func GoldenThen(t *testing.T, cfg session.Config, w, h int, codes []string, wait string, keys []string, then string) {
	t.Helper()
	out := frame(t, cfg, w, h, wait, keys, then)
	for i, c := range codes {
		out = strings.ReplaceAll(out, c, fmt.Sprintf("ROOM%02d", i+1))
	}
	golden.RequireEqual(t, []byte(out))
	if cfg.Lang == lang.English || cfg.Lang == "" {
		cfg.Lang = lang.Pseudo
		Pseudo(t, frame(t, cfg, w, h, wait, keys, then), codes...)
	}
}

// frame runs cfg's session at w×h in the mono theme and the fixed clock
// until its output shows wait (or, in lang.Pseudo, wait accented),
// presses keys, waits for then, and returns the final frame.
func frame(t *testing.T, cfg session.Config, w, h int, wait string, keys []string, then string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.Context, cfg.Theme, cfg.Now, cfg.Width, cfg.Height = ctx, "mono", FixedNow, w, h
	tm := teatest.NewTestModel(t, session.New(cfg), teatest.WithInitialTermSize(w, h))
	waitFor := func(s string) {
		accented := []byte(lang.Accent(strings.TrimSpace(s))) // a message ends in ⟧
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			return bytes.Contains(b, []byte(s)) || cfg.Lang == lang.Pseudo && bytes.Contains(b, accented)
		},
			teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	waitFor(wait)
	for _, k := range keys {
		tm.Send(KeyMsg(k))
	}
	if then != "" {
		waitFor(then)
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
}

// Allowed are the words of ASCII letters a screen in lang.Pseudo may show
// that no catalogue words: what players type and name (key caps, the
// tests' players' names, bots' kinds and commands as a command line takes
// them), the server's name and the tests' host. A key cap of one letter
// is allowed whatever its letter.
var Allowed = []string{"enter", "esc", "tab", "space", "backspace", "pgup", "pgdn", "pgdown", "home", "end", "shift", "ctrl",
	"alice", "bob", "carol", "dave", "dan", "eve", "ann", "cat", "ben", "greedy", "random", "smokestack",
	"ssh", "join", "watch", "replay", "play", "games", "example", "org", "localhost"}

// cardID is a card's id as a game's screens may show it beside its name
// ("mine-08").
var cardID = regexp.MustCompile(`^[a-z]+-[0-9]+$`)

// said are the words players typed in a test's chat, by the test's name
// (Said).
var said sync.Map // test name -> []string

// Said tells the lang.Pseudo check of t and its subtests what players
// wrote in chat: its words show as they were typed, in any language.
func Said(t *testing.T, texts ...string) {
	var words []string
	if w, ok := said.Load(t.Name()); ok {
		words = w.([]string)
	}
	for _, s := range texts {
		words = append(words, lang.Unlocalized(s)...)
	}
	said.Store(t.Name(), words)
	t.Cleanup(func() { said.Delete(t.Name()) })
}

// saidIn are the words Said for t or a test it runs under.
func saidIn(t *testing.T) []string {
	var words []string
	for name := t.Name(); name != ""; {
		if w, ok := said.Load(name); ok {
			words = append(words, w.([]string)...)
		}
		i := strings.LastIndex(name, "/")
		if i < 0 {
			break
		}
		name = name[:i]
	}
	return words
}

// Pseudo fails t for each line of frame, drawn in lang.Pseudo, that shows
// a word of ASCII letters (lang.Unlocalized) other than Allowed, a card's
// id, what players Said and allowed: text built in code that no catalogue
// words.
func Pseudo(t *testing.T, frame string, allowed ...string) {
	t.Helper()
	for _, a := range append(allowed, saidIn(t)...) {
		allowed = append(allowed, lang.Unlocalized(a)...) // "Português" shows "Portugu"
	}
	for i, line := range strings.Split(frame, "\n") {
		var bad []string
		for _, w := range lang.Unlocalized(line) {
			if !allowedWord(w, allowed) && !(strings.Contains(line, w+"…") && allowedCut(w, allowed)) {
				bad = append(bad, w)
			}
		}
		if len(bad) > 0 {
			t.Errorf("line %d shows %q, which no catalogue words:\n%s", i+1, bad, line)
		}
	}
}

// allowedWord reports whether w may show in lang.Pseudo: Allowed, in
// allowed, a card's id, or made of such parts (a host name, an invite's
// code and secret, the key cap S-tab).
func allowedWord(w string, allowed []string) bool {
	known := func(w string) bool { return len(w) < 2 || slices.Contains(Allowed, w) || slices.Contains(allowed, w) }
	if known(w) || cardID.MatchString(w) {
		return true
	}
	parts := strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '.' })
	return len(parts) > 1 && !slices.ContainsFunc(parts, func(p string) bool { return !known(p) })
}

// allowedCut reports whether w, cut short, begins an allowed word.
func allowedCut(w string, allowed []string) bool {
	for _, a := range slices.Concat(Allowed, allowed) {
		if strings.HasPrefix(a, w) {
			return true
		}
	}
	return false
}
