package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cluster is a Redis Cluster of three primaries, each with one replica,
// on free loopback ports: six redis-server processes, each with its data
// in a directory of its own and the append-only file on, and a node
// timeout of NodeTimeout, so a killed primary's replica takes over within
// a second or two.
type Cluster struct {
	// URL names every node in go-redis's cluster URL form
	// (redis://HOST:PORT?addr=HOST:PORT&…), as --redis-cluster takes it.
	URL string
	// Nodes are the six servers; which of them are primaries changes with
	// failovers (Primary tells).
	Nodes []*Server

	t testing.TB
}

// NodeTimeout is the cluster's cluster-node-timeout: how long a silent
// primary has before its replica is promoted.
const NodeTimeout = 1000 * time.Millisecond

// StartCluster gives the test a fresh Redis Cluster, killed when the test
// ends, once every slot is served and every replica has synced. Without
// redis-server (or redis-cli, which creates the cluster) the test is
// skipped loudly, and fails when CI is set. REDIS_URL is no help here:
// the test needs nodes it can kill.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	bin := lookRedis(t, "redis-server")
	cli := lookRedis(t, "redis-cli")
	c := &Cluster{t: t}
	var addrs []string
	for range 6 {
		port, err := FreeClusterPort()
		if err != nil {
			t.Fatal(err)
		}
		s := &Server{t: t, bin: bin, port: port, dir: t.TempDir()}
		s.args = s.clusterArgs()
		s.URL = s.url()
		t.Cleanup(s.Kill)
		if err := s.start(); err != nil {
			t.Fatal(err)
		}
		c.Nodes = append(c.Nodes, s)
		addrs = append(addrs, s.Addr())
	}
	c.URL = "redis://" + addrs[0] + "?addr=" + strings.Join(addrs[1:], "&addr=")
	create := exec.Command(cli, append(append([]string{"--cluster", "create"}, addrs...),
		"--cluster-replicas", "1", "--cluster-yes")...)
	if out, err := create.CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	if err := c.WaitHealthy(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	return c
}

// lookRedis finds a Redis program, or skips (fails under CI) without it.
func lookRedis(t testing.TB, name string) string {
	t.Helper()
	bin, err := exec.LookPath(name)
	if err != nil {
		msg := name + " not found in PATH: Redis Cluster tests NOT RUN (install redis-server and redis-tools)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		warnNoRedis.Do(func() { fmt.Fprintf(os.Stderr, "\n!!!!!!!!\n!!! %s\n!!!!!!!!\n\n", msg) })
		t.Skip(msg)
	}
	return bin
}

// FreeClusterPort finds a port p nobody listens on whose cluster bus port,
// p+10000, is free too: for a cluster node, here or in a tool that starts
// its own (cmd/smokesim).
func FreeClusterPort() (int, error) {
	for range 50 {
		p, err := freePort()
		if err != nil {
			return 0, err
		}
		if p+10000 > 65535 {
			continue
		}
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p+10000))
		if err != nil {
			continue
		}
		l.Close()
		return p, nil
	}
	return 0, fmt.Errorf("no free port with a free cluster bus port (+10000)")
}

// Client is a cluster client of the test's own, closed when it ends.
func (c *Cluster) Client() *redis.ClusterClient {
	opt, err := redis.ParseClusterURL(c.URL)
	if err != nil {
		c.t.Fatal(err)
	}
	rdb := redis.NewClusterClient(opt)
	c.t.Cleanup(func() { rdb.Close() })
	return rdb
}

// Primary returns the node that serves key's slot now, as the live nodes
// see it.
func (c *Cluster) Primary(key string) *Server {
	c.t.Helper()
	ctx := context.Background()
	for _, n := range c.Nodes {
		if n.cmd == nil {
			continue
		}
		rdb := redis.NewClient(&redis.Options{Addr: n.Addr(), MaxRetries: -1})
		slot, err := rdb.ClusterKeySlot(ctx, key).Result()
		var slots []redis.ClusterSlot
		if err == nil {
			slots, err = rdb.ClusterSlots(ctx).Result()
		}
		rdb.Close()
		if err != nil {
			continue
		}
		for _, s := range slots {
			if int64(s.Start) <= slot && slot <= int64(s.End) && len(s.Nodes) > 0 {
				for _, m := range c.Nodes {
					if m.Addr() == s.Nodes[0].Addr {
						return m
					}
				}
			}
		}
	}
	c.t.Fatalf("no live node knows who serves %q", key)
	return nil
}

// MoveSlot moves the slot of key, with its keys, to the primary to, as
// an operator resharding the cluster would: the slot is marked
// importing on to and migrating on its primary, its keys MIGRATEd, and
// every node told its new owner.
func (c *Cluster) MoveSlot(key string, to *Server) {
	c.t.Helper()
	ctx := context.Background()
	from := c.Primary(key)
	src, dst := c.node(from), c.node(to)
	slot, err := src.ClusterKeySlot(ctx, key).Result()
	if err != nil {
		c.t.Fatal(err)
	}
	srcID, dstID := src.ClusterMyID(ctx).Val(), dst.ClusterMyID(ctx).Val()
	must := func(err error) {
		if err != nil {
			c.t.Helper()
			c.t.Fatalf("move slot %d: %v", slot, err)
		}
	}
	must(dst.Do(ctx, "CLUSTER", "SETSLOT", slot, "IMPORTING", srcID).Err())
	must(src.Do(ctx, "CLUSTER", "SETSLOT", slot, "MIGRATING", dstID).Err())
	for {
		keys, err := src.ClusterGetKeysInSlot(ctx, int(slot), 100).Result()
		must(err)
		if len(keys) == 0 {
			break
		}
		args := []any{"MIGRATE", "127.0.0.1", to.port, "", 0, 5000, "KEYS"}
		for _, k := range keys {
			args = append(args, k)
		}
		must(src.Do(ctx, args...).Err())
	}
	// The new owner first, then the old, then the other primaries, as
	// the cluster tutorial orders it, so no node sends clients back and
	// forth; replicas learn it from their primaries.
	must(dst.Do(ctx, "CLUSTER", "SETSLOT", slot, "NODE", dstID).Err())
	must(src.Do(ctx, "CLUSTER", "SETSLOT", slot, "NODE", dstID).Err())
	for _, n := range c.Primaries() {
		if n != from && n != to {
			must(c.node(n).Do(ctx, "CLUSTER", "SETSLOT", slot, "NODE", dstID).Err())
		}
	}
}

// node is a plain client of one node, closed when the test ends.
func (c *Cluster) node(n *Server) *redis.Client {
	rdb := redis.NewClient(&redis.Options{Addr: n.Addr(), MaxRetries: -1})
	c.t.Cleanup(func() { rdb.Close() })
	return rdb
}

// Primaries are the nodes that serve slots now.
func (c *Cluster) Primaries() []*Server {
	c.t.Helper()
	var out []*Server
	for _, n := range c.Nodes {
		if n.cmd == nil {
			continue
		}
		role, err := c.node(n).Do(context.Background(), "ROLE").Slice()
		if err == nil && len(role) > 0 && role[0] == "master" {
			out = append(out, n)
		}
	}
	return out
}

// ReplicaOf returns a live replica of primary, or nil.
func (c *Cluster) ReplicaOf(primary *Server) *Server {
	c.t.Helper()
	for _, n := range c.Nodes {
		if n.cmd == nil || n == primary {
			continue
		}
		role, err := c.node(n).Do(context.Background(), "ROLE").Slice()
		if err == nil && len(role) > 2 && role[0] == "slave" && fmt.Sprint(role[2]) == strconv.Itoa(primary.port) {
			return n
		}
	}
	return nil
}

// WaitHealthy waits until every live node says cluster_state:ok, serves
// or replicates its part of all 16384 slots, and every replica's link to
// its primary is up.
func (c *Cluster) WaitHealthy(within time.Duration) error {
	deadline := time.Now().Add(within)
	var last string
	for time.Now().Before(deadline) {
		if last = c.unhealthy(); last == "" {
			return nil
		}
		time.Sleep(50 * time.Millisecond) // polling the nodes' own view
	}
	return fmt.Errorf("redis cluster not healthy within %s: %s", within, last)
}

// unhealthy says what is not ready yet, or "" when all is.
func (c *Cluster) unhealthy() string {
	ctx := context.Background()
	for _, n := range c.Nodes {
		if n.cmd == nil {
			continue
		}
		rdb := redis.NewClient(&redis.Options{Addr: n.Addr(), MaxRetries: -1})
		info, err := rdb.ClusterInfo(ctx).Result()
		var repl string
		if err == nil {
			repl, err = rdb.Info(ctx, "replication").Result()
		}
		rdb.Close()
		switch {
		case err != nil:
			return n.Addr() + ": " + err.Error()
		case !strings.Contains(info, "cluster_state:ok"), !strings.Contains(info, "cluster_slots_ok:16384"):
			return n.Addr() + " says " + strings.Join(strings.Fields(info)[:3], " ")
		case strings.Contains(repl, "role:slave") && !strings.Contains(repl, "master_link_status:up"):
			return n.Addr() + ": replica not synced"
		}
	}
	return ""
}

// Restart starts a killed node again, on its port and data directory; it
// rejoins the cluster as it left it (a failed-over primary comes back as
// its successor's replica).
func (c *Cluster) Restart(n *Server) {
	c.t.Helper()
	if err := n.start(); err != nil {
		c.t.Fatal(err)
	}
}

// clusterArgs are the extra redis-server arguments of a cluster node.
func (s *Server) clusterArgs() []string {
	return []string{"--cluster-enabled", "yes",
		"--cluster-config-file", filepath.Join(s.dir, "nodes.conf"),
		"--cluster-node-timeout", strconv.Itoa(int(NodeTimeout.Milliseconds()))}
}
