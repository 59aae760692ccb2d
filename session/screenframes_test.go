package session_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// gameTable plays moves moves of a 4-seat game (seed 5) through a lobby
// offering every game, each acting seat playing the legal move pick
// chooses by the move's number, and returns the four seats' connections
// and the update each seat got after each move, as the room sends them.
func gameTable(tb testing.TB, game string, moves int, pick func(version, legal int) int) ([]*lobby.Conn, [][]lobby.Update) {
	tb.Helper()
	ctx := context.Background()
	l := newTestLobby(func(c *lobby.Config) { c.Games = games.Lobby(games.All()) })
	room, err := l.Create(ctx, alice, lobby.CreateOptions{Game: game, Seats: 4, HasSeed: true, Seed: 5})
	if err != nil {
		tb.Fatal(err)
	}
	var conns []*lobby.Conn
	for _, p := range []lobby.Player{alice, bob, carol, {ID: "SHA256:dave", Name: "dave"}} {
		c, err := l.Join(ctx, room.Invite(), p)
		if err != nil {
			tb.Fatal(err)
		}
		c.SkipJSON()
		conns = append(conns, c)
	}
	latest := func(c *lobby.Conn, version int) lobby.Update {
		for {
			select {
			case u := <-c.Updates():
				if u.Value != nil && u.Version >= version {
					return u
				}
			case <-time.After(5 * time.Second):
				tb.Fatalf("seat %d: no update of version %d", c.Seat(), version)
			}
		}
	}
	ups := make([][]lobby.Update, len(conns))
	for version := 0; version <= moves; version++ {
		var acting []int
		for i, c := range conns {
			u := latest(c, version)
			ups[i] = append(ups[i], u)
			acting = u.Room.Acting
		}
		if len(acting) == 0 {
			break
		}
		c := slices.IndexFunc(conns, func(c *lobby.Conn) bool { return c.Seat() == acting[0] })
		var mv any
		switch v := ups[c][len(ups[c])-1].Value.(type) {
		case *factories.View:
			mv = v.Legal[pick(version, len(v.Legal))]
		case *furnace.View:
			mv = v.Legal[pick(version, len(v.Legal))]
		default:
			tb.Fatalf("no move for a view of %T", v)
		}
		data, err := json.Marshal(mv)
		if err != nil {
			tb.Fatal(err)
		}
		if err := conns[c].Move(ctx, data); err != nil {
			tb.Fatal(err)
		}
	}
	return conns, ups
}

// byNumber picks a game's legal moves by the move's number; first picks
// the first.
func byNumber(version, legal int) int { return version % legal }
func first(int, int) int              { return 0 }

// tableScreens are a session per seat of conns at w×h, on a 256-colour
// terminal with a dark background as the server's sessions mostly are.
func tableScreens(conns []*lobby.Conn, theme string, tag lang.Tag, w, h int) []*session.Model {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	l := newTestLobby(func(c *lobby.Config) { c.Games = games.Lobby(games.All()) })
	models := make([]*session.Model, len(conns))
	for i, c := range conns {
		m := session.New(session.Config{Lobby: l, Games: games.Screens(games.All()), Player: alice,
			Theme: theme, Lang: tag, Renderer: r, Width: w, Height: h, Now: fixedNow})
		session.Seat(m, c.Code(), c)
		models[i] = m.(*session.Model)
	}
	return models
}

// moveKeys are the keys smokeload's players press around a move: ? opens
// the key help and ? closes it, then the move menu is moved.
var moveKeys = func() []tea.KeyMsg {
	runes := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	return []tea.KeyMsg{runes("?"), runes("?"), {Type: tea.KeyTab}, runes("l"), runes("h"), runes("j"), runes("k"),
		{Type: tea.KeyDown}, {Type: tea.KeyUp}}
}()

// counted is a header's count of the names it had no room for: "+3".
var counted = regexp.MustCompile(`(^| )\+\d+( |$)`)

var updateFrames = flag.Bool("update-frames", false, "write testdata/frames.sum from the frames drawn now")

// TestFramesUnchanged holds the game screens' frames to the ones recorded
// in testdata/frames.sum: both games, at 80x24 and 120x40, in colour and
// in English, in mono and in the pseudo-locale, each seat's frame after
// every update of a game in play and after each key smokeload's players
// press. A cut in what a frame costs must leave every byte as it was
// (the sum holds a SHA-256 of each seat's frames at each update; rerun
// with -update-frames only when a change means to draw differently).
func TestFramesUnchanged(t *testing.T) {
	var got []string
	for _, game := range []string{"factories", "furnace"} {
		conns, ups := gameTable(t, game, 24, byNumber)
		// The room's code is random: each frame is summed with it
		// masked, which keeps its width.
		code := []byte(conns[0].Code())
		unnamed := func(frame []byte) []byte { return bytes.ReplaceAll(frame, code, bytes.Repeat([]byte("#"), len(code))) }
		for _, c := range []struct {
			theme string
			tag   lang.Tag
		}{{"default", lang.English}, {"mono", lang.Pseudo}, {"colorblind", lang.Polish}} {
			for _, sz := range [][2]int{{80, 24}, {120, 40}} {
				models := tableScreens(conns, c.theme, c.tag, sz[0], sz[1])
				for u := range ups[0] {
					for s, m := range models {
						sum := sha256.New()
						m.Update(session.Updated(conns[s], ups[s][u]))
						sum.Write(unnamed(m.AppendView(nil)))
						for _, k := range moveKeys {
							m.Update(k)
							frame := m.AppendView(nil)
							if v := m.View(); v != string(frame) {
								t.Fatalf("%s %s: AppendView is not View after %s", game, c.tag, k)
							}
							sum.Write(unnamed(frame))
						}
						// The server's name gives way before a name of those
						// still playing does ("working: you +3" beside it).
						if head := ansi.Strip(strings.SplitN(m.View(), "\n", 2)[0]); strings.HasPrefix(head, "smokestack") && counted.MatchString(head) {
							t.Errorf("%s %s %dx%d update %d seat %d: the header counts names beside the server's name: %q", game, c.tag, sz[0], sz[1], u, s, head)
						}
						got = append(got, fmt.Sprintf("%s %s %s %dx%d update %d seat %d %x",
							game, c.theme, c.tag, sz[0], sz[1], u, s, sum.Sum(nil)[:12]))
					}
				}
			}
		}
	}
	const file = "testdata/frames.sum"
	if *updateFrames {
		if err := os.WriteFile(file, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		want = append(want, sc.Text())
	}
	if len(got) != len(want) {
		t.Fatalf("%d frames' sums drawn; %s holds %d", len(got), file, len(want))
	}
	bad := 0
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("drawn: %s\nheld:  %s", got[i], want[i])
			if bad++; bad == 10 {
				t.Fatal("and more")
			}
		}
	}
}

// BenchmarkScreenFrames draws a game screen's frames as the server does
// (AppendView into a buffer it reuses), for each game at 80x24 and
// 120x40 in the default theme on a 256-colour terminal. keys is a seat's
// screen in a game in play, the board unchanged, drawing the frame of
// each key smokeload's players press around a move (? twice, tab, l, h,
// j, k, down, up): an op is one key's frame. update is a table's four
// screens after each of a run of room updates, each applying it and
// drawing its frame: an op is one screen's frame. cpu-ns/op is the
// process's CPU time an op, the collector's included: on a loaded
// machine it moves less than ns/op.
//
//	go test ./session -run '^$' -bench ScreenFrames -benchmem -count 5
func BenchmarkScreenFrames(b *testing.B) {
	for _, game := range []string{"factories", "furnace"} {
		conns, ups := gameTable(b, game, 40, byNumber)
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			name := fmt.Sprintf("%s/%dx%d", game, sz[0], sz[1])
			b.Run("keys/"+name, func(b *testing.B) {
				m := tableScreens(conns[:1], "default", lang.English, sz[0], sz[1])[0]
				m.Update(session.Updated(conns[0], ups[0][len(ups[0])/2]))
				frame := m.AppendView(nil)
				b.ReportAllocs()
				cpu := processCPU()
				for i := 0; b.Loop(); i++ {
					m.Update(moveKeys[i%len(moveKeys)])
					frame = m.AppendView(frame[:0])
				}
				reportCPU(b, cpu)
			})
			b.Run("update/"+name, func(b *testing.B) {
				models := tableScreens(conns, "default", lang.English, sz[0], sz[1])
				var frame []byte
				n := len(ups[0])
				b.ReportAllocs()
				cpu := processCPU()
				for i := 0; b.Loop(); i++ {
					s := i % len(models)
					models[s].Update(session.Updated(conns[s], ups[s][(i/len(models))%n]))
					frame = models[s].AppendView(frame[:0])
				}
				reportCPU(b, cpu)
			})
		}
	}
}
