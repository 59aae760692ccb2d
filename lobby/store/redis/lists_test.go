package redis

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store"
)

// rawClient is a client of r of the test's own, to write what a crashed
// instance would have left.
func rawClient(t *testing.T, r *redistest.Server) *redis.Client {
	t.Helper()
	opt, err := redis.ParseURL(r.URL)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

func listed(t *testing.T, rdb *redis.Client, list, code string) bool {
	t.Helper()
	err := rdb.ZScore(context.Background(), listKey(list), code).Err()
	if err != nil && err != redis.Nil {
		t.Fatal(err)
	}
	return err == nil
}

// TestListsDropWhatCrashesLeft: entries a crashed instance left (a room
// created half-way, a room listed where it no longer belongs, a game
// that ended before its lists were told) are skipped by the readers and
// taken out of the lists once met; the ended game moves to its players'
// finished games.
func TestListsDropWhatCrashesLeft(t *testing.T) {
	ctx := context.Background()
	r := redistest.Start(t)
	s, rdb := openRedis(t, r), rawClient(t, r)
	open := mustCreate(t, s) // public, a seat free
	ended := mustCreate(t, s)
	// The game ended, but its instance died before it told the lists.
	if err := rdb.HSet(ctx, metaKey(ended.Code), "over", "1").Err(); err != nil {
		t.Fatal(err)
	}
	top := float64(t0.UnixMilli() + 1000)
	for _, z := range []struct{ list, code string }{
		{store.ListOpen, "GONE01"},   // a create that never ran its script
		{store.ListPlay, open.Code},  // listed before a save that lost its race
		{store.ListOpen, ended.Code}, // moved to the top: the page reads it first
	} {
		if err := rdb.ZAdd(ctx, listKey(z.list), redis.Z{Score: top, Member: z.code}).Err(); err != nil {
			t.Fatal(err)
		}
	}
	// A room kept before the stale ones: the page goes on after it.
	first := mustCreate(t, s)
	if err := rdb.ZAdd(ctx, listKey(store.ListOpen), redis.Z{Score: top + 1, Member: first.Code}).Err(); err != nil {
		t.Fatal(err)
	}
	seats, err := s.OpenSeats(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{first.Code, open.Code}; !slices.Equal(codes(seats), want) {
		t.Fatalf("open seats %v, want %v", codes(seats), want)
	}
	play, err := s.InPlay(ctx, 10)
	if err != nil || slices.Contains(codes(play), open.Code) {
		t.Fatalf("in play %v (%v): a room not started is listed", codes(play), err)
	}
	if listed(t, rdb, store.ListOpen, "GONE01") || listed(t, rdb, store.ListOpen, ended.Code) || listed(t, rdb, store.ListPlay, open.Code) {
		t.Fatal("the entries that do not belong stay in their lists after a read met them")
	}
	if !listed(t, rdb, store.ListPlayed(ended.Host), ended.Code) || listed(t, rdb, store.ListPlayer(ended.Host), ended.Code) || listed(t, rdb, store.ListDue, ended.Code) {
		t.Fatal("the ended game did not move to its players' finished games")
	}
	if !listed(t, rdb, store.ListOpen, open.Code) {
		t.Fatal("the open room left its list")
	}
}

// TestUnlistKeepsWhatAWriteListed: a room taken out of a list it belongs
// in (a reader that read it before a write made it belong, or a writer
// whose removal comes after the next write) is put back at once.
func TestUnlistKeepsWhatAWriteListed(t *testing.T) {
	ctx := context.Background()
	r := redistest.Start(t)
	s, rdb := openRedis(t, r), rawClient(t, r)
	m := mustCreate(t, s)
	if n, err := s.unlist(ctx, m.Code, []string{store.ListOpen, store.ListPlay}); err != nil || n != 0 {
		t.Fatalf("unlist of a room that belongs: %d out (%v), want none", n, err)
	}
	if !listed(t, rdb, store.ListOpen, m.Code) {
		t.Fatal("an open room was left out of the open seats")
	}
}

// TestListsBuiltOnce: a store written before the lists gets them when
// the first instance opens it; instances opening together build them
// once, and while one builds the others go on without them.
func TestListsBuiltOnce(t *testing.T) {
	ctx := context.Background()
	r := redistest.StartOwn(t, "the test drops the lists")
	s, rdb := openRedis(t, r), rawClient(t, r)
	var made []string
	for range 3 {
		made = append(made, mustCreate(t, s).Code)
	}
	// As an older version left it: the room set and the rooms, no lists.
	keys, err := rdb.Keys(ctx, redisPrefix+"list*").Result()
	if err != nil || len(keys) == 0 {
		t.Fatalf("list keys %v (%v)", keys, err)
	}
	if err := rdb.Del(ctx, keys...).Err(); err != nil {
		t.Fatal(err)
	}
	// Another instance is building them: this one goes on without.
	if err := rdb.Set(ctx, listsBuilding, "other", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if seats, err := openRedis(t, r).OpenSeats(ctx, 10); err != nil || len(seats) != 0 {
		t.Fatalf("open seats while another builds: %v (%v), want none yet", codes(seats), err)
	}
	if err := rdb.Del(ctx, listsBuilding).Err(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { openRedis(t, r) })
	}
	wg.Wait()
	if n, err := rdb.Exists(ctx, listsBuilt).Result(); err != nil || n != 1 {
		t.Fatalf("lists built: %d (%v)", n, err)
	}
	seats, err := s.OpenSeats(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	got := codes(seats)
	slices.Sort(got)
	if !slices.Equal(got, made) {
		t.Fatalf("open seats after the build: %v, want %v", got, made)
	}
}

func codes(metas []store.Meta) []string {
	out := make([]string, len(metas))
	for i, m := range metas {
		out[i] = m.Code
	}
	return out
}
