package redis

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store"
)

// TestRedisPresence: each instance's heartbeat is one field every
// instance reads; a claim is written once, names its instance and stands
// until replaced; a withdrawn seat keeps its latest let-go time; a claim
// on a deleted room writes nothing; and a heartbeat after Redis lost
// everything says so, so the claims are written again.
func TestRedisPresence(t *testing.T) {
	r := redistest.StartOwn(t, "this test flushes the Redis it starts")
	ctx := context.Background()
	a, b := openRedis(t, r), openRedis(t, r)
	presenceCases(t, a, b)
	if err := a.rdb.FlushAll(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if _, lost, err := a.Heartbeat(ctx, t0.Add(time.Hour)); err != nil || !lost {
		t.Fatalf("a heartbeat after Redis lost everything: lost %v, %v", lost, err)
	}
	if _, lost, err := a.Heartbeat(ctx, t0.Add(time.Hour+time.Second)); err != nil || lost {
		t.Fatalf("the heartbeat after: lost %v, %v", lost, err)
	}
}

// TestClusterPresence: the same on a Redis Cluster, where the heartbeats
// share one slot and each room's presence is in its room's.
func TestClusterPresence(t *testing.T) {
	c := redistest.StartCluster(t)
	presenceCases(t, openCluster(t, c), openCluster(t, c))
}

func presenceCases(t *testing.T, a, b *Store) {
	t.Helper()
	ctx := context.Background()
	if _, lost, err := a.Heartbeat(ctx, t0); err != nil || lost {
		t.Fatalf("a's first heartbeat: lost %v, %v", lost, err)
	}
	beats, _, err := b.Heartbeat(ctx, t0.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if !beats.At.Equal(t0.Add(time.Second)) || !beats.Last[a.Origin()].Equal(t0) || !beats.Last[b.Origin()].Equal(t0.Add(time.Second)) {
		t.Fatalf("b reads the heartbeats %+v; a beat at %v, b at %v", beats, t0, t0.Add(time.Second))
	}

	m := mustCreate(t, a)
	sp, err := a.ClaimSeats(ctx, m.Code, []int{0, 1}, nil, t0)
	if err != nil || len(sp.Claims) != 0 {
		t.Fatalf("a's claim answers %+v, %v: its own claim left out, no other", sp, err)
	}
	sp, err = b.SeatPresence(ctx, m.Code)
	if err != nil {
		t.Fatal(err)
	}
	if c := sp.Claims[a.Origin()]; len(sp.Claims) != 1 || !slices.Equal(c.Seats, []int{0, 1}) || !c.At.Equal(t0) {
		t.Fatalf("b reads the claims %+v, want a's on seats 0 and 1 written at %v", sp.Claims, t0)
	}

	// a lets seat 1 go, then withdraws at shutdown; an older let-go time
	// never lowers a newer one.
	left := t0.Add(time.Minute)
	if _, err := a.ClaimSeats(ctx, m.Code, []int{0}, map[int]time.Time{1: left}, left); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ClaimSeats(ctx, m.Code, nil, map[int]time.Time{0: left.Add(time.Second), 1: t0}, left.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	sp, err = b.SeatPresence(ctx, m.Code)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]time.Time{0: left.Add(time.Second), 1: left}
	if len(sp.Claims) != 0 || !maps.EqualFunc(sp.Left, want, time.Time.Equal) {
		t.Fatalf("after a withdrew: claims %+v, let go %v, want none and %v", sp.Claims, sp.Left, want)
	}

	if err := a.Delete(ctx, m.Code); err != nil {
		t.Fatal(err)
	}
	if _, err := b.ClaimSeats(ctx, m.Code, []int{1}, nil, left); err != nil {
		t.Fatal(err)
	}
	if n, err := a.rdb.Exists(ctx, presenceKey(m.Code)).Result(); err != nil || n != 0 {
		t.Fatalf("a claim on a deleted room brought its presence back: %d keys, %v", n, err)
	}
	var _ store.Presence = a
}
