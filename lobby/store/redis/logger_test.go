package redis

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestClientLogOneLinePerBurst: go-redis failing to dial a Redis that is
// away, again and again, makes one structured line at once and one with
// the count when the burst ends, never its own raw lines. Not parallel:
// go-redis's logger is the process's.
func TestClientLogOneLinePerBurst(t *testing.T) {
	var out lockedBuffer
	cl := NewClientLog(slog.New(slog.NewTextHandler(&out, nil)), time.Second)
	redis.SetLogger(cl)
	defer redis.SetLogger(NewClientLog(slog.New(slog.NewTextHandler(os.Stderr, nil)), time.Second))

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	away := l.Addr().String()
	l.Close() // nobody listens there now
	rdb := redis.NewClient(&redis.Options{Addr: away, MaxRetries: -1, DialerRetries: 1})
	defer rdb.Close()
	for range 20 {
		if rdb.Ping(context.Background()).Err() == nil {
			t.Fatal("a Redis answered at an address nobody listens on")
		}
	}
	for cl.Holding() {
		time.Sleep(20 * time.Millisecond) // the burst's summary is due
	}
	var lines []string
	for line := range strings.Lines(out.String()) {
		if strings.Contains(line, away) {
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 || len(lines) > 2 {
		t.Fatalf("%d lines for 20 failed dials, want 1 or 2 (the first, then the count):\n%s", len(lines), out.String())
	}
	for _, line := range lines {
		if !strings.Contains(line, `level=WARN msg="redis client"`) || strings.Contains(line, "said=\"redis: ") {
			t.Fatalf("not a structured warning in the server's words: %s", line)
		}
	}
	counted := 1
	if len(lines) == 2 {
		_, rest, ok := strings.Cut(lines[1], "repeated=")
		if !ok {
			t.Fatalf("the second line does not count the rest: %s", lines[1])
		}
		n, _ := strconv.Atoi(strings.Fields(rest)[0])
		counted += n
	}
	if counted != 20 {
		t.Fatalf("the lines count %d failed dials, want 20:\n%s", counted, out.String())
	}
}
