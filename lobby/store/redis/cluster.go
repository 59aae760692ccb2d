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

// slotOf is the cluster slot of key (or sharded channel), as Redis
// Cluster computes it, for grouping subscriptions; 0 for every key on a
// single node, where one subscription holds them all.
func (s *Store) slotOf(key string) int {
	if _, ok := s.rdb.(*redis.ClusterClient); !ok {
		return 0
	}
	return Slot(key)
}

// Slot is key's Redis Cluster hash slot: CRC16 (XMODEM) of its hash tag,
// the part between the first { and the next }, when that is not empty,
// else of the whole key, modulo 16384.
func Slot(key string) int {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	var crc uint16
	for i := 0; i < len(key); i++ {
		crc ^= uint16(key[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return int(crc) % 16384
}
