package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// MasterName is the name the sentinels of StartSentinel know the
// primary by.
const MasterName = "smokestack"

// Sentinel is a primary with replicas and three sentinels watching it,
// each a redis-server of its own on a free loopback port, tuned so that
// a failover takes a few seconds, not the half minute of the defaults.
// A primary is down after 2s without an answer: with less, a sentinel's
// fresh link to a just-promoted primary (pinged once a second) can miss
// its first answer on a loaded machine, and the sentinels fail over
// again, from a healthy primary.
type Sentinel struct {
	// URL names the primary through every sentinel, as the server's
	// --redis takes it: redis://S1?master_name=NAME&addr=S2&addr=S3.
	URL string
	// Nodes are the data servers: the first started as the primary.
	Nodes []*Server

	t         testing.TB
	sentinels []*Server
}

// StartSentinel starts a primary, replicas replicas of it and three
// sentinels (a quorum of two), killed when the test ends. Without
// redis-server the test is skipped, or failed when CI is set, as Start
// does; REDIS_URL plays no part, since a failover needs servers of the
// test's own.
func StartSentinel(t testing.TB, replicas int) *Sentinel {
	t.Helper()
	bin := binary(t)
	s := &Sentinel{t: t}
	primary := startLocal(t, bin)
	s.Nodes = append(s.Nodes, primary)
	for range replicas {
		s.Nodes = append(s.Nodes, startLocal(t, bin, "--replicaof", "127.0.0.1", strconv.Itoa(primary.port)))
	}
	var addrs []string
	for range 3 {
		sn := startSentinel(t, bin, primary.port)
		s.sentinels = append(s.sentinels, sn)
		addrs = append(addrs, sn.Addr())
	}
	s.URL = "redis://" + addrs[0] + "?master_name=" + MasterName + "&addr=" + strings.Join(addrs[1:], "&addr=")
	s.AwaitReplicas(replicas, 20*time.Second)
	return s
}

// startSentinel starts one sentinel watching the primary on port.
func startSentinel(t testing.TB, bin string, port int) *Server {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "sentinel.conf")
	text := fmt.Sprintf(`sentinel monitor %[1]s 127.0.0.1 %[2]d 2
sentinel down-after-milliseconds %[1]s 2000
sentinel failover-timeout %[1]s 5000
sentinel parallel-syncs %[1]s 4
`, MasterName, port)
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	sp, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{t: t, bin: bin, port: sp, dir: dir, sentinel: conf}
	s.URL = s.url()
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Kill)
	return s
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// Pause stops the server's process (SIGSTOP): it holds its connections
// but answers nothing, as a server stuck or cut off would.
func (s *Server) Pause() { s.signal(syscall.SIGSTOP) }

// Resume lets a paused server go on (SIGCONT).
func (s *Server) Resume() { s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig syscall.Signal) {
	s.t.Helper()
	if s.cmd == nil || s.cmd.Process == nil {
		s.t.Fatal("signal to a server that is not running")
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatal(err)
	}
}

// Primary is the node the sentinels name as the primary now.
func (s *Sentinel) Primary() *Server {
	s.t.Helper()
	addr, err := s.primaryAddr(context.Background())
	if err != nil {
		s.t.Fatal(err)
	}
	return s.node(addr)
}

func (s *Sentinel) node(addr string) *Server {
	for _, n := range s.Nodes {
		if n.Addr() == addr {
			return n
		}
	}
	s.t.Fatalf("the sentinels name %s, none of the nodes", addr)
	return nil
}

// primaryAddr is the primary every sentinel names, or an error while
// they disagree.
func (s *Sentinel) primaryAddr(ctx context.Context) (string, error) {
	var addr string
	for _, sn := range s.sentinels {
		c := redis.NewSentinelClient(&redis.Options{Addr: sn.Addr(), MaxRetries: -1})
		got, err := c.GetMasterAddrByName(ctx, MasterName).Result()
		c.Close()
		if err != nil {
			return "", fmt.Errorf("sentinel %s: %w", sn.Addr(), err)
		}
		a := net.JoinHostPort(got[0], got[1])
		if addr != "" && a != addr {
			return "", fmt.Errorf("sentinels disagree: %s and %s", addr, a)
		}
		addr = a
	}
	return addr, nil
}

// AwaitFailover waits until every sentinel names a primary other than
// old and that node answers as a primary, and returns it.
func (s *Sentinel) AwaitFailover(old *Server, within time.Duration) *Server {
	s.t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(within)
	for {
		addr, err := s.primaryAddr(ctx)
		if err == nil && addr != old.Addr() && role(ctx, addr) == "master" {
			return s.node(addr)
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("no failover from %s within %s (last: %s, %v)", old.Addr(), within, addr, err)
		}
		time.Sleep(20 * time.Millisecond) // polling the sentinels
	}
}

// Rejoin starts a killed node again as a replica of the primary now, as
// an operator (or a supervisor with the sentinels' word) would.
func (s *Sentinel) Rejoin(n *Server) {
	s.t.Helper()
	n.args = []string{"--replicaof", "127.0.0.1", strconv.Itoa(s.Primary().port)}
	n.Up()
}

// AwaitReplicas waits until the primary has n replicas online and every
// sentinel knows n replicas of it up, so that the next failover has a
// replica to promote.
func (s *Sentinel) AwaitReplicas(n int, within time.Duration) {
	s.t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(within)
	for {
		err := s.healthy(ctx, n)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("not %d healthy replicas within %s: %v", n, within, err)
		}
		time.Sleep(50 * time.Millisecond) // polling the nodes
	}
}

func (s *Sentinel) healthy(ctx context.Context, n int) error {
	addr, err := s.primaryAddr(ctx)
	if err != nil {
		return err
	}
	if r := role(ctx, addr); r != "master" {
		return fmt.Errorf("%s answers as %q", addr, r)
	}
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	info, err := c.Info(ctx, "replication").Result()
	c.Close()
	if err != nil {
		return err
	}
	if online := strings.Count(info, "state=online"); online < n {
		return fmt.Errorf("primary %s has %d replicas online", addr, online)
	}
	for _, sn := range s.sentinels {
		c := redis.NewSentinelClient(&redis.Options{Addr: sn.Addr(), MaxRetries: -1})
		reps, err := c.Replicas(ctx, MasterName).Result()
		c.Close()
		if err != nil {
			return err
		}
		ok := 0
		for _, r := range reps {
			if r["flags"] == "slave" {
				ok++
			}
		}
		if ok < n {
			return fmt.Errorf("sentinel %s counts %d healthy replicas of %s", sn.Addr(), ok, addr)
		}
	}
	return nil
}

// role is what the server at addr says it is: master, slave, or "" when
// it does not answer.
func role(ctx context.Context, addr string) string {
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialTimeout: time.Second})
	defer c.Close()
	v, err := c.Do(ctx, "ROLE").Slice()
	if err != nil || len(v) == 0 {
		return ""
	}
	r, _ := v[0].(string)
	return r
}

// StartReplica starts a replica of the server at addr (host:port: a
// Proxy's, say), killed when the test ends, once it is in sync.
func StartReplica(t testing.TB, addr string) *Server {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	r := startLocal(t, binary(t), "--replicaof", host, port)
	ctx := context.Background()
	c := redis.NewClient(&redis.Options{Addr: r.Addr(), MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		info, err := c.Info(ctx, "replication").Result()
		if err == nil && strings.Contains(info, "master_link_status:up") {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica of %s not in sync within 10s: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond) // polling the replica
	}
}

// Describe says what each node and sentinel thinks now, for a test's
// failure message.
func (s *Sentinel) Describe() string {
	ctx := context.Background()
	var b strings.Builder
	for _, n := range s.Nodes {
		c := redis.NewClient(&redis.Options{Addr: n.Addr(), MaxRetries: -1, DialTimeout: time.Second})
		info, err := c.Info(ctx, "replication").Result()
		c.Close()
		if err != nil {
			fmt.Fprintf(&b, "node %s: %v\n", n.Addr(), err)
			continue
		}
		var lines []string
		for line := range strings.Lines(info) {
			if l := strings.TrimSpace(line); strings.HasPrefix(l, "role:") || strings.HasPrefix(l, "master_port:") ||
				strings.HasPrefix(l, "master_link_status:") || strings.HasPrefix(l, "slave") && strings.Contains(l, "ip=") {
				lines = append(lines, l)
			}
		}
		fmt.Fprintf(&b, "node %s: %s\n", n.Addr(), strings.Join(lines, " "))
	}
	for _, sn := range s.sentinels {
		c := redis.NewSentinelClient(&redis.Options{Addr: sn.Addr(), MaxRetries: -1})
		got, err := c.GetMasterAddrByName(ctx, MasterName).Result()
		c.Close()
		fmt.Fprintf(&b, "sentinel %s: primary %v %v\n", sn.Addr(), got, err)
	}
	return b.String()
}
