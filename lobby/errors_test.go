package lobby

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// storeFault is what a failing store says: words a player must never see.
const storeFault = "dial tcp 10.0.0.9:6379: connection refused"

// failingStore fails every call once failing is set, as a store whose
// server went away would.
type failingStore struct {
	store.Store
	failing atomic.Bool
}

func (s *failingStore) fail() error {
	if s.failing.Load() {
		return errors.New(storeFault)
	}
	return nil
}

func (s *failingStore) Load(ctx context.Context, code string, from int) (store.Meta, []store.Record, error) {
	if err := s.fail(); err != nil {
		return store.Meta{}, nil, err
	}
	return s.Store.Load(ctx, code, from)
}

func (s *failingStore) List(ctx context.Context) ([]store.Meta, error) {
	if err := s.fail(); err != nil {
		return nil, err
	}
	return s.Store.List(ctx)
}

func (s *failingStore) OpenSeats(ctx context.Context, limit int) ([]store.Meta, error) {
	if err := s.fail(); err != nil {
		return nil, err
	}
	return s.Store.OpenSeats(ctx, limit)
}

func (s *failingStore) RoomCounts(ctx context.Context, host, addr string, since time.Time, limit int) (store.RoomCounts, error) {
	if err := s.fail(); err != nil {
		return store.RoomCounts{}, err
	}
	return s.Store.RoomCounts(ctx, host, addr, since, limit)
}

func (s *failingStore) Create(ctx context.Context, m store.Meta) error {
	if err := s.fail(); err != nil {
		return err
	}
	return s.Store.Create(ctx, m)
}

func (s *failingStore) Append(ctx context.Context, code string, at int, r store.Record, st engine.Status) error {
	if err := s.fail(); err != nil {
		return err
	}
	return s.Store.Append(ctx, code, at, r, st)
}

func (s *failingStore) SaveMeta(ctx context.Context, m store.Meta) error {
	if err := s.fail(); err != nil {
		return err
	}
	return s.Store.SaveMeta(ctx, m)
}

// TestStoreFaultsReachPlayersAsUnavailable: whatever a player asks of a
// lobby whose store fails (create a room, join one, play a move), they
// are told ErrUnavailable in the game's words, and the store's own words
// go to the log only.
func TestStoreFaultsReachPlayersAsUnavailable(t *testing.T) {
	ctx := context.Background()
	st := &failingStore{Store: mem.New()}
	var log bytes.Buffer
	l := New(Config{Store: st, Games: []Game{tallyGame()}, Limits: DefaultLimits(),
		Logger: slog.New(slog.NewTextHandler(&log, nil))})
	host, guest := Player{ID: "key:h", Name: "hana"}, Player{ID: "key:g", Name: "gus"}
	open, err := l.Create(ctx, host, CreateOptions{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	playing, err := l.Create(ctx, host, CreateOptions{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	h, err := l.Join(ctx, playing.Invite(), host)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g, err := l.Join(ctx, playing.Invite(), guest)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()

	st.failing.Store(true)
	asks := map[string]func() error{
		"create": func() error { _, err := l.Create(ctx, host, CreateOptions{Seats: 2}); return err },
		"join": func() error {
			l2 := New(Config{Store: st, Games: []Game{tallyGame()}}) // the room is not loaded there
			_, err := l2.Join(ctx, open.Invite(), guest)
			return err
		},
		"move": func() error { return h.Move(ctx, json.RawMessage(`{"kind":"take"}`)) },
		"list": func() error { _, err := l.Rooms(ctx); return err },
	}
	for what, ask := range asks {
		err := ask()
		if !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s with a failing store: %v; want ErrUnavailable", what, err)
			continue
		}
		if strings.Contains(err.Error(), "10.0.0.9") {
			t.Errorf("%s shows the player the store's words: %q", what, err)
		}
	}
	if !strings.Contains(log.String(), storeFault) {
		t.Errorf("the log does not name the store's fault; it has:\n%s", log.String())
	}
}
