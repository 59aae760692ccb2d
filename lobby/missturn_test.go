package lobby

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// Misses sent in parallel by one player wait in turn, each its back-off
// after the one before, on one instance or spread over two: together they
// take as long as sent one by one.
func TestParallelMissesWaitInTurn(t *testing.T) {
	lim := Limits{LookupMisses: 8, LookupWindow: time.Hour, LookupBackoff: 10 * time.Millisecond}
	var serial time.Duration
	for n := 1; n <= lim.LookupMisses; n++ {
		serial += lookupWait(lim, n)
	}
	lobbies := map[string]func(t *testing.T) []*Lobby{
		"one instance": func(*testing.T) []*Lobby {
			return []*Lobby{New(Config{Store: mem.New(), Games: []Game{tallyGame()}, Limits: lim})}
		},
		"two instances on Redis": func(t *testing.T) []*Lobby {
			r := redistest.Start(t)
			var ls []*Lobby
			for range 2 {
				ls = append(ls, New(Config{Store: openRedis(t, r), Games: []Game{tallyGame()}, Limits: lim}))
			}
			return ls
		},
	}
	for name, open := range lobbies {
		t.Run(name, func(t *testing.T) {
			ls := open(t)
			// Fresh names, as a shared Redis keeps counts.
			guesser := Player{ID: "key:" + room.NewCode(), Addr: "addr-" + room.NewCode()}
			took := make([]time.Duration, lim.LookupMisses)
			var wg sync.WaitGroup
			start := time.Now()
			for i := range took {
				wg.Go(func() {
					_, err := ls[i%len(ls)].Watch(context.Background(), "ZZZZZZ", guesser)
					if err == nil || !strings.HasPrefix(err.Error(), "no room") {
						t.Errorf("guess %d: %v, want a plain miss", i+1, err)
					}
					took[i] = time.Since(start)
				})
			}
			wg.Wait()
			slices.Sort(took)
			t.Logf("answered after %v", took)
			if last := took[len(took)-1]; last < serial {
				t.Errorf("the last of %d parallel misses came after %s, want %s: their waits overlapped", len(took), last, serial)
			}
		})
	}
}

// backoffs signals each miss that starts its wait.
type backoffs struct {
	room.NoObserver
	waiting chan struct{}
}

func (b backoffs) Refused(reason string, _ Player) {
	if reason == "lookup_backoff" {
		b.waiting <- struct{}{}
	}
}

// A miss whose player goes away while it waits is not answered: it says
// only that its wait was cut short, so a guesser who cuts all their
// waiting misses at once learns nothing from them.
func TestMissCutShortIsNotAnswered(t *testing.T) {
	obs := backoffs{waiting: make(chan struct{})}
	lim := Limits{LookupMisses: 4, LookupWindow: time.Hour, LookupBackoff: time.Minute}
	l := New(Config{Store: mem.New(), Games: []Game{tallyGame()}, Limits: lim, Observer: obs})
	guesser := Player{ID: "key:guess", Addr: "192.0.2.7"}
	if _, err := l.Watch(context.Background(), "ZZZZZZ", guesser); err == nil || !strings.HasPrefix(err.Error(), "no room") {
		t.Fatalf("the free miss: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := l.Watch(ctx, "ZZZZZY", guesser)
		done <- err
	}()
	<-obs.waiting
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the miss cut short: %v, want only that it was cancelled", err)
	}
}
