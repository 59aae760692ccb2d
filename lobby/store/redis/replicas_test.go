package redis

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/storetest"
)

// TestContractSentinel holds the store to the contract through Sentinel,
// every change waiting for the replica.
func TestContractSentinel(t *testing.T) {
	sn := redistest.StartSentinel(t, 1)
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := Open(context.Background(), sn.URL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if s.Replicas() != 1 {
			t.Fatalf("replicas under Sentinel by default: %d, want 1", s.Replicas())
		}
		return s
	})
}

// TestRedisReplicaLoss: a primary dies just after a move is acknowledged,
// before its replica received it, and the replica is promoted. Without
// waiting for replicas the acknowledged move is gone; waiting for one,
// the same move is refused as unconfirmed, and what was confirmed
// survives.
func TestRedisReplicaLoss(t *testing.T) {
	t.Parallel()
	err, kept := lostInFailover(t, 0)
	if err != nil || kept != 1 {
		t.Fatalf("without --redis-replicas: move 1 answered %v, the promoted replica holds %d moves; want it acknowledged and lost (1 kept)", err, kept)
	}
	err, kept = lostInFailover(t, 1)
	if !errors.Is(err, store.ErrUnconfirmed) || kept != 1 {
		t.Fatalf("with --redis-replicas 1: move 1 answered %v, the promoted replica holds %d moves; want ErrUnconfirmed and move 0 kept", err, kept)
	}
}

// lostInFailover plays move 0 (replicated), then move 1 while the
// replication link is stalled, kills the primary and promotes the
// replica; it returns what Append answered for move 1 and how many moves
// the promoted replica holds.
func lostInFailover(t *testing.T, replicas int) (error, int) {
	t.Helper()
	ctx := context.Background()
	primary := redistest.StartOwn(t, "this test kills the primary it starts")
	link := redistest.StartProxy(t, primary.Addr())
	replica := redistest.StartReplica(t, link.Addr)
	s, err := OpenWith(ctx, primary.URL, Options{Replicas: replicas})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m := mustCreate(t, s)
	if err := s.Append(ctx, m.Code, 0, rec(0, `{"kind":"take"}`, t0), engine.Status{}); err != nil {
		t.Fatal(err)
	}
	r := redis.NewClient(&redis.Options{Addr: replica.Addr()})
	defer r.Close()
	for r.LLen(ctx, movesKey(m.Code)).Val() != 1 {
		time.Sleep(10 * time.Millisecond) // polling the replica for move 0
	}

	link.Stall()
	appendErr := s.Append(ctx, m.Code, 1, rec(1, `{"kind":"take"}`, t0), engine.Status{})
	primary.Kill()
	link.Cut()
	if err := r.Do(ctx, "REPLICAOF", "NO", "ONE").Err(); err != nil {
		t.Fatal(err)
	}
	promoted, err := Open(ctx, strings.Replace(primary.URL, primary.Addr(), replica.Addr(), 1))
	if err != nil {
		t.Fatal(err)
	}
	defer promoted.Close()
	_, moves, err := promoted.Load(ctx, m.Code, 0)
	if err != nil {
		t.Fatal(err)
	}
	return appendErr, len(moves)
}

// TestRedisWaitingWritesAreIdempotent: with replicas to wait for, the
// scripts go out in a pipeline with WAIT; a resent append still counts
// as done, never as a conflict, so a move is not played twice, and a
// primary that lost its script cache (a promoted replica) gets the
// script again.
func TestRedisWaitingWritesAreIdempotent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	primary := redistest.StartOwn(t, "this test starts a replica of its own primary")
	redistest.StartReplica(t, primary.Addr())
	s, err := OpenWith(ctx, primary.URL, Options{Replicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m := mustCreate(t, s)
	r := rec(0, `{"kind":"take"}`, t0)
	for range 2 {
		if err := s.Append(ctx, m.Code, 0, r, engine.Status{}); err != nil {
			t.Fatalf("resent append: %v", err)
		}
	}
	if err := s.rdb.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, m.Code, 1, rec(1, `{"kind":"take"}`, t0), engine.Status{}); err != nil {
		t.Fatalf("append after the script cache was flushed: %v", err)
	}
	if err := s.Append(ctx, m.Code, 1, rec(0, `{"kind":"done"}`, t0), engine.Status{}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("another writer's move 1: %v, want ErrConflict", err)
	}
	if _, moves, _ := s.Load(ctx, m.Code, 0); len(moves) != 2 {
		t.Fatalf("log holds %d moves, want 2", len(moves))
	}
}

// TestRedisWaitAOFDetected: WAITAOF is used where the primary takes it
// (Redis 7.2 with its append-only file, which redistest turns on), WAIT
// elsewhere.
func TestRedisWaitAOFDetected(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := redistest.Start(t)
	s, err := OpenWith(ctx, r.URL, Options{Replicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	info, err := s.rdb.Info(ctx, "server", "persistence").Result()
	if err != nil {
		t.Fatal(err)
	}
	want := atLeast72(field(info, "redis_version")) && field(info, "aof_enabled") == "1"
	if got := s.repl.aof.Load(); got != want {
		t.Fatalf("WAITAOF used: %v, want %v (redis %s, aof_enabled %s)", got, want, field(info, "redis_version"), field(info, "aof_enabled"))
	}
	if s, err := OpenWith(ctx, r.URL, Options{Replicas: 0}); err != nil || s.Replicas() != 0 {
		t.Fatalf("replicas on a single node: %v", err)
	} else {
		s.Close()
	}
}

// field is a field of INFO's answer.
func field(info, name string) string {
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+":"); ok {
			return v
		}
	}
	return ""
}

// atLeast72 reports whether a Redis version is 7.2 or later.
func atLeast72(version string) bool {
	var major, minor int
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		return false
	}
	for _, c := range parts[0] {
		major = major*10 + int(c-'0')
	}
	for _, c := range parts[1] {
		minor = minor*10 + int(c-'0')
	}
	return major > 7 || major == 7 && minor >= 2
}
