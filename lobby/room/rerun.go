package room

import "sync"

// Rerun runs a job in the background one run at a time, and once more
// after the run in flight when asked again meanwhile: a burst of requests
// costs at most two runs, and each request is followed by a run that
// began after it. A room refreshes through one, so each room catches up
// on its own goroutine, and a slow store read delays only its own room.
type Rerun struct {
	mu             sync.Mutex
	running, again bool
}

// Kick asks for a run of job, starting one unless one is in flight.
func (q *Rerun) Kick(job func()) {
	q.mu.Lock()
	if q.running {
		q.again = true
		q.mu.Unlock()
		return
	}
	q.running = true
	q.mu.Unlock()
	go func() {
		for {
			job()
			q.mu.Lock()
			if !q.again {
				q.running = false
				q.mu.Unlock()
				return
			}
			q.again = false
			q.mu.Unlock()
		}
	}()
}
