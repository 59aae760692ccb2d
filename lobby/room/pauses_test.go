package room

import (
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// TestPausesAfter: a span of running time is pushed back by the
// downtimes within it, and ends no sooner than the reconnect window
// after one.
func TestPausesAfter(t *testing.T) {
	t0 := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	p := &Pauses{window: time.Minute, known: make(chan struct{}), down: []store.Downtime{
		{From: t0.Add(-time.Hour), To: t0.Add(-50 * time.Minute)},
		{From: t0.Add(30 * time.Second), To: t0.Add(10 * time.Minute)},
		{From: t0.Add(2 * time.Hour), To: t0.Add(3 * time.Hour)},
	}}
	for _, c := range []struct {
		since time.Time
		d     time.Duration
		want  time.Time
	}{
		{t0, 20 * time.Second, t0.Add(20 * time.Second)},                  // over before the downtime
		{t0, 5 * time.Minute, t0.Add(14*time.Minute + 30*time.Second)},    // 4m30s left after it
		{t0, 40 * time.Second, t0.Add(11 * time.Minute)},                  // 10 s left: the window
		{t0.Add(time.Minute), time.Minute, t0.Add(11 * time.Minute)},      // began while down
		{t0.Add(20 * time.Minute), time.Minute, t0.Add(21 * time.Minute)}, // after it
	} {
		if got := p.after(c.since, c.d); !got.Equal(c.want) {
			t.Errorf("%v after %v: %v, want %v", c.d, c.since.Sub(t0), got.Sub(t0), c.want.Sub(t0))
		}
	}
}

// TestGraceStandsStillWhileDown: cal left 30 s into a 1-minute grace
// period, then the service was down ten minutes: the votes open a
// reconnect window after the restart, not at once, and a vote before
// then says how long is left.
func TestGraceStandsStillWhileDown(t *testing.T) {
	t0 := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	m := store.Meta{Host: ann.ID, Started: true, Grace: time.Minute,
		Seats: []store.Seat{{Player: ann.ID, Name: "ann"}, {Player: ben.ID, Name: "ben"}, {Player: cal.ID, Name: "cal"}}}
	seen := presence{started: t0}
	for seat := range 3 {
		seen.arrive(seat)
	}
	seen.leave(2, t0)
	run := &Pauses{window: time.Minute, down: []store.Downtime{{From: t0.Add(30 * time.Second), To: t0.Add(10 * time.Minute)}}}
	v := seatVotes{meta: &m, seen: &seen, bot: "first", run: run}
	info := RoomInfo{Seats: []SeatInfo{{}, {}, {AwaySince: t0}}}
	v.addTo(&info, false)
	if s := info.Seats[2]; !s.VotesFrom.Equal(t0.Add(11*time.Minute)) || !s.BotAt.Equal(t0.Add(11*time.Minute+30*time.Second)) {
		t.Fatalf("cal's votes open at +%v and the bot comes at +%v; want +11m and +11m30s", s.VotesFrom.Sub(t0), s.BotAt.Sub(t0))
	}
	if _, _, err := v.cast(0, 2, t0.Add(10*time.Minute+20*time.Second)); err == nil || !strings.Contains(err.Error(), "in 0:40") {
		t.Fatalf("a vote 20 s after the restart: %v", err)
	}
	if at, _ := v.handoverAt(2); !at.Equal(t0.Add(11*time.Minute + 30*time.Second)) {
		t.Fatalf("cal's seat goes to the bot at +%v", at.Sub(t0))
	}
}
