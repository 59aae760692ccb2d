package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/internal/redistest"
)

// redisCluster is the three-primary Redis Cluster the simulation runs
// against: started here (six redis-server processes, each primary with
// one replica, as deploy/local-cluster.sh runs them) or one already
// running (--redis-cluster).
type redisCluster struct {
	url   string      // go-redis's cluster URL, as --redis-cluster takes it
	nodes []string    // every node's host:port
	procs []*exec.Cmd // the processes started here, killed by stop
}

// startCluster starts six redis-servers on ports from first (0: free
// ports) with their data under dir, and makes them a cluster of three
// primaries with a replica each. A failed start stops what it started.
func startCluster(ctx context.Context, dir string, first int, fsync string) (*redisCluster, error) {
	c := &redisCluster{}
	for i := range 6 {
		port := first + i
		if first == 0 {
			p, err := redistest.FreeClusterPort()
			if err != nil {
				c.stop()
				return nil, err
			}
			port = p
		}
		node := filepath.Join(dir, "node"+strconv.Itoa(port))
		if err := os.MkdirAll(node, 0o755); err != nil {
			c.stop()
			return nil, err
		}
		cmd := exec.Command("redis-server", "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", node,
			"--appendonly", "yes", "--appendfsync", fsync, "--save", "",
			"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000",
			"--logfile", filepath.Join(node, "redis.log"))
		// The servers die with this process, however it ends: never a
		// cluster left running.
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			c.stop()
			return nil, fmt.Errorf("start redis-server (apt install redis-server redis-tools): %w", err)
		}
		c.procs = append(c.procs, cmd)
		addr := "127.0.0.1:" + strconv.Itoa(port)
		c.nodes = append(c.nodes, addr)
		if err := waitPort(addr, 10*time.Second); err != nil {
			c.stop()
			return nil, err
		}
	}
	args := append(append([]string{"--cluster", "create"}, c.nodes...), "--cluster-replicas", "1", "--cluster-yes")
	if out, err := exec.CommandContext(ctx, "redis-cli", args...).CombinedOutput(); err != nil {
		c.stop()
		return nil, fmt.Errorf("redis-cli --cluster create: %v\n%s", err, out)
	}
	c.url = "redis://" + c.nodes[0] + "?addr=" + strings.Join(c.nodes[1:3], "&addr=")
	if err := c.waitHealthy(ctx, 30*time.Second); err != nil {
		c.stop()
		return nil, err
	}
	return c, nil
}

// existingCluster is a cluster already running at url.
func existingCluster(url string) (*redisCluster, error) {
	opt, err := redis.ParseClusterURL(url)
	if err != nil {
		return nil, fmt.Errorf("--redis-cluster: %w", err)
	}
	return &redisCluster{url: url, nodes: opt.Addrs}, nil
}

// stop kills the servers started here and waits for them.
func (c *redisCluster) stop() {
	for _, p := range c.procs {
		_ = p.Process.Kill()
		_ = p.Wait()
	}
	c.procs = nil
}

// waitHealthy waits until every node says cluster_state:ok.
func (c *redisCluster) waitHealthy(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		ok := 0
		for _, addr := range c.nodes {
			rdb := redis.NewClient(&redis.Options{Addr: addr})
			info, err := rdb.ClusterInfo(ctx).Result()
			rdb.Close()
			if err == nil && strings.Contains(info, "cluster_state:ok") {
				ok++
			}
		}
		if ok == len(c.nodes) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the redis cluster is not cluster_state:ok after %s", limit)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// primaries are the nodes that are primaries now (INFO replication).
func (c *redisCluster) primaries(ctx context.Context) ([]string, error) {
	var out []string
	for _, addr := range c.nodes {
		rdb := redis.NewClient(&redis.Options{Addr: addr})
		info, err := rdb.Info(ctx, "replication").Result()
		rdb.Close()
		if err != nil {
			return nil, fmt.Errorf("INFO replication of %s: %w", addr, err)
		}
		if infoField(info, "role") == "master" {
			out = append(out, addr)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no primary among %v", c.nodes)
	}
	return out, nil
}

// infoField is one field of an INFO answer ("name:value" lines).
func infoField(info, name string) string {
	sc := bufio.NewScanner(strings.NewReader(info))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), name+":"); ok {
			return v
		}
	}
	return ""
}

func waitPort(addr string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis-server at %s not answering after %s", addr, limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
