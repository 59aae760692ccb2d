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

// game2 is a rated game of code between a and b from their ratings
// before: a wins, each moves by one.
func game2(code, game string, a, b string, before map[string]store.Rating) store.Outcome {
	o := store.Outcome{Code: code, Game: game, At: t0}
	for seat, p := range []string{a, b} {
		r, ok := before[p]
		if !ok {
			r = store.Rating{Mu: 25, Sigma: 8}
		}
		after := store.Rating{Mu: r.Mu + 1 - 2*float64(seat), Sigma: r.Sigma - 0.1, Games: r.Games + 1}
		o.Rated = append(o.Rated, store.RatingChange{Seat: seat, Player: p, Before: r, After: after})
	}
	return o
}

// TestRedisRecordCrashMidway: an instance dies at each step of recording
// a game (ratings.go's two-phase commit) while the players go on to
// another game; the next try, by Outcome or by Record as the lobby does,
// finishes or undoes it, and every game counts exactly once: no rating
// is written twice, none from a stale start, a solo record adds up once.
func TestRedisRecordCrashMidway(t *testing.T) {
	ctx := context.Background()
	r := redistest.Start(t)
	for _, step := range []string{"begun", "prepared", "committed", "applying"} {
		t.Run(step, func(t *testing.T) {
			s := openRedis(t, r)
			s.attemptLife = 300 * time.Millisecond
			u := step + strconv.FormatInt(time.Now().UnixNano(), 36)
			game, a, b, c := "g"+u, "SHA256:a"+u, "SHA256:b"+u, "SHA256:c"+u
			first := game2("R1"+u, game, a, b, nil)

			dying := openRedis(t, r)
			dying.attemptLife = s.attemptLife
			dying.crashAt = func(at string) bool { return at == step }
			if _, err := dying.Record(ctx, first); !errors.Is(err, errCrashed) {
				t.Fatalf("the dying record: %v, want it stopped at %s", err, step)
			}

			// Another game of a's, worked out from what it reads now.
			now, err := s.Ratings(ctx, game, []string{a, c})
			if err != nil {
				t.Fatal(err)
			}
			second := game2("R2"+u, game, a, c, now)
			if _, err := s.Record(ctx, second); errors.Is(err, store.ErrConflict) {
				// The first game counted meanwhile (rolled forward): the
				// lobby works the second out again, as players.Record does.
				now, _ = s.Ratings(ctx, game, []string{a, c})
				second = game2("R2"+u, game, a, c, now)
				_, err = s.Record(ctx, second)
			}
			if err != nil {
				t.Fatalf("a's next game after the crash: %v", err)
			}

			// The room of the crash is recorded again, as the lobby does:
			// its outcome if kept, else worked out anew.
			kept, err := s.Outcome(ctx, first.Code)
			if errors.Is(err, store.ErrNotFound) {
				now, _ = s.Ratings(ctx, game, []string{a, b})
				kept, err = s.Record(ctx, game2(first.Code, game, a, b, now))
			}
			if err != nil {
				t.Fatalf("the crashed room recorded again: %v", err)
			}
			if again, err := s.Record(ctx, game2(first.Code, game, a, b, nil)); err != nil || !slices.Equal(again.Rated, kept.Rated) {
				t.Fatalf("a third record of the room: %+v, %v; want the kept %+v", again, err, kept)
			}

			got, err := s.Ratings(ctx, game, []string{a, b, c})
			if err != nil {
				t.Fatal(err)
			}
			if got[a].Games != 2 || got[b].Games != 1 || got[c].Games != 1 {
				t.Fatalf("games counted after a crash at %s: a %d, b %d, c %d; want 2, 1, 1", step, got[a].Games, got[b].Games, got[c].Games)
			}
			// a's rating is the last game's After, from the first's.
			last := second
			if last.Rated[0].Before.Games == 0 { // the first counted after the second
				last = kept
			}
			if got[a] != last.Rated[0].After || got[a].Mu != 27 {
				t.Fatalf("a's rating %+v after two wins, want the last game's %+v, mu 27", got[a], last.Rated[0].After)
			}
			board, err := s.Leaderboard(ctx, game, 3)
			if err != nil || len(board) != 3 {
				t.Fatalf("the board after the crash: %+v, %v", board, err)
			}
			for _, line := range board {
				if line.Rating != got[line.Player] {
					t.Fatalf("the board's line %+v, the rating %+v", line, got[line.Player])
				}
			}
			if locks := lockFields(t, s, a, b, c); len(locks) != 0 {
				t.Fatalf("locks left after the crash and the retries: %v", locks)
			}
		})
	}
	t.Run("solo", func(t *testing.T) {
		s := openRedis(t, r)
		u := strconv.FormatInt(time.Now().UnixNano(), 36)
		game, a := "g"+u, "SHA256:a"+u
		o := store.Outcome{Code: "S1" + u, Game: game, Solo: &store.SoloResult{Player: a, Won: true, Score: 40,
			Record: store.SoloRecord{Game: game, Opponent: "The Machine"}}}
		dying := openRedis(t, r)
		dying.crashAt = func(at string) bool { return at == "applying" }
		if _, err := dying.Record(ctx, o); !errors.Is(err, errCrashed) {
			t.Fatalf("the dying record: %v", err)
		}
		for range 3 {
			if _, err := s.Record(ctx, o); err != nil {
				t.Fatal(err)
			}
		}
		want := []store.SoloRecord{{Game: game, Opponent: "The Machine", Wins: 1, Best: 40}}
		if recs, err := s.SoloRecords(ctx, a); err != nil || !slices.Equal(recs, want) {
			t.Fatalf("solo records after a crash and three tries: %+v, %v; want %+v", recs, err, want)
		}
	})
}

// lockFields lists the players' rating locks left.
func lockFields(t *testing.T, s *Store, players ...string) []string {
	t.Helper()
	var out []string
	for _, p := range players {
		fields, err := s.rdb.HKeys(context.Background(), playerKey(p)).Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fields {
			if strings.HasPrefix(f, "lock:") {
				out = append(out, p+" "+f)
			}
		}
	}
	return out
}

// TestRedisPlayersMigrate: a store written in the old layout (players
// in one slot per concern) is read as it was after the upgrade: the
// first instance to open it copies the players over, once, while a
// second opening at the same time waits for it.
func TestRedisPlayersMigrate(t *testing.T) {
	ctx := context.Background()
	r := redistest.Start(t)
	old := redis.NewClient(&redis.Options{Addr: r.Addr()})
	defer old.Close()
	ann := `{"id":"SHA256:ann","name":"Ann","keys":["SHA256:ann","SHA256:laptop"],"created":"2026-03-04T05:06:07Z","lang":"pl"}`
	bea := `{"id":"SHA256:bea","name":"Bea","keys":["SHA256:bea"],"created":"2026-03-04T05:06:07Z"}`
	annR, beaR := store.Rating{Mu: 27, Sigma: 7, Games: 1}, store.Rating{Mu: 23, Sigma: 7, Games: 1}
	outcome := `{"code":"OLD1","game":"tally","at":"2026-03-04T05:06:07Z","rated":[` +
		`{"seat":0,"player":"SHA256:ann","before":{"mu":25,"sigma":8,"games":0},"after":{"mu":27,"sigma":7,"games":1}},` +
		`{"seat":1,"player":"SHA256:bea","before":{"mu":25,"sigma":8,"games":0},"after":{"mu":23,"sigma":7,"games":1}}]}`
	for _, c := range [][]any{
		{"HSET", oldProfiles, "SHA256:ann", ann, "SHA256:bea", bea},
		{"HSET", oldProfileKeys, "SHA256:ann", "SHA256:ann", "SHA256:laptop", "SHA256:ann", "SHA256:bea", "SHA256:bea"},
		{"HSET", oldProfileNames, "ann", "SHA256:ann", "bea", "SHA256:bea"},
		{"HSET", oldRatings, "tally\x00SHA256:ann", `{"mu":27,"sigma":7,"games":1}`, "tally\x00SHA256:bea", `{"mu":23,"sigma":7,"games":1}`,
			"tally\x00SHA256:gone", `{"mu":40,"sigma":1,"games":9}`}, // a profile linked away
		{"HSET", oldSolos, "SHA256:ann\x00tally\x00The Machine (hard)", `{"game":"tally","opponent":"The Machine (hard)","wins":2,"losses":1,"best":44}`},
		{"HSET", oldOutcomes, "OLD1", outcome},
	} {
		if err := old.Do(ctx, c...).Err(); err != nil {
			t.Fatal(err)
		}
	}

	stores := make(chan *Store, 2)
	for range 2 {
		go func() {
			s, err := Open(ctx, r.URL)
			if err != nil {
				t.Error(err)
			}
			stores <- s
		}()
	}
	s, other := <-stores, <-stores
	if s == nil || other == nil {
		t.FailNow()
	}
	t.Cleanup(func() { s.Close(); other.Close() })

	for what, read := range map[string]func() (store.Profile, error){
		"by its second key": func() (store.Profile, error) { return s.KeyProfile(ctx, "SHA256:laptop") },
		"by name":           func() (store.Profile, error) { return other.NamedProfile(ctx, "ANN") },
		"by id":             func() (store.Profile, error) { return s.Profile(ctx, "SHA256:ann") },
	} {
		if p, err := read(); err != nil || p.Name != "Ann" || p.Lang != "pl" || len(p.Keys) != 2 {
			t.Fatalf("Ann %s after the upgrade: %+v, %v", what, p, err)
		}
	}
	if err := s.CreateProfile(ctx, store.Profile{ID: "SHA256:x", Name: "bea", Keys: []string{"SHA256:x"}}); !errors.Is(err, store.ErrNameTaken) {
		t.Fatalf("Bea's name after the upgrade: %v, want ErrNameTaken", err)
	}
	if got, err := s.Ratings(ctx, "tally", []string{"SHA256:ann", "SHA256:bea"}); err != nil || got["SHA256:ann"] != annR || got["SHA256:bea"] != beaR {
		t.Fatalf("ratings after the upgrade: %+v, %v", got, err)
	}
	if board, err := s.Leaderboard(ctx, "tally", 5); err != nil || len(board) != 2 || board[0].Player != "SHA256:ann" || board[1].Rating != beaR {
		t.Fatalf("the leaderboard after the upgrade: %+v, %v; want Ann and Bea, not the profile linked away", board, err)
	}
	if recs, err := s.SoloRecords(ctx, "SHA256:ann"); err != nil || len(recs) != 1 || recs[0].Wins != 2 || recs[0].Best != 44 {
		t.Fatalf("solo records after the upgrade: %+v, %v", recs, err)
	}
	if o, err := s.Outcome(ctx, "OLD1"); err != nil || len(o.Rated) != 2 || o.Rated[0].After != annR {
		t.Fatalf("an old room's outcome: %+v, %v", o, err)
	}
	// A room recorded before is not recorded again.
	if o, err := s.Record(ctx, game2("OLD1", "tally", "SHA256:ann", "SHA256:bea", nil)); err != nil || o.Rated[0].After != annR {
		t.Fatalf("an old room recorded again: %+v, %v", o, err)
	}
	if all, err := s.Profiles(ctx); err != nil || len(all) != 2 {
		t.Fatalf("profiles after the upgrade: %+v, %v", all, err)
	}
	// Renamed in the new layout, a migrated name is let go.
	if err := s.Rename(ctx, "SHA256:ann", "Anna"); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateProfile(ctx, store.Profile{ID: "SHA256:y", Name: "ann", Keys: []string{"SHA256:y"}}); err != nil {
		t.Fatalf("Ann's old name after a rename: %v", err)
	}
	// Opened again, nothing is copied over what changed since.
	again, err := Open(ctx, r.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if p, err := again.Profile(ctx, "SHA256:ann"); err != nil || p.Name != "Anna" {
		t.Fatalf("Ann after a rename and another open: %+v, %v", p, err)
	}
}

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
