package lobby

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// faultRig is two instances over one Redis setup, playing games one
// after another until told to stop.
type faultRig struct {
	t      *testing.T
	url    string
	opts   redisstore.Options
	l      *ledger
	a, b   *instance
	ids    atomic.Int64
	mu     sync.Mutex
	tables []*faultTable
}

func newFaultRig(t *testing.T, url string, o redisstore.Options) *faultRig {
	l := newLedger()
	return &faultRig{t: t, url: url, opts: o, l: l, a: newLedgerInstance(t, url, o, l), b: newLedgerInstance(t, url, o, l)}
}

// run plays games until stop closes (finishing the one under way).
func (f *faultRig) run(ctx context.Context, stop <-chan struct{}, pace time.Duration) error {
	for seed := uint64(1); ; seed++ {
		select {
		case <-stop:
			return nil
		default:
		}
		tb, err := f.sit(ctx, seed)
		if err != nil {
			return err
		}
		errs := make([]error, len(tb.seats))
		var wg sync.WaitGroup
		for i, m := range tb.seats {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = m.play(ctx, pace) }()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return fmt.Errorf("room %s: %w", tb.code, err)
		}
	}
}

// sit makes a room on a and seats alice there and bob on b, trying again
// while the service is away.
func (f *faultRig) sit(ctx context.Context, seed uint64) (*faultTable, error) {
	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	var meta store.Meta
	var ca, cb *Conn
	deadline := time.Now().Add(30 * time.Second)
	var err error
	var wa, wb *Conn
	for wb == nil {
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no table within 30s: %w", err)
		}
		switch {
		case meta.Code == "":
			meta, err = f.a.lobby.Create(ctx, alice, CreateOptions{Seats: 2, Seed: seed, HasSeed: true})
		case ca == nil:
			ca, err = f.a.lobby.Join(ctx, meta.Code, alice)
		case cb == nil:
			cb, err = f.b.lobby.Join(ctx, meta.Invite(), bob)
		case wa == nil:
			wa, err = f.a.lobby.Watch(ctx, meta.Invite(), Player{ID: "key:watcher"})
		default:
			wb, err = f.b.lobby.Watch(ctx, meta.Invite(), Player{ID: "key:watcher"})
		}
		if err != nil {
			time.Sleep(100 * time.Millisecond) // the service is away
		}
	}
	tb := &faultTable{code: meta.Code, seats: make([]*mover, 2), watchers: []*watcher{watch(wa), watch(wb)}}
	tb.seats[ca.Seat()] = &mover{s: &session{name: "alice@a", c: ca}, player: alice, ids: &f.ids}
	tb.seats[cb.Seat()] = &mover{s: &session{name: "bob@b", c: cb}, player: bob, ids: &f.ids}
	f.mu.Lock()
	f.tables = append(f.tables, tb)
	f.mu.Unlock()
	return tb, nil
}

// check holds every room's stored log to what its players were told: each
// confirmed move is where it was confirmed, no move of a player's is in
// the log twice, and each seat's last view is the game as the log
// replays it, here and on a fresh instance.
func (f *faultRig) check(ctx context.Context) (moves int) {
	t := f.t
	t.Helper()
	fresh := newLedgerInstance(t, f.url, f.opts, newLedger())
	stored := map[string]int{} // a record as JSON → times in some log
	for _, tb := range f.tables {
		_, log, err := f.a.store.Load(ctx, tb.code, 0)
		if err != nil {
			t.Fatal(err)
		}
		moves += len(log)
		for at, r := range f.l.acked[tb.code] {
			if at >= len(log) || !sameRecord(log[at], r) {
				t.Errorf("room %s: confirmed move %d (%s by seat %d) is not in the log", tb.code, at, r.Move, r.Seat)
			}
		}
		for _, r := range log {
			stored[recordKey(r)]++
		}
		for _, m := range tb.seats {
			u, err := m.s.await(10*time.Second, func(u Update) bool { return u.Version == len(log) && u.Notice == "" })
			if err != nil {
				t.Fatalf("room %s: %v (the log holds %d moves; a notice should be gone)", tb.code, err, len(log))
			}
			c, err := fresh.lobby.Join(ctx, tb.code, m.player)
			if err != nil {
				t.Fatal(err)
			}
			again := &session{name: m.s.name + " again", c: c}
			if w, err := again.await(10*time.Second, atVersion(len(log))); err != nil || string(w.View) != string(u.View) {
				t.Errorf("room %s: %s last saw %s, the log replays to %s (%v)", tb.code, m.s.name, u.View, w.View, err)
			}
			c.Close()
		}
	}
	for id, tries := range f.l.tries {
		n := 0
		for _, r := range tries {
			n += stored[recordKey(r)]
		}
		if n > 1 {
			t.Errorf("move call %d is in the logs %d times", id, n)
		}
	}
	return moves
}

func recordKey(r store.Record) string {
	return fmt.Sprintf("%d %s %s %s", r.Seat, r.Move, r.At.Format(time.RFC3339Nano), r.Bot)
}

func sameRecord(a, b store.Record) bool { return recordKey(a) == recordKey(b) }

// refusals sums what the movers were told.
func (f *faultRig) refusals() (told, refused, unconfirmed int) {
	for _, tb := range f.tables {
		for _, m := range tb.seats {
			if m.told.Load() {
				told++
			}
			refused += m.refused
			unconfirmed += m.unconfirmed
		}
	}
	return
}

// flowing waits until n more moves are confirmed.
func (f *faultRig) flowing(t *testing.T, done <-chan error, n int) {
	t.Helper()
	from, _ := f.l.confirmed(time.Now())
	deadline := time.Now().Add(30 * time.Second)
	for {
		if got, _ := f.l.confirmed(time.Now()); got >= from+n {
			return
		}
		select {
		case err := <-done:
			t.Fatalf("the games stopped: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d moves confirmed within 30s", n)
		}
		time.Sleep(10 * time.Millisecond) // polling the ledger
	}
}

// confirmedAfter waits for the first move sent after t0 to be confirmed;
// describe tells what the Redis setup looks like if none is.
func (f *faultRig) confirmedAfter(t *testing.T, done <-chan error, t0 time.Time, within time.Duration, describe func() string) time.Time {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if _, at := f.l.confirmed(t0); !at.IsZero() {
			return at
		}
		select {
		case err := <-done:
			t.Fatalf("the games stopped: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no move confirmed within %s of the kill:\n%s%s", within, describe(), f.describe())
		}
		time.Sleep(10 * time.Millisecond) // polling the ledger
	}
}

// describe says how far each instance's room of the table being played
// is, and the store's, for a test's failure message.
func (f *faultRig) describe() string {
	tb := f.current()
	meta, _, err := f.a.store.Load(context.Background(), tb.code, 0)
	text := fmt.Sprintf("room %s: the store holds %d moves (%v)\n", tb.code, meta.Moves, err)
	for i, in := range []*instance{f.a, f.b} {
		r := in.lobby.cached(tb.code)
		if r == nil {
			text += fmt.Sprintf("instance %c: room not loaded\n", 'a'+i)
			continue
		}
		moves, notice := r.Shown()
		text += fmt.Sprintf("instance %c: %d moves, notice %q\n", 'a'+i, moves, notice)
	}
	return text
}

// current is the table being played now.
func (f *faultRig) current() *faultTable {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.tables[len(f.tables)-1]
}

// TestRedisPaused: Redis stops answering (SIGSTOP) while two instances
