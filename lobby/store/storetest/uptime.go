package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// uptime holds the store's account of the service's uptime to the
// contract: saying alive within stale records nothing, a longer gap is a
// downtime from the last time anyone said so to now, and an instance
// whose clock is behind takes nothing back. It reads only what it adds,
// as a shared Redis may hold downtimes from before.
func uptime(t *testing.T, s store.Uptime) {
	ctx := context.Background()
	base := time.Now().UTC().Truncate(time.Millisecond).Add(time.Hour)
	alive := func(at time.Duration) []store.Downtime {
		t.Helper()
		down, err := s.Alive(ctx, base.Add(at), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return down
	}
	before := len(alive(0))
	if n := len(alive(3 * time.Second)); n != before {
		t.Fatalf("alive 3s later with 5s to go stale: %d downtimes, want %d", n, before)
	}
	if n := len(alive(2 * time.Second)); n != before {
		t.Fatalf("an instance whose clock is behind: %d downtimes, want %d", n, before)
	}
	down := alive(time.Minute)
	want := store.Downtime{From: base.Add(3 * time.Second), To: base.Add(time.Minute)}
	if len(down) != before+1 || !down[len(down)-1].From.Equal(want.From) || !down[len(down)-1].To.Equal(want.To) {
		t.Fatalf("alive after a minute's silence: %v, want %v at the end", down, want)
	}
	if n := len(alive(time.Minute + time.Second)); n != before+1 {
		t.Fatalf("alive again: %d downtimes, want %d", n, before+1)
	}
	for i := range store.MaxDowntimes + 2 {
		alive(time.Duration(i+2) * time.Hour)
	}
	if n := len(alive(100 * time.Hour)); n != store.MaxDowntimes {
		t.Fatalf("after many downtimes %d are kept, want the newest %d", n, store.MaxDowntimes)
	}
}
