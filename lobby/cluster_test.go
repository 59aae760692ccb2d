package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/room"
)

func TestRedisTwoInstancesPlayOut(t *testing.T) {
	t.Parallel()
	g := newRedisGame(t, 7)
	g.play(t, -1)
	g.sameEverywhere(t)
	a, b := g.seats[0].view(), g.seats[1].view()
	if a.Over == false || a.Scores == nil || !slices.Equal(a.Scores, b.Scores) {
		t.Fatalf("players see different ends: %+v vs %+v", a.Scores, b.Scores)
	}
	if g.moves < 20 {
		t.Fatalf("game over after only %d moves", g.moves)
	}
}

// TestRedisRacingInstances hammers the room from both instances at once:
// each seat is played by a session on each instance, all four moving as
// fast as they can. Every accepted move must be in the log exactly once.
func TestRedisRacingInstances(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newRedisGame(t, 11)
	// Each player also joins through the other instance.
	ab, err := g.b.lobby.Join(ctx, g.code, g.alice)
	if err != nil {
		t.Fatal(err)
	}
	ba, err := g.a.lobby.Join(ctx, g.code, g.bob)
	if err != nil {
		t.Fatal(err)
	}
	racers := []*session{g.seats[0], g.seats[1], {name: "alice@b", c: ab}, {name: "bob@a", c: ba}}
	var accepted atomic.Int64
	errs := make([]error, len(racers))
	var wg sync.WaitGroup
	for i, s := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = race(ctx, s, &accepted)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	_, moves, err := g.a.store.Load(ctx, g.code, 0)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(moves)) != accepted.Load() {
		t.Fatalf("redis holds %d moves, %d were accepted", len(moves), accepted.Load())
	}
	// The stored log is a valid game: it replays move by move to its end.
	_, frames, err := g.a.lobby.Replay(ctx, g.code, g.alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != len(moves)+1 {
		t.Fatalf("replay has %d frames for %d moves", len(frames), len(moves))
	}
	g.moves = len(moves)
	g.synced(t, g.moves)
	g.sameEverywhere(t)
	if g.watchers[0].view().Over == false {
		t.Fatal("racers stopped before the game ended")
	}
	t.Logf("%d moves accepted from 4 racing sessions on 2 instances", len(moves))
}

// race plays s's seat until the game ends, counting accepted moves. A move
// chosen from a view that is already stale may be refused; the session
// then waits for the newer view, as a person would.
func race(ctx context.Context, s *session, accepted *atomic.Int64) error {
	deadline := time.Now().Add(40 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := s.await(10*time.Second, func(Update) bool { return true }); err != nil {
			return err
		}
		u := s.last
		v := s.view()
		if u.Room.Over || v.Over {
			return nil
		}
		if len(v.Legal) == 0 {
			// Not this seat's turn: wait for anything newer.
			if _, err := s.await(10*time.Second, func(n Update) bool { return n.Version != u.Version || n.Room.Over }); err != nil {
				return err
			}
			continue
		}
		raw, _ := json.Marshal(pick(v.Legal))
		if err := s.c.Move(ctx, raw); err == nil {
			accepted.Add(1)
			continue
		} else if errors.Is(err, room.ErrNotPlayed) {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		// Refused as stale: the newer state is on its way (or here).
		_, _ = s.await(200*time.Millisecond, func(n Update) bool { return n.Version != u.Version })
	}
	return fmt.Errorf("%s: game not over after 40s", s.name)
}

// TestRedisInstanceKilled: instance b dies mid-game; bob reconnects through
// the balancer to instance a, lands in his seat and the game finishes.
func TestRedisInstanceKilled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newRedisGame(t, 5)
	g.play(t, 15)
	before := g.seats[1].last
	g.b.kill()
	c, err := g.a.lobby.Join(ctx, g.code, g.bob)
	if err != nil {
		t.Fatal(err)
	}
	bob := &session{name: "bob@a", c: c}
	if u, err := bob.await(5*time.Second, atVersion(g.moves)); err != nil || string(u.View) != string(before.View) || c.Seat() != 1 {
		t.Fatalf("bob back on a: seat %d, view as before %v, err %v", c.Seat(), string(u.View) == string(before.View), err)
	}
	g.seats[1] = bob
	// A new instance comes up in b's place and shows the room too.
	g.b = newInstance(t, g.r)
	w, err := g.b.lobby.Watch(ctx, g.invite, Player{ID: "key:watcher"})
	if err != nil {
		t.Fatal(err)
	}
	g.watchers[1] = &session{name: "watcher@new", c: w}
	g.play(t, -1)
	if g.watchers[0].view().Over == false {
		t.Fatal("game did not finish on the surviving instance")
	}
	g.sameEverywhere(t)
}

// TestRedisRestart: Redis dies mid-game. A move then fails as a whole,
// with a notice on the player's screen, and leaves no trace in the log;
// once Redis is back (its append-only file intact) both instances resync
// by themselves and the game finishes.
func TestRedisRestart(t *testing.T) {
	t.Parallel()
	g := newRedisGame(t, 3)
	g.play(t, 10)
	g.r.Down()

	seat := 0
	if len(g.seats[0].view().Legal) == 0 {
		seat = 1
	}
	s := g.seats[seat]
	raw, _ := json.Marshal(pick(s.view().Legal))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.c.Move(ctx, raw); !errors.Is(err, room.ErrNotPlayed) {
		t.Fatalf("move with redis down: %v, want errUnavailable", err)
	}
	if u, err := s.await(5*time.Second, func(u Update) bool { return u.Notice != "" }); err != nil || u.Version != g.moves {
		t.Fatalf("no notice after a failed move (version %d, want %d): %v", u.Version, g.moves, err)
	}

	g.r.Up()
	_, moves, err := g.a.store.Load(ctx, g.code, 0)
	if err != nil {
		t.Fatalf("load after restart: %v", err)
	}
	if len(moves) != g.moves {
		t.Fatalf("redis holds %d moves after restart, want %d", len(moves), g.moves)
	}
	for _, s := range g.all() {
		if _, err := s.await(10*time.Second, func(u Update) bool { return u.Notice == "" }); err != nil {
			t.Fatalf("no recovery after restart: %v", err)
		}
		// Presence heals too: each instance shows the other's player at
		// the table, which only that instance's claim can tell it.
		if _, err := s.await(10*time.Second, func(u Update) bool { return seatShown(0, true)(u) && seatShown(1, true)(u) }); err != nil {
			t.Fatalf("presence did not heal after restart: %v", err)
		}
	}
	g.play(t, -1)
	if g.watchers[0].view().Over == false {
		t.Fatal("game did not finish after the restart")
	}
	g.sameEverywhere(t)
}
