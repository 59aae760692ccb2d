package redis

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Options are what Open needs besides the URL.
type Options struct {
	// Replicas is how many replicas must hold a room's change before it
	// counts as done (replicas.go). Below zero it is the default: one
	// under Sentinel, where a failover would otherwise lose what the
	// promoted replica had not received, and none on a single node.
	Replicas int
	// ReplicaWait bounds how long a change waits for them; zero means
	// DefaultReplicaWait.
	ReplicaWait time.Duration
}

// DefaultReplicaWait is how long a change waits for its replicas before
// the player is told it is not confirmed: long enough for a loaded
// replica, short enough for a player waiting on a move.
const DefaultReplicaWait = 2 * time.Second

// Open connects to the Redis at url with the default Options.
func Open(ctx context.Context, url string) (*Store, error) {
	return OpenWith(ctx, url, Options{Replicas: -1})
}

// OpenWith connects to the Redis at url and checks that it answers. A
// plain URL ("redis://[:password@]host:port/db", or rediss:// for TLS)
// names one server; one with master_name names a Sentinel-managed
// primary, as go-redis's ParseFailoverURL reads it
// ("redis://SENTINEL:26379?master_name=NAME&addr=SENTINEL2:26379"): the
// client asks the sentinels where the primary is, and again after a
// failover, so instances follow a promotion without a restart.
func OpenWith(ctx context.Context, url string, o Options) (*Store, error) {
	rdb, where, sentinel, err := dial(url)
	if err != nil {
		return nil, err
	}
	if o.Replicas < 0 {
		o.Replicas = 0
		if sentinel {
			o.Replicas = 1
		}
	}
	if err := rdb.Ping(ctx).Err(); err != nil {
		rdb.Close()
		return nil, fmt.Errorf("reach redis at %s: %w", where, err)
	}
	return ready(ctx, rdb, o, rdb)
}

// ready is the one step every way of opening shares once its client
// answers, so a store opened on a cluster is brought up to date as one
// on a single node is: the wait for replicas (o with its Replicas
// settled), asked of probe (nil: not asked); the room lists a store written before them
// lacks; the players' keys an older version kept elsewhere. On an error
// the client is closed.
func ready(ctx context.Context, rdb redis.UniversalClient, o Options, probe primary) (*Store, error) {
	if o.ReplicaWait <= 0 {
		o.ReplicaWait = DefaultReplicaWait
	}
	s := New(rdb)
	s.repl = replication{n: o.Replicas, wait: o.ReplicaWait}
	if probe != nil {
		s.repl.probe(ctx, probe)
	}
	if err := s.buildLists(ctx); err != nil {
		rdb.Close()
		return nil, err
	}
	if err := s.migratePlayers(ctx); err != nil {
		rdb.Close()
		return nil, err
	}
	return s, nil
}

// dial makes the client url asks for, and says where it points and
// whether through Sentinel. The client keeps to its callers' deadlines:
// the lobby bounds what must not hang (its regular word to the store,
// which tells players when the service is away), and without this a
// stopped Redis would hold each call for every retry's read timeout.
func dial(raw string) (rdb redis.UniversalClient, where string, sentinel bool, err error) {
	if isFailoverURL(raw) {
		opt, err := redis.ParseFailoverURL(raw)
		if err != nil {
			return nil, "", false, fmt.Errorf("redis sentinel url: %w", err)
		}
		where = fmt.Sprintf("primary %q through the sentinels at %s", opt.MasterName, strings.Join(opt.SentinelAddrs, ", "))
		opt.ContextTimeoutEnabled = true
		return redis.NewFailoverClient(opt), where, true, nil
	}
	opt, err := redis.ParseURL(raw)
	if err != nil {
		return nil, "", false, fmt.Errorf("redis url: %w (a Sentinel URL names its primary with master_name=NAME)", err)
	}
	opt.ContextTimeoutEnabled = true
	return redis.NewClient(opt), opt.Addr, false, nil
}

// isFailoverURL reports whether raw names a Sentinel-managed primary.
func isFailoverURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Query().Has("master_name")
}

// Replicas is how many replicas each change waits for (Options.Replicas
// as Open settled it).
func (s *Store) Replicas() int { return s.repl.n }
