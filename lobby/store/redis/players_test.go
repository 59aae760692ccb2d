package redis

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store"
)

// TestClusterPlayersSpread: on a three-primary cluster, 100 new players
// and 50 finished games land on every primary, not one; the leaderboard's
// best are right; and the commands each costs are counted (per-node
// commandstats) and logged.
func TestClusterPlayersSpread(t *testing.T) {
	ctx := context.Background()
	c := redistest.StartCluster(t)
	s := openCluster(t, c)
	u := strconv.FormatInt(time.Now().UnixNano(), 36)
	game := "spread" + u
	ids := make([]string, 100)
	for i := range ids {
		ids[i] = fmt.Sprintf("SHA256:p%03d%s", i, u)
	}

	sent := &sentCommands{}
	s.rdb.AddHook(sent)
	newPlayers := countCommands(t, c, sent, func() {
		for i, id := range ids {
			if err := s.CreateProfile(ctx, store.Profile{ID: id, Name: fmt.Sprintf("P%03d%s", i, u), Keys: []string{id}, Created: t0}); err != nil {
				t.Fatal(err)
			}
		}
	})
	want := map[string]store.Rating{}
	games := countCommands(t, c, sent, func() {
		for g := range 50 {
			// As players.Record: the outcome, if kept; the ratings; the record.
			code := fmt.Sprintf("G%02d%s", g, u)
			a, b := ids[(2*g)%100], ids[(2*g+1+4*g)%100]
			if _, err := s.Outcome(ctx, code); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("outcome of a new room: %v", err)
			}
			now, err := s.Ratings(ctx, game, []string{a, b})
			if err != nil {
				t.Fatal(err)
			}
			o, err := s.Record(ctx, game2(code, game, a, b, now))
			if err != nil {
				t.Fatal(err)
			}
			for _, ch := range o.Rated {
				want[ch.Player] = ch.After
			}
		}
	})
	for what, n := range map[string]nodeCounts{"100 new players": newPlayers, "50 finished games": games} {
		total := n.total()
		for addr, k := range n.byNode {
			if k < total/6 {
				t.Errorf("%s: primary %s ran %d of %d commands, want each at least a sixth: %v", what, addr, k, total, n.byNode)
			}
		}
	}
	t.Logf("a new player: %.2f commands sent, %.2f run (commandstats, scripts' inner ones too); by primary %v",
		float64(newPlayers.sent)/100, float64(newPlayers.total())/100, newPlayers.byNode)
	t.Logf("a finished game of two, as players.Record reads and writes it: %.2f commands sent, %.2f run; by primary %v",
		float64(games.sent)/50, float64(games.total())/50, games.byNode)
	if per := float64(newPlayers.sent) / 100; per > 3.1 {
		t.Errorf("%.2f commands sent per new player, want 3 (the name, the profile, the index)", per)
	}

	for _, n := range []int{1, 10, 25, 200} {
		board, err := s.Leaderboard(ctx, game, n)
		if err != nil || !slices.Equal(board, store.Top(want, n)) {
			t.Fatalf("the best %d: %+v, %v; want %+v", n, board, err, store.Top(want, n))
		}
	}
	for _, p := range ids[:10] {
		if rank, err := s.Rank(ctx, game, p); err != nil || rank != store.RankIn(want, p) {
			t.Fatalf("the place of %s: %d, %v; want %d", p, rank, err, store.RankIn(want, p))
		}
	}
	if n, err := s.ProfileCount(ctx); err != nil || n < 100 {
		t.Fatalf("profiles counted: %d, %v; want at least 100", n, err)
	}
}

// nodeCounts is how many commands the store sent, and how many data
// commands each primary ran.
type nodeCounts struct {
	sent   int
	byNode map[string]int
}

func (n nodeCounts) total() int {
	sum := 0
	for _, k := range n.byNode {
		sum += k
	}
	return sum
}

// sentCommands counts the commands a client sends, pipelined or not.
type sentCommands struct{ n atomic.Int64 }

func (h *sentCommands) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *sentCommands) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error { h.n.Add(1); return next(ctx, cmd) }
}
func (h *sentCommands) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error { h.n.Add(int64(len(cmds))); return next(ctx, cmds) }
}

// countCommands runs fn and counts the commands sent meanwhile and the
// data commands each primary of c ran, from its commandstats
// (administration left out).
func countCommands(t *testing.T, c *redistest.Cluster, sent *sentCommands, fn func()) nodeCounts {
	t.Helper()
	ctx := context.Background()
	var nodes []*redis.Client
	for _, p := range c.Primaries() {
		rdb := redis.NewClient(&redis.Options{Addr: p.Addr()})
		t.Cleanup(func() { rdb.Close() })
		if err := rdb.ConfigResetStat(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, rdb)
	}
	before := sent.n.Load()
	fn()
	out := nodeCounts{sent: int(sent.n.Load() - before), byNode: map[string]int{}}
	for _, rdb := range nodes {
		info, err := rdb.Info(ctx, "commandstats").Result()
		if err != nil {
			t.Fatal(err)
		}
		out.byNode[rdb.Options().Addr] = dataCommands(info)
	}
	return out
}

// dataCommands sums the calls in an INFO commandstats answer, leaving
// out what clients and tests ask of a node to manage it.
func dataCommands(info string) int {
	admin := []string{"info", "config", "cluster", "ping", "command", "hello", "client", "readonly", "script", "wait", "waitaof"}
	sum := 0
	for _, line := range strings.Split(info, "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		name, isStat := strings.CutPrefix(name, "cmdstat_")
		if !ok || !isStat || slices.Contains(admin, strings.SplitN(name, "|", 2)[0]) {
			continue
		}
		calls, _, _ := strings.Cut(strings.TrimPrefix(rest, "calls="), ",")
		n, _ := strconv.Atoi(calls)
		sum += n
	}
	return sum
}
