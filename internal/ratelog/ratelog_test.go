package ratelog

import (
	"bytes"
	"log/slog"
	"slices"
	"strconv"
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
// interval, which together count every event; another kind is not held
// back by it; a quiet kind is logged at once again. However slowly the
// flood is sent (a loaded machine may stretch it over several intervals),
// the same facts hold: the summaries' counts add up, the last names the
// last event.
func TestFloodIsSummarised(t *testing.T) {
	var out lockedBuffer
	l := New(slog.New(slog.NewTextHandler(&out, nil)), 50*time.Millisecond)
	for i := range 1000 {
		l.Log(slog.LevelWarn, "refused:rate", "connection refused", "addr", i)
	}
	l.Log(slog.LevelWarn, "refused:banned", "connection refused", "reason", "banned")
	// One interval ends with a summary, the next is quiet: the kinds are
	// forgotten.
	deadline := time.Now().Add(10 * time.Second)
	for l.Holding() {
		if time.Now().After(deadline) {
			t.Fatal("still holding events back 10s after the flood stopped")
		}
		time.Sleep(time.Millisecond) // the poll's pace
	}
	l.Log(slog.LevelWarn, "refused:rate", "connection refused", "addr", "again") // logged before Log returns

	lines := out.lines()
	if len(lines) < 4 || !slices.Contains(strings.Fields(lines[0]), "addr=0") || !strings.Contains(lines[len(lines)-1], "addr=again") {
		t.Fatalf("want the first event, the other kind, summaries and the event again, got:\n%s", strings.Join(lines, "\n"))
	}
	banned, repeated, last := 0, 0, ""
	for _, line := range lines[1 : len(lines)-1] {
		if strings.Contains(line, "reason=banned") {
			banned++
			continue
		}
		_, n, ok := strings.Cut(line, "repeated=")
		count, err := strconv.Atoi(strings.Fields(n + " ")[0])
		if !ok || err != nil {
			t.Fatalf("neither the other kind nor a summary: %q", line)
		}
		repeated, last = repeated+count, line
	}
	if banned != 1 || repeated != 999 || !slices.Contains(strings.Fields(last), "addr=999") {
		t.Errorf("the other kind logged %d times, summaries count %d of 999 held back, the last %q; lines:\n%s", banned, repeated, last, strings.Join(lines, "\n"))
	}
}
