package bolt

// Commits is how many transactions s has committed (each one fsync).
func Commits(s *Store) int64 { return s.group.commits.Load() }

// Hold makes s's group commit act as though a commit were under way:
// writes queue (queued counts them) until release hands them to the
// first of them to commit.
func Hold(s *Store) (queued func() int, release func()) {
	g := s.group
	g.mu.Lock()
	g.busy = true
	g.mu.Unlock()
	queued = func() int {
		g.mu.Lock()
		defer g.mu.Unlock()
		return len(g.queue)
	}
	release = func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if len(g.queue) > 0 {
			g.queue[0].lead <- true
		} else {
			g.busy = false
		}
	}
	return queued, release
}
