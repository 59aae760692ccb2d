package redis

import (
	"context"
	"errors"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store"
)

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
