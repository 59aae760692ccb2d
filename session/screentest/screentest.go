// Package screentest draws a session's screens in tests, for the generic
// screens and every game's: golden frames at a terminal's size, keys as
// Bubble Tea reads them, and clocks that never show real time.
package screentest

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

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
func GoldenThen(t *testing.T, cfg session.Config, w, h int, codes []string, wait string, keys []string, then string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.Context, cfg.Theme, cfg.Now, cfg.Width, cfg.Height = ctx, "mono", FixedNow, w, h
	tm := teatest.NewTestModel(t, session.New(cfg), teatest.WithInitialTermSize(w, h))
	waitFor := func(s string) {
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
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
	out := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
	for i, c := range codes {
		out = strings.ReplaceAll(out, c, fmt.Sprintf("ROOM%02d", i+1))
	}
	golden.RequireEqual(t, []byte(out))
}
