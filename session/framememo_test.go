package session_test

import (
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/session"
)

// TestHeaderClockCountsDown: the header is kept from frame to frame, but
// not past the turn's clock: a second later the frame shows the new time.
func TestHeaderClockCountsDown(t *testing.T) {
	now := fixedNow()
	l, _, code, _ := awayTable(t, now.Add(-time.Minute), now.Add(-time.Minute))
	at := &setClock{t: now}
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Now: at.Now,
		Start: session.Start{Mode: "join", Code: code}})
	d.inGame()
	d.until("the clock", d.screenContains("⏱ carol 4:00"))
	at.set(now.Add(time.Second))
	if v := d.view(); !strings.Contains(v, "⏱ carol 3:59") {
		t.Fatalf("a second on, the header still reads:\n%s", strings.SplitN(v, "\n", 2)[0])
	}
}
