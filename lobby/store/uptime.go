package store

import (
	"context"
	"time"
)

// Uptime keeps when the game service ran, so that the time it was down
// is nobody's: turn clocks and grace periods stand still through it
// (lobby/pauses.go). Every running instance says it is alive every few
// seconds; a gap longer than that since anyone last did is a downtime,
// however the service stopped (a clean shutdown, a killed process, a
// machine gone), and one store shared by instances keeps one account
// they all read.
type Uptime interface {
	// Alive records that an instance is running at now and returns the
	// service's downtimes, oldest first (the newest MaxDowntimes). When
	// nobody said so for longer than stale before now, the gap since the
	// last time anyone did is recorded as a downtime first.
	Alive(ctx context.Context, now time.Time, stale time.Duration) ([]Downtime, error)
}

// MaxDowntimes is how many downtimes a store keeps: a turn or a grace
// period lasts a day at most, so older ones matter to nobody.
const MaxDowntimes = 64

// Downtime is a time no instance of the service was running.
type Downtime struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// Alive is the account Uptime keeps, for the drivers: the last time an
// instance said it was alive, and the downtimes before it.
type Alive struct {
	Last time.Time  `json:"last,omitzero"`
	Down []Downtime `json:"down,omitempty"`
}

// Note takes in an instance alive at now, recording a downtime when
// nobody was for longer than stale.
func (a *Alive) Note(now time.Time, stale time.Duration) {
	now = now.UTC().Truncate(time.Millisecond)
	if !a.Last.IsZero() && now.Sub(a.Last) > stale {
		a.Down = append(a.Down, Downtime{From: a.Last, To: now})
		if over := len(a.Down) - MaxDowntimes; over > 0 {
			a.Down = append([]Downtime(nil), a.Down[over:]...)
		}
	}
	if now.After(a.Last) {
		a.Last = now
	}
}
