package server

import (
	"bytes"
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
