package lobby

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// testRedis is a redis-server of the test's own: a free port on loopback,
// data in the test's temp dir with the append-only file on, so a restart
// keeps what was acknowledged — like a production deployment.
type testRedis struct {
	t    testing.TB
	URL  string
	port int
	dir  string
	cmd  *exec.Cmd
	// external is true when REDIS_URL points at a server the test did not
	// start, which it therefore cannot restart.
	external bool
}

var warnNoRedis sync.Once

// startRedis gives the test a Redis: REDIS_URL if set, else a fresh
// redis-server. Without redis-server the test is skipped loudly, and fails
// when CI is set, so a CI image without Redis cannot pass silently.
func startRedis(t testing.TB) *testRedis {
	t.Helper()
	if url := os.Getenv("REDIS_URL"); url != "" {
		return &testRedis{t: t, URL: url, external: true}
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		msg := "redis-server not found in PATH: Redis store tests NOT RUN (install redis-server or set REDIS_URL)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		warnNoRedis.Do(func() {
			fmt.Fprintf(os.Stderr, "\n!!!!!!!!\n!!! %s\n!!!!!!!!\n\n", msg)
		})
		t.Skip(msg)
	}
	r := &testRedis{t: t, port: freePort(t), dir: t.TempDir()}
	r.URL = "redis://127.0.0.1:" + strconv.Itoa(r.port) + "/0"
	r.start(bin)
	t.Cleanup(r.kill)
	return r
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func (r *testRedis) start(bin string) {
	r.t.Helper()
	r.cmd = exec.Command(bin,
		"--port", strconv.Itoa(r.port), "--bind", "127.0.0.1", "--dir", r.dir,
		"--appendonly", "yes", "--appendfsync", "everysec", "--save", "",
		"--logfile", filepath.Join(r.dir, "redis.log"), "--daemonize", "no")
	if err := r.cmd.Start(); err != nil {
		r.t.Fatalf("start redis-server: %v", err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(r.port), MaxRetries: -1})
	defer rdb.Close()
	deadline := time.Now().Add(10 * time.Second)
	for rdb.Ping(context.Background()).Err() != nil {
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(r.dir, "redis.log"))
			r.t.Fatalf("redis-server on port %d did not answer within 10s:\n%s", r.port, log)
		}
		time.Sleep(10 * time.Millisecond) // polling for readiness
	}
}

// kill stops the server at once, as a crash would.
func (r *testRedis) kill() {
	if r.cmd == nil || r.cmd.Process == nil {
		return
	}
	r.cmd.Process.Kill()
	r.cmd.Wait()
	r.cmd = nil
}

// down kills the server, as a crash would; up starts it again on the same
// port and data directory.
func (r *testRedis) down() {
	r.t.Helper()
	if r.external {
		r.t.Skip("REDIS_URL is set: cannot restart a server this test did not start")
	}
	r.kill()
}

func (r *testRedis) up() { r.t.Helper(); r.start(r.bin()) }

func (r *testRedis) bin() string {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		r.t.Fatal(err)
	}
	return bin
}

// openRedis opens a store on r, closed when the test ends.
func openRedis(t testing.TB, r *testRedis) *RedisStore {
	t.Helper()
	s, err := OpenRedis(context.Background(), r.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
