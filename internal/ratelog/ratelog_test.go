package ratelog

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
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

func (b *lockedBuffer) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Split(strings.TrimSpace(b.b.String()), "\n")
}

// A flood of one kind makes one line at once and one summary per
// interval; another kind is not held back by it; a quiet kind is logged at
// once again.
func TestFloodIsSummarised(t *testing.T) {
	var out lockedBuffer
	l := New(slog.New(slog.NewTextHandler(&out, nil)), 50*time.Millisecond)
	for i := range 1000 {
		l.Log(slog.LevelWarn, "refused:rate", "connection refused", "addr", i)
	}
	l.Log(slog.LevelWarn, "refused:banned", "connection refused", "reason", "banned")
	time.Sleep(120 * time.Millisecond) // one interval ends with a summary, the next is quiet
	l.Log(slog.LevelWarn, "refused:rate", "connection refused", "addr", "again")
	time.Sleep(10 * time.Millisecond)

	lines := out.lines()
	want := []string{"addr=0", "reason=banned", "addr=999 repeated=999", "addr=again"}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), strings.Join(lines, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d: %q lacks %q", i, lines[i], w)
		}
	}
}
