package session_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/bolt"
	"github.com/smokestack/smokestack/lobby/store/mem"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
	"github.com/smokestack/smokestack/session"
)

// rowOf is the lobby screen's line for room code, or "".
func rowOf(view, code string) string {
	for _, line := range strings.Split(view, "\n") {
		if strings.Contains(line, code) {
			return line
		}
	}
	return ""
}

// TestLobbyFollowsRooms: a lobby screen shows rooms other sessions
// create, fill and start without a key pressed, each under the right
// title: a room with a free seat under OPEN SEATS, a full game under IN
// PLAY, with its round.
func TestLobbyFollowsRooms(t *testing.T) {
	l := newTestLobby()
	ctx := context.Background()
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("OPEN SEATS"))

	code := createRoom(t, l, bob, lobby.CreateOptions{Seats: 2, Public: true})
	d.until("bob's new room", d.screenContains(code))
	open := func(s string) bool {
		return strings.Index(s, code) > strings.Index(s, "OPEN SEATS") && strings.Index(s, code) < strings.Index(s, "IN PLAY")
	}
	if v := d.view(); !open(v) || !strings.Contains(rowOf(v, code), "0/2") {
		t.Fatalf("a new room is not listed with its free seats:\n%s", v)
	}
	cb, err := l.Join(ctx, code, bob)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	d.until("bob seated", func() bool { return strings.Contains(rowOf(d.view(), code), "1/2") })
	cc, err := l.Join(ctx, code, carol)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	d.until("the game in play", func() bool {
		v := d.view()
		return strings.Index(v, code) > strings.Index(v, "IN PLAY") && strings.Contains(rowOf(v, code), "round 1")
	})
	if v := d.view(); strings.Count(v, code) != 1 {
		t.Fatalf("the full game is still offered as open seats:\n%s", v)
	}
}

// TestLobbyFollowsOtherInstances: with Redis, a lobby screen on one
// instance shows a room created and played on another, which this one
// never loaded, with the round its moves reached.
func TestLobbyFollowsOtherInstances(t *testing.T) {
	r := redistest.Start(t)
	games := lobbyGames()
	newInstance := func() *lobby.Lobby {
		s, err := redisstore.Open(context.Background(), r.URL)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		l := lobby.New(lobby.Config{Store: s, Games: games})
		done := make(chan struct{})
		go func() {
			defer close(done)
			l.Run(ctx)
		}()
		t.Cleanup(func() {
			cancel()
			<-done
			s.Close()
		})
		return l
	}
	a, b := newInstance(), newInstance()
	d := newDriver(t, session.Config{Lobby: a, Player: alice, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("OPEN SEATS"))

	// Bob plays a solo game on b: the room's round moves on there.
	code := createRoom(t, b, bob, lobby.CreateOptions{Seats: 2, Public: true, Bots: []string{"greedy"}})
	d.until("the room made on the other instance", d.screenContains(code))
	c, err := b.Join(context.Background(), code, bob)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	d.until("the game started on the other instance", func() bool {
		return regexp.MustCompile(`round \d`).MatchString(rowOf(d.view(), code))
	})
	playSolo(t, b, code, bob, func(v *factories.View) bool { return v.Round >= 2 })
	d.until("round 2 from the other instance", func() bool { return strings.Contains(rowOf(d.view(), code), "round 2") })
}

// countingStore counts the reads of the public rooms' first list, one
// for each read of a lobby screen's lists.
type countingStore struct {
	*mem.Store
	lists atomic.Int64
}

func (s *countingStore) OpenSeats(ctx context.Context, limit int) ([]store.Meta, error) {
	s.lists.Add(1)
	return s.Store.OpenSeats(ctx, limit)
}

// TestLobbyPace: a busy server does not redraw a lobby screen on every
// change. Rooms created every 20ms for two seconds cost the screen a read
// of its lists at most once a second, and once they stop, nothing.
func TestLobbyPace(t *testing.T) {
	st := &countingStore{Store: mem.New()}
	l := lobby.New(lobby.Config{Store: st, Games: lobbyGames()})
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	d.drain()
	start, began := st.lists.Load(), time.Now()
	n := 0
	for time.Since(began) < 2*time.Second {
		createRoom(t, l, bob, lobby.CreateOptions{Seats: 2, Public: true})
		n++
		time.Sleep(20 * time.Millisecond) // paces the changes: one room every 20ms
		d.drain()
	}
	d.until("every room", d.screenContains(fmt.Sprintf("OPEN SEATS (%d)", n)))
	busy := time.Since(began)
	// The public rooms and the player's are one read of the store.
	reads := st.lists.Load() - start
	if most := int64(busy/time.Second) + 2; reads > most {
		t.Fatalf("%d reads of the lists in %s of changes; want at most %d", reads, busy.Round(time.Millisecond), most)
	}
	if reads < 2 {
		t.Fatalf("%d reads of the lists in %s of changes: the screen did not follow them", reads, busy.Round(time.Millisecond))
	}
	// The last change may be heard after the read that showed it began,
	// which rightly asks for one more read a pace later: let it come.
	time.Sleep(2 * time.Second) // twice the screen's one-second pace
	d.drain()
	settled := st.lists.Load()
	// Asserting that nothing happens: longer than the screen's one-second
	// pace, so a read still due after the last change would have come.
	time.Sleep(1500 * time.Millisecond)
	d.drain()
	if n := st.lists.Load() - settled; n != 0 {
		t.Fatalf("%d reads of the lists while nothing changed", n)
	}
}

// TestLobbyColumns: every room's columns line up, across the three lists,
// whether or not a room is private, at the minimum width and a wide one.
func TestLobbyColumns(t *testing.T) {
	l := newTestLobby()
	ctx := context.Background()
	private := createRoom(t, l, alice, lobby.CreateOptions{Seats: 3})
	public := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, Public: true})
	other := createRoom(t, l, bob, lobby.CreateOptions{Seats: 4, Public: true, Bots: []string{"greedy", "random"}})
	for _, code := range []string{private, public} {
		c, err := l.Join(ctx, code, alice)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	seats := regexp.MustCompile(`\d/\d`)
	for _, w := range []int{80, 200} {
		d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: w, Height: 24})
		d.until("the lobby", d.screenContains("YOUR GAMES (2)"))
		v := d.view()
		col, names := -1, -1
		for _, code := range []string{private, public, other} {
			row := rowOf(v, code)
			at := seats.FindStringIndex(row)
			if at == nil {
				t.Fatalf("%d columns: no seats in the row of %s:\n%s", w, code, v)
			}
			// Columns on screen, not bytes: the selection mark is one
			// column of three bytes.
			if c := ansi.StringWidth(row[:at[0]]); col >= 0 && c != col {
				t.Fatalf("%d columns: the seats column is out of line:\n%s", w, v)
			} else {
				col = c
			}
			if code == other {
				continue
			}
			if i := ansi.StringWidth(row[:strings.Index(row, "alice")]); names >= 0 && i != names {
				t.Fatalf("%d columns: a private room pushes its players out of line:\n%s", w, v)
			} else {
				names = i
			}
		}
		if !strings.Contains(rowOf(v, private), "private") || strings.Contains(rowOf(v, public), "private") {
			t.Fatalf("%d columns: private rooms not marked:\n%s", w, v)
		}
	}
}

// TestLobbyRoundAfterRestart: after a restart the lobby lists a game in
// progress at its real round before anyone opens it.
func TestLobbyRoundAfterRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rooms.db")
	games := lobbyGames()
	st, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	l := lobby.New(lobby.Config{Store: st, Games: games})
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true, HasSeed: true, Seed: 21, Bots: []string{"greedy"}})
	playSolo(t, l, code, alice, func(v *factories.View) bool { return v.Round >= 3 })
	st.Close()

	st, err = bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l = lobby.New(lobby.Config{Store: st, Games: games})
	d := newDriver(t, session.Config{Lobby: l, Player: bob, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("IN PLAY: WATCH (1)"))
	if row := rowOf(d.view(), code); !strings.Contains(row, "round 3") {
		t.Fatalf("after a restart the game in play is listed as %q, want round 3:\n%s", row, d.view())
	}
}
