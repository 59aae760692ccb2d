package lobby

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
)

// monitor counts the commands Redis runs from now on (MONITOR) whose line
// holds what. MONITOR streams behind the commands it reports, so count
// first sends a marker and waits to see it: every command Redis ran before
// the marker is counted by then.
func monitor(t *testing.T, r *redistest.Server, what string) (count func() int) {
	t.Helper()
	conn, err := net.Dial("tcp", r.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := conn.Write([]byte("MONITOR\r\n")); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewReader(conn)
	if ok, err := lines.ReadString('\n'); err != nil || ok != "+OK\r\n" {
		t.Fatalf("MONITOR: %q, %v", ok, err)
	}
	var n atomic.Int64
	markers := make(chan string, 16)
	go func() {
		for {
			line, err := lines.ReadString('\n')
			if err != nil {
				return
			}
			if strings.Contains(line, what) {
				n.Add(1)
			}
			if i := strings.Index(line, `"echo" "monitor-marker-`); i >= 0 {
				markers <- line[i+len(`"echo" "`) : len(line)-len("\"\r\n")]
			}
		}
	}()
	rdb := rawRedis(t, r)
	sent := 0
	return func() int {
		t.Helper()
		sent++
		marker := fmt.Sprintf("monitor-marker-%d", sent)
		if err := rdb.Echo(context.Background(), marker).Err(); err != nil {
			t.Fatal(err)
		}
		deadline := time.After(10 * time.Second)
		for {
			select {
			case m := <-markers:
				if m == marker {
					return int(n.Load())
				}
			case <-deadline:
				t.Fatalf("MONITOR never showed %s", marker)
			}
		}
	}
}
