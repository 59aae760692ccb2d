package server

import (
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/ssh"
)

// Window sizes reach the terminal's program newest last, without the
// client's requests waiting on it: a size that came before the program
// started is handed over when it does, a storm while it is busy draws
// once, and nothing is handed over after it ends.
func TestWindowSizes(t *testing.T) {
	ls := &liveSession{}
	ap := &acceptedPty{}
	ap.attach(ls)

	ap.resized(ssh.Window{Width: 90, Height: 30}) // before any program
	var mu sync.Mutex
	var got []int
	release := make(chan struct{})
	took := make(chan struct{}, 1)
	take := func(w ssh.Window) {
		mu.Lock()
		got = append(got, w.Width)
		mu.Unlock()
		select {
		case took <- struct{}{}:
		default:
		}
		<-release // a busy program
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				mu.Lock()
				defer mu.Unlock()
				t.Fatalf("%s: the program took %v", what, got)
			}
		}
	}
	// The model was drawn at 80 columns: the 90 that came since is news.
	waitFor("the 90 recorded", func() bool { return ls.latestWindow(ssh.Window{}).Width == 90 })
	ls.watchWindow(ssh.Window{Width: 80, Height: 24}, take)
	<-took
	// A storm, while the program is busy with the 90 until released: it
	// is over before then, or the client's requests wait on the program.
	stormed := make(chan struct{})
	go func() {
		defer close(stormed)
		for i := range 500 {
			ap.resized(ssh.Window{Width: 100 + i, Height: 30})
		}
	}()
	select {
	case <-stormed:
	case <-time.After(10 * time.Second):
		t.Error("the storm's sizes wait on the busy program")
	}
	close(release)
	<-stormed
	waitFor("the newest size", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return got[len(got)-1] == 599
	})
	mu.Lock()
	if got[0] != 90 || len(got) > 10 {
		t.Errorf("the program took %v: want 90 first, then a few sizes ending at 599", got)
	}
	for i := 1; i < len(got); i++ {
		if got[i] <= got[i-1] {
			t.Errorf("sizes out of order: %v", got)
		}
	}
	n := len(got)
	mu.Unlock()

	ls.watchWindow(ssh.Window{}, nil) // the program ended
	ap.resized(ssh.Window{Width: 700, Height: 30})
	waitFor("the last size recorded", func() bool { return ls.latestWindow(ssh.Window{}).Width == 700 })
	mu.Lock()
	defer mu.Unlock()
	if len(got) != n {
		t.Errorf("a size reached an ended program: %v", got)
	}
}
