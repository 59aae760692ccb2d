package lobby

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

func TestLookupWait(t *testing.T) {
	lim := Limits{LookupMisses: 20, LookupBackoff: 250 * time.Millisecond}
	ms := time.Millisecond
	want := []time.Duration{0, 0, 0, 0, 0, 250 * ms, 500 * ms, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}
	for i, w := range want {
		if got := lookupWait(lim, i+1); got != w {
			t.Errorf("miss %d waits %s, want %s", i+1, got, w)
		}
	}
	if got := lookupWait(lim, 1000); got != maxLookupWait {
		t.Errorf("miss 1000 waits %s", got)
	}
	if got := lookupWait(Limits{LookupMisses: 20}, 19); got != 0 {
		t.Errorf("without a back-off, miss 19 waits %s", got)
	}
}

// refusals records the lobby's refusals by reason.
type refusals struct {
	room.NoObserver
	mu sync.Mutex
	by map[string]int
}

func (r *refusals) Refused(reason string, _ Player) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.by == nil {
		r.by = map[string]int{}
	}
	r.by[reason]++
}

func (r *refusals) count(reason string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.by[reason]
}

// A guesser's misses are free, then slowed more and more, then refused for
// good: from their address and with their key, even with a right invite,
// until the window ends. Their own rooms stay open to them, and everyone
// else's lookups go on meanwhile.
func TestLookupLimit(t *testing.T) {
	ctx := context.Background()
	now := t0
	var clock sync.Mutex
	obs := &refusals{}
	lim := Limits{LookupMisses: 8, LookupWindow: time.Hour, LookupBackoff: 5 * time.Millisecond}
	l := New(Config{Store: mem.New(), Games: []Game{tallyGame()}, Limits: lim, Observer: obs,
		Now: func() time.Time { clock.Lock(); defer clock.Unlock(); return now }})
	const home, away = "192.0.2.7", "198.51.100.9"
	hana := Player{ID: "key:hana", Name: "hana", Addr: home}
	guesser := Player{ID: "key:guess", Name: "guess", Addr: home}
	info, err := l.Create(ctx, hana, CreateOptions{Seats: 3, Seed: 1, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	guesses := 0
	guess := func(p Player) error {
		guesses++
		code := strings.Repeat("Z", CodeLength-1) + string(room.CodeAlphabet[guesses%len(room.CodeAlphabet)])
		if code == info.Code {
			code = "YYYYYY"
		}
		_, err := l.Watch(ctx, code, p)
		return err
	}
	for n := 1; n <= lim.LookupMisses; n++ {
		start := time.Now()
		err := guess(guesser)
		var refusal *LimitError
		if errors.As(err, &refusal) || err == nil {
			t.Fatalf("guess %d: %v, want a plain miss", n, err)
		}
		if took, wait := time.Since(start), lookupWait(lim, n); took < wait {
			t.Errorf("guess %d took %s, want a wait of %s", n, took, wait)
		}
	}
	if got, want := obs.count("lookup_backoff"), lim.LookupMisses-lim.LookupMisses/4; got != want {
		t.Errorf("%d guesses slowed, want %d", got, want)
	}
	final := func(err error, by string) {
		t.Helper()
		var refusal *LimitError
		if !errors.As(err, &refusal) || !refusal.Final || refusal.Reason != "lookup_limit" ||
			refusal.Msg != "too many wrong room codes "+by+": try again in 60 minutes" {
			t.Fatalf("got %v; want the final refusal %s", err, by)
		}
	}
	final(guess(guesser), "from your address")
	// Refused even with the right invite, from the address or with the key.
	_, err = l.Join(ctx, info.Invite(), guesser)
	final(err, "from your address")
	_, err = l.Join(ctx, info.Invite(), Player{ID: "key:friend", Addr: home})
	final(err, "from your address")
	_, err = l.Join(ctx, info.Invite(), Player{ID: guesser.ID, Addr: away})
	final(err, "with your key")
	if n := obs.count("lookup_limit"); n != 4 {
		t.Errorf("%d final refusals counted, want 4", n)
	}
	// The host at the same address opens her own room; a friend elsewhere
	// joins with the invite.
	if _, err := l.Join(ctx, info.Code, hana); err != nil {
		t.Errorf("the host behind the guesser's address: %v", err)
	}
	if _, err := l.Join(ctx, info.Invite(), Player{ID: "key:ann", Addr: away}); err != nil {
		t.Errorf("a friend elsewhere with the invite: %v", err)
	}
	clock.Lock()
	now = now.Add(time.Hour)
	clock.Unlock()
	if _, err := l.Join(ctx, info.Invite(), guesser); err != nil {
		t.Errorf("an hour later, with the invite: %v", err)
	}
}

// With Redis, guesses spread over instances are counted once: misses on
// one instance bring the refusal on the other.
func TestLookupLimitAcrossInstances(t *testing.T) {
	ctx := context.Background()
	r := redistest.Start(t)
	lim := Limits{LookupMisses: 4, LookupWindow: time.Minute}
	a := New(Config{Store: openRedis(t, r), Games: []Game{tallyGame()}, Limits: lim})
	b := New(Config{Store: openRedis(t, r), Games: []Game{tallyGame()}, Limits: lim})
	// A fresh address for each run, as a shared Redis keeps counts.
	guesser := Player{ID: "key:" + room.NewCode(), Addr: "addr-" + room.NewCode()}
	for i := range lim.LookupMisses {
		l := []*Lobby{a, b}[i%2]
		if _, err := l.Watch(ctx, "ZZZZZZ", guesser); err == nil || errors.As(err, new(*LimitError)) {
			t.Fatalf("guess %d: %v, want a plain miss", i+1, err)
		}
	}
	for _, l := range []*Lobby{a, b} {
		var refusal *LimitError
		if _, err := l.Watch(ctx, "ZZZZZZ", guesser); !errors.As(err, &refusal) || !refusal.Final {
			t.Fatalf("a guess past the limit: %v, want the final refusal", err)
		}
	}
}

// countedMisses is a shared store's miss counter that counts how often a
// lookup asks whether a player is barred.
type countedMisses struct {
	*feed
	reads atomic.Int32
}

func (c *countedMisses) Misses(ctx context.Context, name string, now time.Time) (int, time.Time, error) {
	c.reads.Add(1)
	return c.feed.Misses(ctx, name, now)
}

type countedStore struct {
	store.Store
	misses *countedMisses
}

func (s countedStore) Cluster() store.Cluster { return s.misses }

// TestALookupAsksOnce: a lookup parses what was typed once and asks once
// whether the player is barred, one read per name misses count by (their
// address and their key), with a seat word or without: the seat word's
// path once asked twice.
func TestALookupAsksOnce(t *testing.T) {
	ctx := context.Background()
	cm := &countedMisses{feed: &feed{changes: make(chan store.Change, 8)}}
	l := New(Config{Store: countedStore{mem.New(), cm}, Games: []Game{tallyGame()}, Limits: Limits{LookupMisses: 20, LookupWindow: time.Hour}})
	host := Player{ID: "key:ann", Key: "SHA256:ann", Name: "ann", Addr: "203.0.113.7"}
	m, err := l.Create(ctx, host, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, typed := range []string{m.Code, m.Code + " maple-42"} {
		cm.reads.Store(0)
		_, _ = l.Info(ctx, typed, Player{ID: "key:ben", Key: "SHA256:ben", Name: "ben", Addr: "198.51.100.9"})
		if n := cm.reads.Load(); n != 2 {
			t.Errorf("looking up %q read the miss counts %d times, want 2 (address and key, once)", typed, n)
		}
	}
}
