package server

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// storedMove is a room update showing another seat's move, as the
// session hands it on.
type storedMove struct{ at time.Time }

func (m storedMove) MoveStored() time.Time { return m.at }

// The frame that shows another seat's move is timed from when the move
// was stored, once: not the frames after it, not an update with no move,
// and a frame put off by a burst is timed when it is written.
func TestFramesTimeTheOthersMove(t *testing.T) {
	h := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "t", Buckets: frameBuckets})
	count := func() (uint64, float64) {
		var m dto.Metric
		if err := h.Write(&m); err != nil {
			t.Fatal(err)
		}
		return m.Histogram.GetSampleCount(), m.Histogram.GetSampleSum()
	}
	var out bytes.Buffer
	f := newFrames(&out, 40, 10)
	f.shown = h
	sent := make(chan tea.Msg, 10)
	f.send = func(msg tea.Msg) { sent <- msg }
	root := f.onChange(&counter{})
	root.Init()
	f.last = time.Now().Add(-2 * minFrameGap)

	root.Update(storedMove{}) // an update with no new move
	if n, _ := count(); n != 0 {
		t.Fatalf("an update with no move was timed: %d samples", n)
	}
	f.last = time.Now().Add(-2 * minFrameGap)
	root.Update(storedMove{at: time.Now().Add(-3 * time.Millisecond)})
	if n, sum := count(); n != 1 || sum < .003 {
		t.Fatalf("the move's frame: %d samples summing %.4fs, want 1 of at least 3ms", n, sum)
	}
	root.Update(tea.KeyMsg{}) // right after: put off, then drawn
	root.Update(storedMove{at: time.Now()})
	if n, _ := count(); n != 1 {
		t.Fatalf("a put-off frame was timed before it was written: %d samples", n)
	}
	root.Update(<-sent)
	if n, _ := count(); n != 2 {
		t.Fatalf("the put-off frame showing a move: %d samples, want 2", n)
	}
	f.last = time.Now().Add(-2 * minFrameGap)
	root.Update(tea.KeyMsg{})
	if n, _ := count(); n != 2 {
		t.Errorf("a later frame was timed again: %d samples", n)
	}
}

// Over real SSH: a spectator's terminal draws a player's move, and the
// server counts that frame in smokestack_move_to_others_frame_seconds;
// the player's own play session draws no frame and counts none.
func TestOthersFrameIsTimedOverSSH(t *testing.T) {
	srv := startServer(t)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --players 1 --difficulty easy --seed 3", "").stdout)
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	_, scr := ptySession(t, bob, "watch "+code, 100, 30)
	scr.waitFor(t, "watching")
	playFirstMove(t, alice, code)
	web := httptest.NewServer(srv.Handler())
	defer web.Close()
	count := func() string {
		resp, err := http.Get(web.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		for _, line := range strings.Split(string(b), "\n") {
			if n, ok := strings.CutPrefix(line, "smokestack_move_to_others_frame_seconds_count "); ok {
				return n
			}
		}
		return "absent"
	}
	deadline := time.Now().Add(10 * time.Second)
	for n := count(); n == "0" || n == "absent"; n = count() {
		if time.Now().After(deadline) {
			t.Fatalf("the spectator's frame of the move: counted %s, want 1", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
