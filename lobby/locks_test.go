package lobby

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// slowStore holds Load of one room until released, as a slow disk or a
// slow Redis would, and counts the loads of that room.
type slowStore struct {
	store.Store
	code    string
	release chan struct{}
	loads   atomic.Int32
}

func (s *slowStore) Load(ctx context.Context, code string, from int) (store.Meta, []store.Record, error) {
	if code == s.code {
		s.loads.Add(1)
		select {
		case <-s.release:
		case <-ctx.Done():
			return store.Meta{}, nil, ctx.Err()
		}
	}
	return s.Store.Load(ctx, code, from)
}

// TestSlowLoadHoldsUpOnlyItsRoom: while one room's load is stuck in the
// store, a join to another room goes through, and the stuck room is loaded
// once however many players wait for it.
func TestSlowLoadHoldsUpOnlyItsRoom(t *testing.T) {
	ctx := context.Background()
	mem := mem.New()
	seed := New(Config{Store: mem, Games: []Game{tallyGame()}})
	host := Player{ID: "key:h", Name: "hana"}
	slow, _ := seed.Create(ctx, host, CreateOptions{Seats: 3})
	fast, _ := seed.Create(ctx, host, CreateOptions{Seats: 2})

	st := &slowStore{Store: mem, code: slow.Code, release: make(chan struct{})}
	l := New(Config{Store: st, Games: []Game{tallyGame()}})
	var waiting sync.WaitGroup
	joined := make(chan *Conn, 2)
	for _, p := range []Player{{ID: "key:a", Name: "ann"}, {ID: "key:b", Name: "ben"}} {
		waiting.Go(func() {
			c, err := l.Join(ctx, slow.Invite(), p)
			if err != nil {
				t.Error(err)
			}
			joined <- c
		})
	}
	eventually(t, "the slow load begins", func() bool { return st.loads.Load() > 0 })
	c, err := within(t, func() (*Conn, error) { return l.Join(ctx, fast.Code, host) })
	if err != nil {
		t.Fatalf("join to another room while one load is stuck: %v", err)
	}
	c.Close()
	select {
	case <-joined:
		t.Fatal("a join to the stuck room finished before its load")
	default:
	}
	close(st.release)
	waiting.Wait()
	if n := st.loads.Load(); n != 1 {
		t.Errorf("the stuck room was loaded %d times for two joins; want once", n)
	}
	close(joined)
	seats := map[int]bool{}
	for c := range joined {
		seats[c.Seat()] = true
		c.Close()
	}
	if len(seats) != 2 {
		t.Errorf("two players joining at once got seats %v", seats)
	}
}

// TestThinkingBotDoesNotHoldTheRoom: a bot deep in thought (here, until
// released) does not keep a player in its room from moving; its move is
// committed afterwards against the state as it is then.
func TestThinkingBotDoesNotHoldTheRoom(t *testing.T) {
	ctx := context.Background()
	thinking, release := make(chan struct{}, 10), make(chan struct{})
	slowBot := func(name string, seed uint64) (engine.Bot, error) {
		first, _ := tally.FirstLegal(name, seed)
		return func(view json.RawMessage) (json.RawMessage, error) {
			var v tally.View
			_ = json.Unmarshal(view, &v)
			if v.Turn < 0 { // only the part where everyone moves at once
				thinking <- struct{}{}
				<-release
			}
			return first(view)
		}, nil
	}
	game := Game{Rules: tally.Rules, Bots: engine.Bots{Names: []string{"slow"}, New: slowBot}}
	l := New(Config{Store: mem.New(), Games: []Game{game}})
	host := Player{ID: "key:h", Name: "hana"}
	meta, err := l.Create(ctx, host, CreateOptions{Seats: 2, Bots: []string{"slow"}})
	if err != nil {
		t.Fatal(err)
	}
	h, err := l.Join(ctx, meta.Code, host)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var released sync.Once
	free := func() { released.Do(func() { close(release) }) }
	defer free() // before h.Close, should the test fail with the bot stuck
	// Hana takes her card; the bot takes its; then both may say done. Each
	// turn ends in an update: hana's move's, or the bot's, which arrives
	// by itself.
	for v := view(t, latest(t, h)); v.Turn != -1; v = view(t, latest(t, h)) {
		if len(v.Legal) > 0 {
			raw, _ := json.Marshal(v.Legal[0])
			if err := h.Move(ctx, raw); err != nil {
				t.Fatal(err)
			}
		}
		seen.Store(h, next(t, h))
	}
	<-thinking // the bot is now thinking about its "done"
	if _, err := within(t, func() (any, error) { return nil, h.Move(ctx, json.RawMessage(`{"kind":"done"}`)) }); err != nil {
		t.Fatalf("hana's move while the bot thinks: %v", err)
	}
	free()
	for latest(t, h).Version < 4 { // the bot's done ends round 1
		seen.Store(h, next(t, h))
	}
	if v := view(t, latest(t, h)); v.Round != 2 {
		t.Fatalf("after both were done: round %d, turn %d", v.Round, v.Turn)
	}
}

// within runs f and fails the test if it has not returned after a few
// seconds: what it waits for is held up by something it must not wait on.
// (The bound is generous; the call takes milliseconds when nothing holds it.)
func within[T any](t *testing.T, f func() (T, error)) (T, error) {
	t.Helper()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-time.After(5 * time.Second):
		t.Fatal("still waiting after 5s: held up by something it must not wait on (another room, a store call, a bot thinking)")
	}
	var zero T
	return zero, nil
}
