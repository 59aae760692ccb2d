package lobby

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"golang.org/x/sync/errgroup"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// commandCounter counts the commands a client sends, each command of a
// pipeline or transaction apart, and the sorted-set ones (the lists').
type commandCounter struct{ n, lists atomic.Int64 }

func (c *commandCounter) count(cmds ...redis.Cmder) {
	c.n.Add(int64(len(cmds)))
	for _, cmd := range cmds {
		if strings.HasPrefix(cmd.Name(), "z") {
			c.lists.Add(1)
		}
	}
}

func (c *commandCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (c *commandCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.count(cmd)
		return next(ctx, cmd)
	}
}

func (c *commandCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		c.count(cmds...)
		return next(ctx, cmds)
	}
}

// listCost is a Redis holding rooms stored rooms, all but 20 finished,
// and a lobby on it whose store's commands are counted.
type listCost struct {
	lobby   *Lobby
	store   *redisstore.Store
	counted *commandCounter
}

// The viewer's games: a few unfinished and more finished than a page.
const (
	costViewer      = "key:viewer"
	costViewerDone  = historyPage + 10
	costUnfinished  = 20 // public: half with a free seat, half in play
	costViewerOpen  = 3  // of those, the viewer sits in
	costSeedWorkers = 8
)

func newListCost(t testing.TB, rooms int) *listCost {
	t.Helper()
	// Someone else's rooms would be counted too.
	r := redistest.StartOwn(t, "the cost is measured on a Redis of the test's own")
	opt, err := redis.ParseURL(r.URL)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	c := &commandCounter{}
	rdb.AddHook(c)
	st := redisstore.New(rdb)
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	base := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	var g errgroup.Group
	g.SetLimit(costSeedWorkers)
	for i := range rooms {
		g.Go(func() error {
			at := base.Add(time.Duration(i) * time.Second)
			host := fmt.Sprintf("key:p%d", i%500)
			m := store.Meta{Code: fmt.Sprintf("C%05d", i), Game: "tally", Public: true, Host: host,
				Seats:   []store.Seat{{Player: host, Name: "p"}, {Player: fmt.Sprintf("key:q%d", i%700), Name: "q"}},
				Created: at, Updated: at, Version: 1, Started: true, StartedAt: at, Over: true}
			switch {
			case i < costUnfinished:
				m.Over = false
				m.Started = i%2 == 0
				if !m.Started {
					m.Seats[1] = store.Seat{}
				}
				if i < costViewerOpen {
					m.Seats[0].Player = costViewer
				}
			case i < costUnfinished+costViewerDone:
				m.Seats[0].Player = costViewer
			}
			return st.Create(ctx, m)
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	l := New(Config{Store: st, Games: []Game{tallyGame()}, Limits: DefaultLimits()})
	return &listCost{lobby: l, store: st, counted: c}
}

// refresh is what one lobby screen reads at a refresh (session's
// lobbyScreen.refresh): the public rooms, by a read of its own, and its
// player's games. It returns the commands sent and the rows read.
func (lc *listCost) refresh(t testing.TB) (commands int64, rows int) {
	ctx := context.Background()
	before := lc.counted.n.Load()
	public, err := lc.lobby.PublicRooms(ctx, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	mine, err := lc.lobby.History(ctx, costViewer)
	if err != nil {
		t.Fatal(err)
	}
	return lc.counted.n.Load() - before, len(public) + len(mine)
}

// quota is what checking a host's room quota sends.
func (lc *listCost) quota(t testing.TB) int64 {
	before := lc.counted.n.Load()
	if err := lc.lobby.checkRoomQuota(context.Background(), Player{ID: "key:p1", Addr: "10.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	return lc.counted.n.Load() - before
}

// TestListCostIsPage: a lobby refresh and a quota check send as many
// Redis commands with 10,000 stored rooms as with 100 (all but 20
// finished): they read pages of the lists, never every room. A screen's
// first refresh reads its player's whole page of games; the next ones
// read only the unfinished games and the newest finished one
// (playerGames), the finished rows being kept.
func TestListCostIsPage(t *testing.T) {
	if testing.Short() {
		t.Skip("stores 10,000 rooms")
	}
	type cost struct{ first, refresh, rows, quota int64 }
	var costs []cost
	for _, n := range []int{100, 10_000} {
		lc := newListCost(t, n)
		first, firstRows := lc.refresh(t)
		c, rows := lc.refresh(t)
		if again, _ := lc.refresh(t); again != c {
			t.Fatalf("%d rooms: a refresh sent %d commands, the next %d", n, c, again)
		}
		if rows != firstRows {
			t.Errorf("%d rooms: the first refresh read %d rows, the next %d", n, firstRows, rows)
		}
		// The viewer's games: its unfinished ones, then finished ones, u+3
		// commands, where the whole page is 2 + 30.
		if mine := c - (first - (2 + historyPage)); mine != costViewerOpen+3 {
			t.Errorf("%d rooms: a refresh after the first read the viewer's games in %d commands, want %d", n, mine, costViewerOpen+3)
		}
		want := costUnfinished + historyPage - costViewerOpen // the viewer's open rooms are public too
		if rows != want+costViewerOpen {
			t.Errorf("%d rooms: a refresh read %d rows, want %d", n, rows, want+costViewerOpen)
		}
		q := lc.quota(t)
		before := lc.counted.n.Load()
		if _, err := lc.store.List(context.Background()); err != nil {
			t.Fatal(err)
		}
		all := lc.counted.n.Load() - before
		t.Logf("%6d stored rooms: a lobby refresh sends %d Redis commands for %d rows (the screen's first %d); a quota check %d; reading every room (as lists did before) %d",
			n, c, rows, first, q, all)
		costs = append(costs, cost{first, c, int64(rows), q})
	}
	if costs[0] != costs[1] {
		t.Errorf("the cost grew with the stored rooms: %+v at 100, %+v at 10,000", costs[0], costs[1])
	}
}

// TestListWriteCost: a move writes no list; the writes that change what
// lists show (create, seat, start, end, delete) write theirs. It logs
// what each sends.
func TestListWriteCost(t *testing.T) {
	lc := newListCost(t, 0)
	ctx := context.Background()
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	m := store.Meta{Code: "W00001", Game: "tally", Public: true, Host: "key:a", HostAddr: "10.0.0.1",
		Seats:   []store.Seat{{Player: "key:a"}, {}, {}, {}},
		Created: at, Updated: at, Version: 1}
	c := lc.counted
	cost := func(what string, write func() error) (all, lists int64) {
		t.Helper()
		n, z := c.n.Load(), c.lists.Load()
		if err := write(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		all, lists = c.n.Load()-n, c.lists.Load()-z
		t.Logf("%-12s %2d Redis commands, %2d of them the lists'", what, all, lists)
		return all, lists
	}
	cost("create", func() error { return lc.store.Create(ctx, m) })
	m.Seats[1].Player, m.Version = "key:b", m.Version+1
	cost("seat", func() error { return lc.store.SaveMeta(ctx, m) })
	m.Seats[2].Player, m.Seats[3].Player, m.Started, m.StartedAt, m.Version = "key:c", "key:d", true, at, m.Version+1
	cost("start", func() error { return lc.store.SaveMeta(ctx, m) })
	if _, lists := cost("move", func() error {
		return lc.store.Append(ctx, m.Code, 0, store.Record{Move: json.RawMessage(`{}`), At: at.Add(time.Minute)}, engine.Status{Round: 1})
	}); lists != 0 {
		t.Errorf("a move sent %d commands to the lists, want none", lists)
	}
	end := &engine.Result{Scores: []int{1, 2, 3, 4}, Winners: []int{3}}
	cost("ending move", func() error {
		return lc.store.Append(ctx, m.Code, 1, store.Record{Move: json.RawMessage(`{}`), At: at.Add(2 * time.Minute)}, engine.Status{Result: end})
	})
	cost("delete", func() error { return lc.store.Delete(ctx, m.Code) })
}

// TestHistoryFollowsOtherInstances: a player's games, their finished
// rows kept between refreshes, are what a lobby that kept nothing reads,
// after each change another instance makes to them: a game ended, one
// created, one begun and ended between two refreshes, one expired.
func TestHistoryFollowsOtherInstances(t *testing.T) {
	lc := newListCost(t, costUnfinished+costViewerDone)
	ctx := context.Background()
	codes := func(l *Lobby) []string {
		t.Helper()
		rows, err := l.History(ctx, costViewer)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]string, len(rows))
		for i, r := range rows {
			out[i] = r.Code
		}
		return out
	}
	same := func(what string) {
		t.Helper()
		fresh := New(Config{Store: lc.store, Games: []Game{tallyGame()}, Limits: DefaultLimits()})
		before := lc.counted.n.Load()
		got := codes(lc.lobby)
		n := lc.counted.n.Load() - before
		if want := codes(fresh); !slices.Equal(got, want) {
			t.Fatalf("%s: the viewer's games %v, a lobby that kept nothing reads %v", what, got, want)
		}
		t.Logf("%-34s %2d Redis commands", what, n)
	}
	same("first read")
	same("nothing changed")
	at := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	m, _, err := lc.store.Load(ctx, "C00000", 0)
	if err != nil {
		t.Fatal(err)
	}
	m.Over, m.Updated, m.Version = true, at, m.Version+1
	if err := lc.store.SaveMeta(ctx, m); err != nil {
		t.Fatal(err)
	}
	same("a game ended elsewhere")
	made := store.Meta{Code: "NEW001", Game: "tally", Public: true, Host: "key:x",
		Seats:   []store.Seat{{Player: "key:x"}, {Player: costViewer}},
		Created: at, Updated: at, Version: 1, Started: true, StartedAt: at}
	if err := lc.store.Create(ctx, made); err != nil {
		t.Fatal(err)
	}
	same("a game made elsewhere")
	brief := made
	brief.Code, brief.Over, brief.Updated = "NEW002", true, at.Add(time.Minute)
	if err := lc.store.Create(ctx, brief); err != nil {
		t.Fatal(err)
	}
	same("a game begun and ended since")
	if err := lc.store.Delete(ctx, "C00001"); err != nil {
		t.Fatal(err)
	}
	same("a game expired elsewhere")
	same("nothing changed again")
}
