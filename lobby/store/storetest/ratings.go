package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/smokestack/smokestack/lobby/store"
)

// ratings holds the store's records to the same behaviour: an
// outcome is kept once per room, ratings change only from the values the
// outcome was worked out from, and solo records add up.
func ratings(t *testing.T, rs store.Ratings) {
	ctx := context.Background()
	u := newCode()
	game, a, b := "g"+u, "SHA256:a"+u, "SHA256:b"+u
	if got, err := rs.Ratings(ctx, game, []string{a, b}); err != nil || len(got) != 0 {
		t.Fatalf("ratings before any game: %v, %v", got, err)
	}
	first := store.Outcome{Code: "R1" + u, Game: game, At: t0, Rated: []store.RatingChange{
		{Seat: 0, Player: a, Before: store.Rating{Mu: 25, Sigma: 8}, After: store.Rating{Mu: 27, Sigma: 7.9, Games: 1}},
		{Seat: 1, Player: b, Before: store.Rating{Mu: 25, Sigma: 8}, After: store.Rating{Mu: 23, Sigma: 7.9, Games: 1}},
	}}
	kept, err := rs.Record(ctx, first)
	if err != nil || kept.Code != first.Code || len(kept.Rated) != 2 {
		t.Fatalf("record: %+v, %v", kept, err)
	}
	// The same room again, worked out anew from the old ratings: nothing
	// changes, and the first outcome is what comes back.
	again := first
	again.Rated = []store.RatingChange{{Seat: 0, Player: a, Before: store.Rating{Mu: 25, Sigma: 8}, After: store.Rating{Mu: 99, Sigma: 1, Games: 1}}}
	if kept, err := rs.Record(ctx, again); err != nil || kept.Rated[0].After.Mu != 27 {
		t.Fatalf("second record of the same room: %+v, %v; want the first kept", kept, err)
	}
	got, err := rs.Ratings(ctx, game, []string{a, b, "SHA256:nobody"})
	if err != nil || got[a] != first.Rated[0].After || got[b] != first.Rated[1].After || len(got) != 2 {
		t.Fatalf("ratings after one game: %+v, %v", got, err)
	}
	// Another room worked out from ratings that changed since: refused.
	stale := store.Outcome{Code: "R2" + u, Game: game, Rated: []store.RatingChange{
		{Seat: 0, Player: a, Before: store.Rating{Mu: 25, Sigma: 8}, After: store.Rating{Mu: 26, Sigma: 7, Games: 1}},
	}}
	if _, err := rs.Record(ctx, stale); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a record from stale ratings: %v, want ErrConflict", err)
	}
	if _, err := rs.Outcome(ctx, stale.Code); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the refused record was kept: %v", err)
	}
	if o, err := rs.Outcome(ctx, first.Code); err != nil || o.Rated[1].After != first.Rated[1].After {
		t.Fatalf("outcome of the first room: %+v, %v", o, err)
	}
	board, err := rs.Leaderboard(ctx, game, 10)
	if err != nil || len(board) != 2 || board[0].Player != a || board[0].Rating != first.Rated[0].After {
		t.Fatalf("leaderboard: %+v, %v", board, err)
	}
	if other, err := rs.Leaderboard(ctx, "other"+u, 10); err != nil || len(other) != 0 {
		t.Fatalf("leaderboard of another game: %+v, %v", other, err)
	}

	// Solo records add up by opponent.
	solo := func(code, opponent string, won bool, score int) store.SoloRecord {
		t.Helper()
		o, err := rs.Record(ctx, store.Outcome{Code: code + u, Game: game, Solo: &store.SoloResult{Player: a, Won: won, Score: score,
			Record: store.SoloRecord{Game: game, Opponent: opponent}}})
		if err != nil || o.Solo == nil {
			t.Fatalf("solo record: %+v, %v", o, err)
		}
		return o.Solo.Record
	}
	solo("S1", "The Machine (hard)", false, 30)
	solo("S2", "The Machine (hard)", true, 41)
	if rec := solo("S3", "The Machine (hard)", false, 35); rec != (store.SoloRecord{Game: game, Opponent: "The Machine (hard)", Wins: 1, Losses: 2, Best: 41}) {
		t.Fatalf("record after three hard games: %+v", rec)
	}
	solo("S4", "The Machine (easy)", true, 20)
	solo("S2", "The Machine (easy)", true, 99) // S2 is recorded already
	recs, err := rs.SoloRecords(ctx, a)
	want := []store.SoloRecord{
		{Game: game, Opponent: "The Machine (easy)", Wins: 1, Best: 20},
		{Game: game, Opponent: "The Machine (hard)", Wins: 1, Losses: 2, Best: 41},
	}
	if err != nil || !slices.Equal(recs, want) {
		t.Fatalf("solo records: %+v, %v; want %+v", recs, err, want)
	}
	if recs, err := rs.SoloRecords(ctx, b); err != nil || len(recs) != 0 {
		t.Fatalf("b's solo records: %+v, %v", recs, err)
	}
}

// leaderboard holds the store's leaderboards to the same behaviour: the
// n best of a game, best first, however many play it, following each
// recorded game; and a player's place below them.
func leaderboard(t *testing.T, rs store.Ratings) {
	ctx := context.Background()
	u := newCode()
	game := "lb" + u
	want := map[string]store.Rating{}
	// 24 players in 12 games: player i ends on mu 10+i, so ordinals
	// differ and the order is known.
	for g := range 12 {
		o := store.Outcome{Code: fmt.Sprintf("L%d%s", g, u), Game: game, At: t0}
		for seat := range 2 {
			i := 2*g + seat
			p := fmt.Sprintf("SHA256:lb%02d%s", i, u)
			after := store.Rating{Mu: 10 + float64(i), Sigma: 3, Games: 1}
			o.Rated = append(o.Rated, store.RatingChange{Seat: seat, Player: p, Before: store.Rating{Mu: 25, Sigma: 8}, After: after})
			want[p] = after
		}
		if _, err := rs.Record(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string) {
		t.Helper()
		for _, n := range []int{0, 1, 5, 24, 30} {
			got, err := rs.Leaderboard(ctx, game, n)
			if err != nil || !slices.Equal(got, store.Top(want, n)) {
				t.Fatalf("%s: the best %d: %+v, %v; want %+v", when, n, got, err, store.Top(want, n))
			}
		}
		for p := range want {
			if rank, err := rs.Rank(ctx, game, p); err != nil || rank != store.RankIn(want, p) {
				t.Fatalf("%s: the place of %s: %d, %v; want %d", when, p, rank, err, store.RankIn(want, p))
			}
		}
	}
	check("after 12 games")
	// The best loses to the worst: both move, and the board with them.
	best, worst := fmt.Sprintf("SHA256:lb%02d%s", 23, u), fmt.Sprintf("SHA256:lb%02d%s", 0, u)
	o := store.Outcome{Code: "LX" + u, Game: game, At: t0, Rated: []store.RatingChange{
		{Seat: 0, Player: best, Before: want[best], After: store.Rating{Mu: 9, Sigma: 2.5, Games: 2}},
		{Seat: 1, Player: worst, Before: want[worst], After: store.Rating{Mu: 50, Sigma: 2.5, Games: 2}},
	}}
	if _, err := rs.Record(ctx, o); err != nil {
		t.Fatal(err)
	}
	want[best], want[worst] = o.Rated[0].After, o.Rated[1].After
	check("after an upset")
	if rank, err := rs.Rank(ctx, game, "SHA256:nobody"+u); err != nil || rank != 0 {
		t.Fatalf("the place of a player without a rating: %d, %v; want 0", rank, err)
	}
}

// ratingRace: games sharing a player, recorded at once from as many
// instances, each worked out again on ErrConflict as the lobby does
// (players.Record), all count, each once: the shared player ends with
// every game, and every other player with theirs.
func ratingRace(t *testing.T, rs store.Ratings) {
	ctx := context.Background()
	u := newCode()
	game, shared := "race"+u, "SHA256:shared"+u
	const games = 8
	var wg sync.WaitGroup
	errs := make(chan error, games)
	for g := range games {
		wg.Go(func() {
			other := fmt.Sprintf("SHA256:o%d%s", g, u)
			for range 50 {
				now, err := rs.Ratings(ctx, game, []string{shared, other})
				if err != nil {
					errs <- err
					return
				}
				o := store.Outcome{Code: fmt.Sprintf("RR%d%s", g, u), Game: game, At: t0}
				for seat, p := range []string{shared, other} {
					r := now[p]
					o.Rated = append(o.Rated, store.RatingChange{Seat: seat, Player: p, Before: r,
						After: store.Rating{Mu: r.Mu + 1, Sigma: 5, Games: r.Games + 1}})
				}
				_, err = rs.Record(ctx, o)
				if !errors.Is(err, store.ErrConflict) {
					errs <- err
					return
				}
			}
			errs <- fmt.Errorf("game %d conflicted 50 times", g)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := rs.Ratings(ctx, game, []string{shared})
	if err != nil || got[shared].Games != games || got[shared].Mu != games {
		t.Fatalf("the shared player after %d games at once: %+v, %v; want %d games, mu %d", games, got[shared], err, games, games)
	}
	board, err := rs.Leaderboard(ctx, game, 1)
	if err != nil || len(board) != 1 || board[0].Player != shared || board[0].Rating != got[shared] {
		t.Fatalf("the best after the race: %+v, %v; want %s at %+v", board, err, shared, got[shared])
	}
}
