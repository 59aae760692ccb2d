package server

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/room/roomtest"
)

// oscSeq is an operating system command (a window title): it ends in a
// BEL of its own, which is no bell.
var oscSeq = regexp.MustCompile(`\x1b\][^\x07\x1b]*(\x07|\x1b\\)`)

// bells counts the bells a terminal rang.
func bells(raw string) int { return strings.Count(oscSeq.ReplaceAllString(raw, ""), "\a") }

// TestBellOnYourMove: over ssh, a seat's terminal rings its bell and
// titles its window when the seat comes to act — the game starting on its
// turn, or the turn coming back — and not before; the player's own title
// is saved on arrival and given back on leaving. With --no-bell there is
// neither bell nor title.
func TestBellOnYourMove(t *testing.T) {
	for _, noBell := range []bool{false, true} {
		name := "bell"
		if noBell {
			name = "no-bell"
		}
		t.Run(name, func(t *testing.T) {
			srv := startServer(t)
			c := dialKey(t, srv.addr, "alice", newKey(t))
			code := strings.TrimSpace(run(t, c, "new --players 2 --seed 3", "").stdout)
			cmd := "join " + code
			if noBell {
				cmd += " --no-bell"
			}
			sess, scr := ptySession(t, c, cmd, 100, 30)
			scr.waitFor(t, "WAITING ROOM")
			// The bell is written off the update loop, so nothing here says
			// when a stray one would be out: the count at the session's end
			// below holds them all.
			if n := bells(scr.raw()); n != 0 {
				t.Fatalf("%d bells in the waiting room", n)
			}

			bob, err := srv.lobby.Join(t.Context(), code, lobby.Player{ID: "key:bob", Name: "bob"})
			if err != nil {
				t.Fatal(err)
			}
			defer bob.Close()
			// Bob plays until alice may act: her turn comes.
			for {
				u := latestUpdate(t, bob)
				if len(u.Room.Acting) > 0 && u.Room.Acting[0] == 0 {
					break
				}
				var v factories.View
				if err := json.Unmarshal(u.View, &v); err != nil {
					t.Fatal(err)
				}
				raw, _ := json.Marshal(v.Legal[0])
				if err := bob.Move(t.Context(), raw); err != nil {
					t.Fatal(err)
				}
			}
			scr.waitFor(t, "your turn")
			if !noBell {
				waitUntil(t, "the bell", func() bool { return bells(scr.raw()) == 1 })
				waitUntil(t, "the title", func() bool { return strings.Contains(scr.raw(), "\x1b]2;your move · room "+code) })
			}
			if !strings.Contains(scr.raw(), pushTitle) {
				t.Fatal("the player's window title was not saved on arrival")
			}
			scr.in.Write([]byte("q"))
			scr.waitFor(t, "OPEN SEATS")
			if !noBell {
				waitUntil(t, "the lobby's title", func() bool { return strings.HasSuffix(oscTitles(scr.raw()), "smokestack") })
			}
			scr.in.Write([]byte("q")) // quit
			if err := sess.Wait(); err != nil {
				t.Fatal(err)
			}
			raw := scr.raw() // all the session wrote: it has ended
			if !strings.HasSuffix(raw, popTitle) {
				t.Fatalf("the title was not given back as the session ended: it ends %q", raw[max(0, len(raw)-80):])
			}
			// One bell, for the turn: none in the waiting room or the lobby.
			if n, want := bells(raw), map[bool]int{false: 1, true: 0}[noBell]; n != want {
				t.Fatalf("%d bells over the session, want %d", n, want)
			}
			if titled := strings.Contains(raw, "\x1b]2;"); noBell && titled {
				t.Fatal("--no-bell: a window title was set")
			}
		})
	}
}

// oscTitles lists the window titles set, oldest first, one a line.
func oscTitles(raw string) string {
	var titles []string
	for _, m := range regexp.MustCompile(`\x1b\]2;([^\x07\x1b]*)`).FindAllStringSubmatch(raw, -1) {
		titles = append(titles, m[1])
	}
	return strings.Join(titles, "\n")
}

// latestUpdate is the connection's newest update, waiting for one if none
// is unread.
func latestUpdate(t *testing.T, c *lobby.Conn) lobby.Update {
	t.Helper()
	return roomtest.Newest(t, c.Updates())
}
