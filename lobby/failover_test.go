package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// The fault tests kill, stop and cut off real Redis servers under two
// lobby instances while moves flow, and then hold the stored logs to what
// the players were told. SMOKESTACK_FAULTS_LONG runs them at full length.
var faultsLong = os.Getenv("SMOKESTACK_FAULTS_LONG") != ""

// ledger is what the instances of a fault test told their rooms about
// moves: every move the store confirmed (the player's ok follows), and
// every record each of the players' moves tried to store.
type ledger struct {
	mu    sync.Mutex
	acked map[string]map[int]store.Record // code → index → record
	tries map[int64][]store.Record        // a Move call → what it tried
	// confirms are the moves confirmed, in order: when each was sent to
	// the store and when it was confirmed.
	confirms []confirm
}

type confirm struct{ sent, done time.Time }

func newLedger() *ledger {
	return &ledger{acked: map[string]map[int]store.Record{}, tries: map[int64][]store.Record{}}
}

// moveID is the context key that tells the ledger which Move call an
// Append belongs to.
type moveID struct{}

// ledgerStore is an instance's store, writing its moves in the ledger.
type ledgerStore struct {
	*redisstore.Store
	l *ledger
}

func (s ledgerStore) Append(ctx context.Context, code string, at int, r store.Record, st engine.Status) error {
	id, _ := ctx.Value(moveID{}).(int64)
	s.l.mu.Lock()
	s.l.tries[id] = append(s.l.tries[id], r)
	s.l.mu.Unlock()
	sent := time.Now()
	err := s.Store.Append(ctx, code, at, r, st)
	if err == nil {
		s.l.mu.Lock()
		if s.l.acked[code] == nil {
			s.l.acked[code] = map[int]store.Record{}
		}
		s.l.acked[code][at] = r
		s.l.confirms = append(s.l.confirms, confirm{sent, time.Now()})
		s.l.mu.Unlock()
	}
	return err
}

// confirmed is how many moves were confirmed so far, and when the first
// sent to the store after t was.
func (l *ledger) confirmed(t time.Time) (int, time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.confirms {
		if c.sent.After(t) {
			return len(l.confirms), c.done
		}
	}
	return len(l.confirms), time.Time{}
}

// newLedgerInstance is a smokestack server over the Redis at url that
// writes its moves in l.
func newLedgerInstance(t *testing.T, url string, o redisstore.Options, l *ledger) *instance {
	t.Helper()
	s, err := redisstore.OpenWith(context.Background(), url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	lb := New(Config{Store: ledgerStore{s, l}, Games: []Game{tallyGame()}, PresenceTTL: testPresenceTTL})
	in := &instance{store: s, lobby: lb, stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(in.done)
		in.lobby.Run(ctx)
	}()
	return in
}

// faultTable is one game between alice on instance a and bob on instance b.
type faultTable struct {
	code  string
	seats []*mover
}

// mover plays one seat as a person would, at a pace, counting the
// refusals the service gave it.
type mover struct {
	s           *session
	player      Player
	ids         *atomic.Int64
	told        bool // saw the reconnecting notice
	refused     int  // told nothing was played
	unconfirmed int  // told the move may still count
}

// play plays the seat until its game is over. A move refused because the
// service was away is tried again from the newest view, a while later.
func (m *mover) play(ctx context.Context, pace time.Duration) error {
	for {
		u, err := m.s.await(30*time.Second, func(Update) bool { return true })
		if err != nil {
			return err
		}
		m.told = m.told || u.Notice != ""
		v := m.s.view()
		if u.Room.Over || v.Over {
			return nil
		}
		if len(v.Legal) == 0 {
			if _, err := m.s.await(30*time.Second, func(n Update) bool {
				m.told = m.told || n.Notice != ""
				return n.Version != u.Version || n.Room.Over || n.View != nil && u.View == nil
			}); err != nil {
				return err
			}
			continue
		}
		time.Sleep(pace) // a person's pace: moves keep flowing, not flooding
		raw, _ := json.Marshal(pick(v.Legal))
		err = m.s.c.Move(context.WithValue(ctx, moveID{}, m.ids.Add(1)), raw)
		switch {
		case errors.Is(err, errUnconfirmed):
			m.unconfirmed++
		case errors.Is(err, ErrUnavailable):
			m.refused++
		case err != nil: // stale: the newer view is on its way
			_, _ = m.s.await(200*time.Millisecond, func(n Update) bool { return n.Version != u.Version })
			continue
		default:
			continue
		}
		time.Sleep(100 * time.Millisecond) // the service is away: try again soon
	}
}

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
	for cb == nil {
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no table within 30s: %w", err)
		}
		switch {
		case meta.Code == "":
			meta, err = f.a.lobby.Create(ctx, alice, CreateOptions{Seats: 2, Seed: seed, HasSeed: true})
		case ca == nil:
			ca, err = f.a.lobby.Join(ctx, meta.Code, alice)
		default:
			cb, err = f.b.lobby.Join(ctx, meta.Invite(), bob)
		}
		if err != nil {
			time.Sleep(100 * time.Millisecond) // the service is away
		}
	}
	tb := &faultTable{code: meta.Code, seats: make([]*mover, 2)}
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
			u, err := m.s.await(10*time.Second, atVersion(len(log)))
			if err != nil {
				t.Fatalf("room %s: %v (the log holds %d moves)", tb.code, err, len(log))
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
			if m.told {
				told++
			}
			refused += m.refused
			unconfirmed += m.unconfirmed
		}
	}
	return
}

// TestRedisSentinelKills kills the Sentinel-managed primary mid-game,
// again and again, while two instances play: not one confirmed move is
// lost or played twice, every room's log replays to what its players
// saw, and every session plays on. The time from each kill to the first
// move confirmed after it is logged.
func TestRedisSentinelKills(t *testing.T) {
	kills := 20
	sn := redistest.StartSentinel(t, 2)
	// With two replicas, --redis-replicas 2: whichever the sentinels
	// promote holds every confirmed move (see docs/deployment.md).
	f := newFaultRig(t, sn.URL, redisstore.Options{Replicas: 2})
	ctx := context.Background()
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- f.run(ctx, stop, 20*time.Millisecond) }()

	var worst, total time.Duration
	for i := range kills {
		sn.AwaitReplicas(2, 30*time.Second)
		f.flowing(t, done, 5)
		old := sn.Primary()
		killed := time.Now()
		old.Kill()
		sn.AwaitFailover(old, 20*time.Second)
		sn.Rejoin(old)
		back := f.confirmedAfter(t, done, killed, 30*time.Second)
		took := back.Sub(killed)
		t.Logf("kill %2d: %s down, first move sent after it confirmed %s after the kill", i+1, old.Addr(), took.Round(time.Millisecond))
		worst, total = max(worst, took), total+took
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	moves := f.check(ctx)
	told, refused, unconfirmed := f.refusals()
	t.Logf("%d kills: kill to first confirmed move %s on average, %s at worst; %d moves in %d rooms, %d refused as not played, %d as unconfirmed, %d sessions saw the notice",
		kills, (total / time.Duration(kills)).Round(time.Millisecond), worst.Round(time.Millisecond), moves, len(f.tables), refused, unconfirmed, told)
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

// confirmedAfter waits for the first move confirmed after t0.
func (f *faultRig) confirmedAfter(t *testing.T, done <-chan error, t0 time.Time, within time.Duration) time.Time {
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
			t.Fatalf("no move confirmed within %s of the kill", within)
		}
		time.Sleep(10 * time.Millisecond) // polling the ledger
	}
}
