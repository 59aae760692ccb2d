package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/waittest"
	"github.com/smokestack/smokestack/lobby/store"
)

// missWindows holds miss counts to the same behaviour:
// counted per name, in a window the first miss opens and later ones do
// not stretch, back to zero when it ends.
func missWindows(t *testing.T, c store.Misses) {
	ctx := context.Background()
	// Unique names, as a shared Redis may hold others' counts.
	name, other := "addr:"+newCode(), "key:"+newCode()
	// The window is long beside the 600ms a test waits in it, and the
	// times are compared within a slack, so a loaded machine's late
	// answers pass: a sliding window would move its end by the 600ms.
	const window, slack = 3 * time.Second, 250 * time.Millisecond
	start := time.Now()
	miss := func(want int) time.Time {
		t.Helper()
		n, ends, err := c.Miss(ctx, name, time.Now(), window)
		if err != nil || n != want {
			t.Fatalf("miss: %d, %v; want %d", n, err, want)
		}
		return ends
	}
	first := miss(1)
	if first.Before(start.Add(window-slack)) || first.After(time.Now().Add(window+slack)) {
		t.Errorf("the window ends %s after the first miss, want %s", first.Sub(start), window)
	}
	miss(2)
	// Time passes on purpose, not waiting for anything: a miss well into
	// the window must not move its end, as a sliding window would.
	time.Sleep(600 * time.Millisecond)
	if ends := miss(3); ends.Sub(first).Abs() > slack {
		t.Errorf("a later miss moved the window's end by %s", ends.Sub(first))
	}
	if n, ends, err := c.Misses(ctx, name, time.Now()); err != nil || n != 3 || ends.Sub(first).Abs() > slack {
		t.Errorf("misses: %d ending %s after the first's end, %v; want 3 at its end", n, ends.Sub(first), err)
	}
	if n, _, err := c.Misses(ctx, other, time.Now()); err != nil || n != 0 {
		t.Errorf("another name's misses: %d, %v", n, err)
	}
	// The window ends by the store's clock (Redis's own key expiry), which
	// began a moment after first was worked out: wait for its end.
	waittest.Until(t, "the window ends", func() bool {
		n, _, err := c.Misses(ctx, name, time.Now())
		return err == nil && n == 0
	})
	if early := time.Until(first); early > slack {
		t.Errorf("the window ended %s before its end", early)
	}
	miss(1) // a new window
}

// missTurns holds turns to the same behaviour: a
// name's turns follow each other, each its wait after the one before,
// and another name's do not queue behind them.
func missTurns(t *testing.T, c store.Misses) {
	ctx := context.Background()
	name, other := "addr:"+newCode(), "key:"+newCode()
	// turn reserves name's next turn and checks that it comes atMost
	// after now, less what passed since the turn before it was reserved
	// (at most the time since mark, and a millisecond of rounding).
	turn := func(name string, wait, atMost time.Duration, mark time.Time) {
		t.Helper()
		d, err := c.Turn(ctx, name, time.Now(), wait)
		if least := atMost - time.Since(mark) - time.Millisecond; err != nil || d > atMost || d < least {
			t.Fatalf("turn: %s, %v; want %s at most, %s at least", d, err, atMost, least)
		}
	}
	mark := time.Now()
	turn(name, 200*time.Millisecond, 200*time.Millisecond, mark)
	turn(name, 100*time.Millisecond, 300*time.Millisecond, mark)
	turn(other, 50*time.Millisecond, 50*time.Millisecond, time.Now())
}
