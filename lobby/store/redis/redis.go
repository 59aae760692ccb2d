// Package redis is the store in Redis, shared by every server instance
// that connects to it: rooms, players, chat and bans, and the Cluster part
// (presence, changes, failed lookups, operators' requests). keys.go lists
// every key it uses.
package redis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	mrand "math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// Store keeps rooms, players, chat and bans in Redis so that several
// server instances serve one player base, and is their Cluster: presence,
// changes, failed lookups and operators' requests. Every write is a Lua
// script or an optimistic transaction, so its check and its change happen
// as one step however many instances race; a player's change that spans
// slots (a name, a finished game's ratings) is a row of such steps that
// a retry finishes (profiles.go, names.go, record.go). See "Many
// instances" in docs/architecture.md for the design, and keys.go for
// every key.
//
// Every committed change is announced on its room's sharded channel, and
// what lists show on the room index's; the keys, not the message, are the
// truth, so a lost message costs only latency until the next one or the
// next resubscribe.
type Store struct {
	rdb    redis.UniversalClient
	origin string // tells this store's own announcements from others'
	news   news   // the sharded subscriptions of Changes
	heard  atomic.Int64
	repl   replication
	beaten atomic.Bool // a Heartbeat succeeded
	// crashAt, set by a test, stops a Record at the named step as a
	// killed instance would (record.go).
	crashAt func(step string) bool
	// attemptLife, when set by a test, replaces the const of that name.
	attemptLife time.Duration
	pipes       sync.Map // node -> *pipe: the moves sent together (batch.go)
}

// New uses an existing client, such as a redis.ClusterClient.
// Closing the store closes the client.
func New(rdb redis.UniversalClient) *Store {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return &Store{rdb: rdb, origin: hex.EncodeToString(b)}
}

// Origin names this store's instance in what it writes for the others:
// its heartbeat, its claims on seats, its announcements.
func (s *Store) Origin() string { return s.origin }

// announcement is what announces a change to room code (or a chat) on
// the changes channel: this store's origin and the code.
func (s *Store) announcement(code string) string { return s.origin + " " + code }

// Close implements store.Store; it also ends every Changes subscription.
func (s *Store) Close() error {
	s.news.close()
	return s.rdb.Close()
}

// optimistic runs fn as one optimistic transaction over keys (WATCH, then
// MULTI/EXEC): when another client changes them between fn's reads and its
// writes, fn runs again on what is there then, up to ten times, and then
// it is ErrConflict. Those who lost a race together wait apart, a few
// random milliseconds more at each try, or they would meet again.
func (s *Store) optimistic(ctx context.Context, fn func(*redis.Tx) error, keys ...string) error {
	for try := range 10 {
		if try > 0 {
			select {
			case <-time.After(time.Duration(mrand.Int64N(int64(try) * int64(2*time.Millisecond)))):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		err := s.rdb.Watch(ctx, fn, keys...)
		if !errors.Is(err, redis.TxFailedErr) {
			return err
		}
	}
	return store.ErrConflict
}

// Ping implements store.Store.
func (s *Store) Ping(ctx context.Context) error { return s.rdb.Ping(ctx).Err() }

// Cluster implements store.Store: Redis is shared between instances.
func (s *Store) Cluster() store.Cluster { return s }
