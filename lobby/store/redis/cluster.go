package redis

import (
	"context"
	"fmt"
	"strings"

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
	if o.ReplicaWait <= 0 {
		o.ReplicaWait = DefaultReplicaWait
	}
	s := New(rdb)
	s.repl = replication{n: o.Replicas, wait: o.ReplicaWait}
	s.repl.probe(ctx, s.rdb)
	return s, nil
}
