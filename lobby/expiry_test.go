package lobby

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// storeRooms stores n unfinished rooms last moved in at updated.
func storeRooms(t testing.TB, s store.Store, n int, updated time.Time) []string {
	t.Helper()
	codes := make([]string, n)
	for i := range codes {
		m := store.Meta{Code: fmt.Sprintf("X%05d%s", i, updated.Format("150405.000")), Game: "tally", Public: true,
			Host: "key:h", Seats: []store.Seat{{Player: "key:h", Name: "hana"}, {}}, Created: updated, Updated: updated, Version: 1}
		if err := s.Create(context.Background(), m); err != nil {
			t.Fatal(err)
		}
		codes[i] = m.Code
	}
	return codes
}

// stored counts which of codes are still in s.
func stored(t testing.TB, s store.Store, codes []string) int {
	t.Helper()
	n := 0
	for _, c := range codes {
		_, _, err := s.Load(context.Background(), c, 0)
		switch {
		case err == nil:
			n++
		case !errors.Is(err, store.ErrNotFound):
			t.Fatal(err)
		}
	}
	return n
}

// commands counts the commands Redis ran while fn ran, by name, from
// its INFO commandstats (commands a script calls included), leaving out
// the INFO and CONFIG that count them. Nothing else may use r meanwhile.
func commands(t *testing.T, raw *redis.Client, fn func()) (total int, by map[string]int) {
	t.Helper()
	ctx := context.Background()
	if err := raw.ConfigResetStat(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	fn()
	info, err := raw.Info(ctx, "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	by = map[string]int{}
	for _, line := range strings.Split(info, "\r\n") {
		name, rest, ok := strings.Cut(strings.TrimPrefix(line, "cmdstat_"), ":calls=")
		if !ok || name == "info" || strings.HasPrefix(name, "config") {
			continue
		}
		calls, _, _ := strings.Cut(rest, ",")
		n, err := strconv.Atoi(calls)
		if err != nil {
			t.Fatalf("commandstats line %q: %v", line, err)
		}
		by[name] = n
		total += n
	}
	return total, by
}

// TestRedisExpiryReadsOnlyDue: a pass of expiry, rooms and then
// profiles, issues as many Redis commands with 5,000 rooms stored as with
// 50, when 10 are due either way: it reads the rooms due and the rooms
// of the profiles old enough to expire, never every room. It still
// expires the due rooms and the profile that never played, and keeps
// the rest.
func TestRedisExpiryReadsOnlyDue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	passes := map[int]int{}
	for _, n := range []int{50, 5000} {
		r := redistest.Start(t)
		raw, s := rawRedis(t, r), openRedis(t, r)
		clk := &clock{now: time.Now().Add(-48 * time.Hour)}
		l := New(Config{Store: s, Games: []Game{tallyGame()}, Now: clk.Now,
			Expire: time.Hour, ProfileExpire: 24 * time.Hour})
		idle := newPlayer(t, l, "SHA256:idle", "idle")
		player := newPlayer(t, l, "SHA256:player", "player")
		clk.advance(48 * time.Hour)
		due := storeRooms(t, s, 10, clk.Now().Add(-2*time.Hour))
		fresh := storeManyRooms(t, s, n, clk.Now().Add(-time.Minute), player.ID)

		total, by := commands(t, raw, func() {
			l.ExpireRooms(ctx)
			l.ExpireProfiles(ctx)
		})
		passes[n] = total
		if left := stored(t, s, due); left != 0 {
			t.Errorf("%d rooms stored: %d of %d due rooms left after the pass", n, left, len(due))
		}
		if left := stored(t, s, fresh[:50]); left != 50 {
			t.Errorf("%d rooms stored: %d of the first 50 not due were expired", n, 50-left)
		}
		if _, err := s.KeyProfile(ctx, idle.Key); !errors.Is(err, store.ErrNoProfile) {
			t.Errorf("%d rooms stored: the profile that never played stayed: %v", n, err)
		}
		if _, err := s.KeyProfile(ctx, player.Key); err != nil {
			t.Errorf("%d rooms stored: the profile seated in a room: %v", n, err)
		}
		list, _ := commands(t, raw, func() {
			if _, err := s.List(ctx); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%d rooms stored, 10 due: the pass ran %d commands (%v); reading every room (Store.List) runs %d", n, total, by, list)
	}
	if passes[5000] != passes[50] {
		t.Errorf("the pass ran %d commands with 50 rooms stored and %d with 5,000: it reads rooms that are not due", passes[50], passes[5000])
	}
}

// storeManyRooms stores n unfinished rooms last moved at updated, with
// player in a seat, a few at a time.
func storeManyRooms(t *testing.T, s store.Store, n int, updated time.Time, player string) []string {
	t.Helper()
	codes := make([]string, n)
	errs := make(chan error, 8)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < n; i += 8 {
				m := store.Meta{Code: fmt.Sprintf("F%05d", i), Game: "tally", Public: true, Host: player,
					Seats: []store.Seat{{Player: player, Name: "p"}, {}}, Created: updated, Updated: updated, Version: 1}
				if err := s.Create(context.Background(), m); err != nil {
					errs <- err
					return
				}
				codes[i] = m.Code
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	return codes
}

// TestExpiryPassesRoomsInUse: rooms idle past the expiry but watched
// here are kept, and more of them than a pass takes up at a time do not
// hide the abandoned rooms due after them.
func TestExpiryPassesRoomsInUse(t *testing.T) {
	ctx := context.Background()
	clk := &clock{now: t0}
	st := mem.New()
	l := New(Config{Store: st, Games: []Game{tallyGame()}, Expire: time.Hour, Now: clk.Now})
	host := Player{ID: "key:h", Name: "hana"}
	var inUse, abandoned []string
	for i := range expiryBatch + 10 {
		m, err := l.Create(ctx, host, CreateOptions{Seats: 2, Public: true})
		if err != nil {
			t.Fatal(err)
		}
		c, err := l.Watch(ctx, m.Code, Player{ID: fmt.Sprintf("key:w%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		inUse = append(inUse, m.Code)
	}
	clk.advance(time.Minute)
	for range 20 {
		m, err := l.Create(ctx, host, CreateOptions{Seats: 2, Public: true})
		if err != nil {
			t.Fatal(err)
		}
		abandoned = append(abandoned, m.Code)
	}
	clk.advance(2 * time.Hour)
	l.ExpireRooms(ctx)
	if n := stored(t, st, inUse); n != len(inUse) {
		t.Errorf("%d of %d rooms watched here were expired", len(inUse)-n, len(inUse))
	}
	if n := stored(t, st, abandoned); n != 0 {
		t.Errorf("%d of %d abandoned rooms due after %d in use were left", n, len(abandoned), len(inUse))
	}
}
