package lobby

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// A replay is seen from the viewer's seat, as the game showed it: a
// player's frames carry their own hand, move by move, and of the others
// only what the table showed (their hands' sizes); anyone who held no
// seat sees every frame as a spectator did. No frame carries the deck, or
// another seat's private log line.
func TestReplayFromTheViewersSeat(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	alice, bob, carol := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}, Player{ID: "key:carol", Name: "carol"}
	meta, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	a, err := l.Join(ctx, meta.Code, alice)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Join(ctx, meta.Code, bob)
	if err != nil {
		t.Fatal(err)
	}
	aliceSeat := view(t, latest(t, a)).Seat
	// Each seat's hand as its player saw it at the end.
	hands := map[int][]int{aliceSeat: nil, 1 - aliceSeat: nil}
	playOut(t, map[int]*Conn{aliceSeat: a, 1 - aliceSeat: b})
	hands[aliceSeat], hands[1-aliceSeat] = view(t, latest(t, a)).Hand, view(t, latest(t, b)).Hand
	a.Close()
	b.Close()

	for _, tt := range []struct {
		who  Player
		seat int
	}{{alice, aliceSeat}, {bob, 1 - aliceSeat}, {carol, engine.Spectator}} {
		info, frames, err := l.Replay(ctx, meta.Code, tt.who)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.SeatOf(tt.who.ID); got != tt.seat {
			t.Fatalf("%s holds seat %d in the replay's room, want %d", tt.who.Name, got, tt.seat)
		}
		sawOwn := false
		for i, f := range frames {
			v := view(t, Update{View: f.View})
			if v.Seat != tt.seat || len(v.HandSizes) != 2 {
				t.Fatalf("%s's frame %d is seat %d's view, want %d: %s", tt.who.Name, i, v.Seat, tt.seat, f.View)
			}
			if tt.seat == engine.Spectator && v.Hand != nil {
				t.Fatalf("a spectator's frame %d shows a hand: %s", i, f.View)
			}
			if strings.Contains(string(f.View), "deck") || strings.Contains(string(f.View), "secret") {
				t.Fatalf("%s's frame %d shows the deck: %s", tt.who.Name, i, f.View)
			}
			for _, line := range f.Log {
				if privateDraw.MatchString(line) && f.Seat != tt.seat {
					t.Fatalf("%s reads another seat's draw at frame %d: %q", tt.who.Name, i, line)
				}
			}
			sawOwn = sawOwn || len(v.Hand) > 0
		}
		last := view(t, Update{View: frames[len(frames)-1].View})
		if tt.seat >= 0 && (!sawOwn || !slices.Equal(last.Hand, hands[tt.seat])) {
			t.Errorf("%s's replay ends on hand %v, want their own %v", tt.who.Name, last.Hand, hands[tt.seat])
		}
	}
}

// privateDraw is the line only the drawing seat reads ("took a 7").
var privateDraw = regexp.MustCompile(`took a [0-9]`)
