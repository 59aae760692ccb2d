package room

import (
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// TestSeatVotes: the votes part alone, on a table of three where cal
// left. Votes open a grace period after he left; each present player's
// vote counts once, for this absence only; the table's last vote hands
// his seat over, and without votes it goes a second grace period after
// they opened. While the host is away the first present player has the
// host's powers.
func TestSeatVotes(t *testing.T) {
	t0 := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	m := store.Meta{Host: ann.ID, Started: true, Grace: time.Minute,
		Seats: []store.Seat{{Player: ann.ID, Name: "ann"}, {Player: ben.ID, Name: "ben"}, {Player: cal.ID, Name: "cal"}}}
	seen := presence{started: t0}
	for seat := range 3 {
		seen.arrive(seat)
	}
	seen.leave(2, t0)
	v := seatVotes{meta: &m, seen: &seen, bot: "first"}
	if _, err := v.check(ann, 0, "Tally"); err == nil {
		t.Fatal("ann voted on her own seat")
	}
	if _, err := (seatVotes{meta: &m, seen: &seen}).check(ann, 2, "Tally"); err == nil || !strings.Contains(err.Error(), "no bots") {
		t.Fatalf("a vote in a game without bots: %v", err)
	}
	voter, err := v.check(ann, 2, "Tally")
	if err != nil || voter != 0 {
		t.Fatalf("ann's vote checked: %d, %v", voter, err)
	}
	if _, _, err := v.cast(0, 1, t0.Add(time.Hour)); err == nil || !strings.Contains(err.Error(), "ben is still playing") {
		t.Fatalf("a vote on ben, at the table: %v", err)
	}
	if _, _, err := v.cast(0, 2, t0.Add(30*time.Second)); err == nil || !strings.Contains(err.Error(), "in 0:30") {
		t.Fatalf("a vote inside the grace period: %v", err)
	}
	if at, ok := v.handoverAt(2); !ok || !at.Equal(t0.Add(2*time.Minute)) {
		t.Fatalf("without votes the handover is at %v, %v", at, ok)
	}
	opened := t0.Add(time.Minute)
	m1, res, err := v.cast(0, 2, opened)
	if err != nil || res.HandedOver || res.Votes != 1 || res.Needed != 2 {
		t.Fatalf("ann's vote: %+v, %v", res, err)
	}
	m = m1
	if m2, res, _ := v.cast(0, 2, opened); res.Votes != 1 || len(m2.Votes) != 1 {
		t.Fatalf("ann voting twice counts %d votes, stores %v", res.Votes, m2.Votes)
	}
	m2, res, err := v.cast(1, 2, opened)
	if err != nil || !res.HandedOver || m2.Seats[2].Bot != "first" || len(m2.Votes) != 0 {
		t.Fatalf("ben's vote completing the table's: %+v, seats %+v, votes %v, %v", res, m2.Seats, m2.Votes, err)
	}
	m.Votes = append(m.Votes, store.Vote{Seat: 2, By: 1, Away: t0}) // stored, not yet handed over
	if at, ok := v.handoverAt(2); !ok || !at.Equal(opened) {
		t.Fatalf("with every vote in, the handover is at %v, %v", at, ok)
	}
	// Cal comes back and leaves again: ann's vote was for his last absence.
	seen.arrive(2)
	if v.awayPerson(2) || !v.stale(m.Votes[0]) {
		t.Fatal("with cal back, his seat is still away, or ann's vote stands")
	}
	seen.leave(2, t0.Add(2*time.Minute))
	if votes, needed := v.tally(&m, 2); votes != 0 || needed != 2 {
		t.Fatalf("after cal's second absence the tally is %d of %d", votes, needed)
	}
	if at, seat := v.next(false); seat >= 0 {
		t.Fatalf("an instance nobody watches the room through hands seat %d over at %v", seat, at)
	}
	if s := v.standIn(false); s != -1 {
		t.Fatalf("with ann, the host, here, seat %d has her powers", s)
	}
	seen.leave(0, t0)
	if s := v.standIn(false); s != 1 {
		t.Fatalf("with ann away, seat %d has her powers, want ben's", s)
	}
}
