package session_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestBellKey: the bell rings once when the seat comes to act, and not
// at all once B has switched it off (in the lobby, for the session).
func TestBellKey(t *testing.T) {
	for _, off := range []bool{false, true} {
		l := newTestLobby()
		ctx := context.Background()
		code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true, HasSeed: true, Seed: 3})
		var term bellCounter
		d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 100, Height: 30, Terminal: &term})
		d.until("the lobby", d.screenContains("OPEN SEATS"))
		if off {
			d.keys("B")
			if v := d.view(); !strings.Contains(v, "bell and window title off") {
				t.Fatalf("B does not say the bell is off:\n%s", v)
			}
		}
		d.keys("enter")
		d.until("the waiting room", d.screenContains("WAITING ROOM"))
		b, err := l.Join(ctx, code, bob)
		if err != nil {
			t.Fatal(err)
		}
		// Bob plays until alice may act.
		for {
			u := <-b.Updates()
			for len(b.Updates()) > 0 {
				u = <-b.Updates()
			}
			if slices.Contains(u.Room.Acting, 0) {
				break
			}
			var v factories.View
			if err := json.Unmarshal(u.View, &v); err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(v.Legal[0])
			if err := b.Move(ctx, raw); err != nil {
				t.Fatal(err)
			}
		}
		d.until("alice's turn", d.screenContains("your turn"))
		if !off {
			d.until("the bell", func() bool { return term.bells.Load() > 0 })
		} else {
			d.drain() // asserting that no bell rings
		}
		want := int64(1)
		if off {
			want = 0
		}
		if n := term.bells.Load(); n != want {
			t.Fatalf("bell off %v: %d bells as alice's turn came; want %d", off, n, want)
		}
		b.Close()
		d.close()
	}
}

// bellCounter is a terminal that counts the bells written to it, apart
// from the BEL that ends a window title.
type bellCounter struct{ bells atomic.Int64 }

func (b *bellCounter) Write(p []byte) (int, error) {
	if string(p) == "\a" {
		b.bells.Add(1)
	}
	return len(p), nil
}
