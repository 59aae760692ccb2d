package session

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby"
)

// A followed room's updates reach the program in order, the newest last,
// however slowly the program takes them; once they are taken nothing is
// left running.
func TestFollowKeepsOrder(t *testing.T) {
	ctx := context.Background()
	l := tallyLobby()
	alice := lobby.Player{ID: "SHA256:alice", Name: "alice"}
	m, err := l.Create(ctx, alice, lobby.CreateOptions{Seats: 1, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	watcher, err := l.Watch(ctx, m.Code, lobby.Player{ID: "SHA256:bob", Name: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	var mu sync.Mutex
	var versions []int
	taken := make(chan int, 1000)
	var probed sync.Once
	seen := false // whether delivering sees the deliverer posting
	follow(watcher, func(msg tea.Msg) {
		probed.Do(func() { seen = delivering() })
		// A busy program, not a wait: updates pile up behind it.
		time.Sleep(2 * time.Millisecond)
		v := msg.(updateMsg).u.Version
		mu.Lock()
		versions = append(versions, v)
		mu.Unlock()
		taken <- v
	})
	a, err := l.Join(ctx, m.Code, alice)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	played := 0
	for u := range a.Updates() {
		var v tally.View
		if err := json.Unmarshal(u.View, &v); err != nil {
			t.Fatal(err)
		}
		if v.Over || played == 30 {
			break
		}
		if len(v.Legal) == 0 {
			continue
		}
		raw, _ := json.Marshal(v.Legal[0])
		if err := a.Move(ctx, raw); err != nil {
			t.Fatal(err)
		}
		played++
	}
	deadline := time.After(5 * time.Second)
	for last := -1; last != played; {
		select {
		case last = <-taken:
		case <-deadline:
			t.Fatalf("after %d moves the program last took version %d", played, last)
		}
	}
	// A deliverer left behind would post again; once none runs, none can.
	if !seen {
		t.Fatal("delivering did not see the deliverer that posted")
	}
	for deadline := time.Now().Add(5 * time.Second); delivering(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a deliverer still runs with every update taken")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i := 1; i < len(versions); i++ {
		if versions[i] < versions[i-1] {
			t.Fatalf("updates out of order: %v", versions)
		}
	}
	if versions[len(versions)-1] != played || len(watcher.Updates()) != 0 {
		t.Errorf("versions %v after %d moves, %d updates left untaken", versions, played, len(watcher.Updates()))
	}
}

// delivering reports whether any goroutine runs follow's deliverer (its
// first closure). A deliverer runs only while updates wait, so those of
// other tests' rooms, all closed or idle, do not linger.
func delivering() bool {
	buf := make([]byte, 1<<20)
	return strings.Contains(string(buf[:runtime.Stack(buf, true)]), "session.follow.func1")
}
