package room

import (
	"sync"
	"testing"
)

// TestRerun: requests while a run is in flight cost one more run, which
// begins after them; a request after everything ran starts a run again.
func TestRerun(t *testing.T) {
	var q Rerun
	started, release := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	runs := 0
	job := func() {
		mu.Lock()
		runs++
		mu.Unlock()
		started <- struct{}{}
		<-release
	}
	q.Kick(job)
	<-started
	for range 5 {
		q.Kick(job) // while the first runs
	}
	release <- struct{}{}
	<-started // the one run more
	release <- struct{}{}
	eventually(t, "the runs over", func() bool { q.mu.Lock(); defer q.mu.Unlock(); return !q.running })
	q.Kick(job)
	<-started
	release <- struct{}{}
	eventually(t, "the last run over", func() bool { q.mu.Lock(); defer q.mu.Unlock(); return !q.running })
	mu.Lock()
	defer mu.Unlock()
	if runs != 3 {
		t.Fatalf("%d runs for a request, five more while it ran, and one after: want 3", runs)
	}
}
