package server

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby"
)

// A guesser on two connections, each with as many sessions guessing at
// once as it may hold, is answered one miss after another, each after its
// back-off, as if guessing one by one; past the limit both connections
// end, and the guesses still waiting are told why and nothing more.
func TestParallelGuessesWaitInTurn(t *testing.T) {
	lim := lobby.Limits{LookupMisses: 8, LookupWindow: time.Hour, LookupBackoff: 20 * time.Millisecond}
	srv := startServerLimited(t, lim, withLimits(guardLimits))
	key := newKey(t)
	var mu sync.Mutex
	var answered []time.Duration // when each miss was answered
	var cut, others int
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range 2 {
		c := dialKey(t, srv.addr, "mallory", key)
		ended := make(chan struct{})
		go func() { c.Wait(); close(ended) }()
		for range guardLimits.SessionsPerConn {
			wg.Go(func() {
				for {
					select {
					case <-ended:
						return
					default:
					}
					r, err := attempt(c, "play "+guess(int(next.Add(1)))+" --watch")
					if err != nil {
						continue // the session was refused as it opened, or the connection ended
					}
					mu.Lock()
					switch {
					case strings.Contains(r.stdout, "no room"):
						answered = append(answered, time.Since(start))
					case strings.Contains(r.stderr, "too many wrong room codes"):
						cut++
					default:
						others++
						t.Errorf("a guess was told %+v", r)
					}
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()

	slices.Sort(answered)
	t.Logf("misses answered after %v; %d guesses told of the cut", answered, cut)
	if len(answered) > lim.LookupMisses {
		t.Errorf("%d guesses answered, want %d at most", len(answered), lim.LookupMisses)
	}
	// The n-th miss waits nothing up to a quarter of the limit, then the
	// back-off, doubling: one by one, the answers could come no sooner.
	var serial time.Duration
	for n := lim.LookupMisses/4 + 1; n <= len(answered); n++ {
		serial += lim.LookupBackoff << (n - lim.LookupMisses/4 - 1)
	}
	if len(answered) > 0 && answered[len(answered)-1] < serial {
		t.Errorf("the last of %d misses was answered after %s, want %s: their waits overlapped",
			len(answered), answered[len(answered)-1], serial)
	}
	if cut == 0 {
		t.Error("no guess was told why its connection ended")
	}
}
