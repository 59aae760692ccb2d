package redis

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

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
// a game (record.go's two-phase commit) while the players go on to
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
