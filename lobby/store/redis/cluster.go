package redis

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"
)

// OpenCluster connects to the Redis Cluster at url with the default
// Options: each room's change waits for one replica of its slot's
// primary, as a primary's failover would otherwise lose what its replica
// had not received.
func OpenCluster(ctx context.Context, url string) (*Store, error) {
	return OpenClusterWith(ctx, url, Options{Replicas: -1})
}

// OpenClusterWith connects to the Redis Cluster whose nodes url names
// ("redis://[:password@]NODE1:6379?addr=NODE2:6379&addr=NODE3:6379", or
// rediss:// for TLS; go-redis learns the rest of the cluster from them)
// and checks that every primary answers. The wait for replicas (WAIT,
// replicas.go) goes in the script's pipeline, which go-redis sends to
// the node of the script's slot on one connection, so it waits for that
// slot's replicas.
func OpenClusterWith(ctx context.Context, url string, o Options) (*Store, error) {
	opt, err := redis.ParseClusterURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis cluster url: %w", err)
	}
	rdb := redis.NewClusterClient(opt)
	err = rdb.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		return node.Ping(ctx).Err()
	})
	if err != nil {
		rdb.Close()
		return nil, fmt.Errorf("reach the redis cluster at %s: %w", strings.Join(opt.Addrs, ", "), err)
	}
	if o.Replicas < 0 {
		o.Replicas = 1
	}
	// Asked of one primary's own client: the cluster client looks a
	// command up in the server's table to route it, and logs one an older
	// Redis lacks ("info for cmd=waitaof not found") at every start.
	var probe primary
	if node, err := rdb.MasterForKey(ctx, indexChannel); err == nil {
		probe = node
	}
	return ready(ctx, rdb, o, probe)
}

// nodeFor is where a write to key and its wait for replicas go: on a
// cluster, the node serving key's slot now, as WAIT counts the replicas
// of its own connection's node and go-redis would send a keyless WAIT to
// any primary; elsewhere the store's client.
func (s *Store) nodeFor(ctx context.Context, key string) redis.Cmdable {
	cc, ok := s.rdb.(*redis.ClusterClient)
	if !ok {
		return s.rdb
	}
	node, err := cc.MasterForKey(ctx, key)
	if err != nil {
		return s.rdb
	}
	return node
}

// redirected is the node a write refused with MOVED (its slot moved to
// another node, which the refusal names) should go to, or nil for any
// other error. The cluster is asked where the slots are now, for the
// writes after it.
func (s *Store) redirected(ctx context.Context, err error) redis.Cmdable {
	cc, ok := s.rdb.(*redis.ClusterClient)
	if !ok || !redis.HasErrorPrefix(err, "MOVED") {
		return nil
	}
	cc.ReloadState(ctx)
	f := strings.Fields(err.Error()) // MOVED SLOT HOST:PORT
	if len(f) != 3 {
		return nil
	}
	var found *redis.Client
	var mu sync.Mutex
	_ = cc.ForEachShard(ctx, func(_ context.Context, c *redis.Client) error {
		if c.Options().Addr == f[2] {
			mu.Lock()
			found = c
			mu.Unlock()
		}
		return nil
	})
	if found == nil {
		return nil
	}
	return found
}
