package bolt

import (
	"context"
	"errors"

	bolt "go.etcd.io/bbolt"
)

// Commits is how many transactions s has committed (each one fsync).
func Commits(s *Store) int64 { return s.group.commits.Load() }

// Hold starts a write that keeps s's group commit under way until
// release, so the writes that come meanwhile queue (queued counts them)
// and share the next commit. The held write fails, committing nothing.
func Hold(s *Store) (queued func() int, release func()) {
	in, out, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		_ = s.write(context.Background(), func(*bolt.Tx) error {
			close(in)
			<-out
			return errors.New("held, not committed")
		})
	}()
	<-in
	return s.group.batch.Queued, func() { close(out); <-done }
}
