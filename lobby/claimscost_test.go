package lobby

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/smokestack/smokestack/internal/redistest"
)

// TestRedisClaimsCost measures what holding seats costs Redis while
// nobody moves: four instances, rooms of four with each seat on another
// instance (as a balancer spreads them), every command Redis counts
// (INFO commandstats, a script's inner commands included) over one
// simulated minute, with the seats held and, before, with nobody seated.
// The difference is the seats' cost. Every periodic presence duty runs at
// a fixed fraction of the TTL, so four TTLs of the test's are a minute at
// the production TTL of 15 s (twelve heartbeats). Liveness is per
// instance: held seats cost nothing more while nothing changes.
func TestRedisClaimsCost(t *testing.T) {
	t.Parallel()
	r := redistest.StartOwn(t, "this test counts every command of the Redis it starts")
	ctx := context.Background()
	const instances, rooms = 4, 5
	fleet := make([]*instance, instances)
	for i := range fleet {
		fleet[i] = newInstance(t, r)
	}
	rdb := rawRedis(t, r)
	minute := 4 * testPresenceTTL // one simulated minute: 12 heartbeats
	idle := commandsOver(t, rdb, minute)

	var seats []*session
	for i := range rooms {
		host := Player{ID: fmt.Sprintf("key:h%d", i), Name: fmt.Sprintf("h%d", i)}
		m, err := fleet[0].lobby.Create(ctx, host, CreateOptions{Seats: instances, Seed: uint64(i + 1), HasSeed: true})
		if err != nil {
			t.Fatal(err)
		}
		for j, in := range fleet {
			p := Player{ID: fmt.Sprintf("key:p%d-%d", i, j), Name: fmt.Sprintf("p%d%d", i, j)}
			if j == 0 {
				p = host
			}
			c, err := in.lobby.Join(ctx, m.Invite(), p)
			if err != nil {
				t.Fatal(err)
			}
			seats = append(seats, &session{name: p.Name, c: c})
		}
	}
	for _, s := range seats {
		if _, err := s.await(10*time.Second, func(u Update) bool {
			for seat := range instances {
				if !u.Room.Seats[seat].Connected {
					return false
				}
			}
			return true
		}); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(2 * testPresenceTTL) // what sitting down set off settles
	held := commandsOver(t, rdb, minute)

	players := rooms * instances
	perPlayer := float64(held.total-idle.total) / float64(players)
	t.Logf("%d instances, %d players in %d rooms of %d, one simulated minute (TTL %v): idle %d commands, seats held %d: %.1f commands a player a minute for holding seats",
		instances, players, rooms, instances, testPresenceTTL, idle.total, held.total, perPlayer)
	t.Logf("idle: %s", idle.names)
	t.Logf("held: %s", held.names)
	if perPlayer >= 1 {
		t.Errorf("holding a seat costs %.1f Redis commands a minute; liveness is per instance, so it should cost none while nothing changes", perPlayer)
	}
}

// commandCount is what Redis ran over a while: in all, and by command.
type commandCount struct {
	total int
	names string // "cmd=n …", the busiest first
}

// commandsOver counts the commands Redis runs over d, the two INFO
// calls that count them left out.
func commandsOver(t *testing.T, rdb *redis.Client, d time.Duration) commandCount {
	t.Helper()
	before := commandStats(t, rdb)
	time.Sleep(d)
	after := commandStats(t, rdb)
	after["info"] -= 2
	var c commandCount
	type named struct {
		name string
		n    int
	}
	var by []named
	for name, n := range after {
		if n -= before[name]; n > 0 {
			c.total += n
			by = append(by, named{name, n})
		}
	}
	slices.SortFunc(by, func(a, b named) int { return cmp.Or(b.n-a.n, strings.Compare(a.name, b.name)) })
	parts := make([]string, len(by))
	for i, b := range by {
		parts[i] = fmt.Sprintf("%s=%d", b.name, b.n)
	}
	c.names = strings.Join(parts, " ")
	return c
}

// commandStats reads INFO commandstats: calls by command name.
func commandStats(t *testing.T, rdb *redis.Client) map[string]int {
	t.Helper()
	info, err := rdb.Info(context.Background(), "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]int{}
	for line := range strings.SplitSeq(info, "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || !strings.HasPrefix(name, "cmdstat_") {
			continue
		}
		for field := range strings.SplitSeq(rest, ",") {
			if v, ok := strings.CutPrefix(field, "calls="); ok {
				n, err := strconv.Atoi(v)
				if err != nil {
					t.Fatalf("commandstats: %q", line)
				}
				calls[strings.TrimPrefix(name, "cmdstat_")] = n
			}
		}
	}
	return calls
}
