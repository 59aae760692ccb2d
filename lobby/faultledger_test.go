package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

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
	code     string
	seats    []*mover
	watchers []*watcher // one on each instance
}

// watcher is a spectator's session that reads every update, and notes
// whether one had the reconnecting notice.
type watcher struct {
	told atomic.Bool
	seen chan struct{} // closed once the game is over
}

func watch(c *Conn) *watcher {
	w := &watcher{seen: make(chan struct{})}
	go func() {
		defer close(w.seen)
		for u := range c.Updates() {
			if u.Notice != "" {
				w.told.Store(true)
			}
			if u.Room.Over {
				return
			}
		}
	}()
	return w
}

// mover plays one seat as a person would, at a pace, counting the
// refusals the service gave it.
type mover struct {
	s           *session
	player      Player
	ids         *atomic.Int64
	told        atomic.Bool // saw the reconnecting notice
	refused     int         // told nothing was played
	unconfirmed int         // told the move may still count
}

// play plays the seat until its game is over. A move refused because the
// service was away is tried again from the newest view, a while later.
func (m *mover) play(ctx context.Context, pace time.Duration) error {
	for {
		u, err := m.s.await(time.Minute, func(Update) bool { return true })
		if err != nil {
			return err
		}
		if u.Notice != "" {
			m.told.Store(true)
		}
		v := m.s.view()
		if u.Room.Over || v.Over {
			return nil
		}
		if len(v.Legal) == 0 {
			if _, err := m.s.await(time.Minute, func(n Update) bool {
				if n.Notice != "" {
					m.told.Store(true)
				}
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
		case errors.Is(err, room.ErrUnconfirmed):
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
