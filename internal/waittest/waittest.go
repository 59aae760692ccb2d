// Package waittest waits in tests for a state that no message announces:
// a poll with a deadline, never a fixed sleep.
package waittest

import (
	"testing"
	"time"
)

// Deadline is how long Until waits before it fails the test.
const Deadline = 10 * time.Second

// Until polls cond until it holds, and fails the test naming what it
// waited for if it does not within Deadline.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(Deadline)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, Deadline)
		}
		time.Sleep(5 * time.Millisecond) // the poll's pace
	}
}
