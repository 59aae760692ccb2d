package furnace_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/engine/furnace/bot"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
	furnaceui "github.com/smokestack/smokestack/session/furnace"
	"github.com/smokestack/smokestack/session/kit"
	"github.com/smokestack/smokestack/session/screentest"
)

// The golden screens of Furnace: each is drawn through the real session in
// the mono theme at the three sizes and compared with
// testdata/TestGolden/<screen>/<size>.golden. Run
// `go test ./session/furnace -run TestGolden -update` to rewrite them after
// a deliberate change, and read the diff.

var goldenSizes = [][2]int{{80, 24}, {100, 30}, {120, 40}, {200, 60}}

var screens = map[string]kit.Game{"furnace": furnaceui.UI}

var alice = lobby.Player{ID: "SHA256:alice", Name: "alice"}

func newTestLobby(change ...func(*lobby.Config)) *lobby.Lobby {
	clock := screentest.NewClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	cfg := lobby.Config{Store: mem.New(), Games: []lobby.Game{{Rules: furnace.Rules, Bots: bot.JSONBots()}}, Now: clock.Now}
	for _, f := range change {
		f(&cfg)
	}
	return lobby.New(cfg)
}

// table is a seeded room with alice in seat 0 and the greedy bot in the
// others.
type table struct {
	Seats   int
	Seed    uint64
	Options string // the room's options as JSON
}

// play creates tb's room and plays alice's seat with the greedy bot until
// stop holds for her view at a moment when no bot has anything to do, so
// the position, and the log, are the same on every run. It returns the
// room's code with alice's session closed.
func (tb table) play(t *testing.T, l *lobby.Lobby, stop func(v *furnace.View) bool) string {
	t.Helper()
	ctx := context.Background()
	bots := slices.Repeat([]string{"greedy"}, tb.Seats-1)
	m, err := l.Create(ctx, alice, lobby.CreateOptions{Game: "furnace", Seats: tb.Seats, Seed: tb.Seed, HasSeed: true,
		Bots: bots, Options: json.RawMessage(tb.Options)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Join(ctx, m.Code, alice)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	me, _ := bot.New("greedy", 99)
	moved := -1
	for range 5000 {
		var u lobby.Update
		select {
		case u = <-c.Updates():
		case <-time.After(10 * time.Second):
			t.Fatal("no update from the room")
		}
		if len(u.View) == 0 || u.Version <= moved {
			continue
		}
		var v furnace.View
		if err := json.Unmarshal(u.View, &v); err != nil {
			t.Fatal(err)
		}
		// Only alice may act (or nobody, at the end): the bots have played
		// everything they could.
		idle := len(u.Room.Acting) == 0 || slices.Equal(u.Room.Acting, []int{0})
		if !idle {
			continue
		}
		if stop(&v) {
			return m.Code
		}
		if v.Phase == furnace.GameOver {
			t.Fatal("the game ended before the position sought")
		}
		data, _ := json.Marshal(me.Choose(v))
		if err := c.Move(ctx, data); err != nil {
			t.Fatal(err)
		}
		moved = u.Version
	}
	t.Fatal("the position sought never came")
	return ""
}

// goldenRun draws the session at every golden size once the screen shows
// wait and keys were pressed, and compares the final frame.
func goldenRun(t *testing.T, l *lobby.Lobby, start session.Start, codes []string, wait string, keys ...string) {
	for _, sz := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			cfg := session.Config{Lobby: l, Player: alice, Start: start, Games: screens}
			screentest.Golden(t, cfg, sz[0], sz[1], codes, wait, keys...)
		})
	}
}

func repeat(k string, n int) []string { return slices.Repeat([]string{k}, n) }

// The positions the goldens show.
var (
	// auction: alice to place, with discs already on the market.
	auctionAfter = func(placed int) func(v *furnace.View) bool {
		return func(v *furnace.View) bool {
			return v.Phase == furnace.AuctionPhase && v.Turn == 0 && v.Placed >= placed
		}
	}
	// compensation: alice chooses how much of a processing compensation
	// to take.
	compensation = func(v *furnace.View) bool {
		return v.Phase == furnace.ResolvePhase && len(v.Legal) > 2
	}
	// midProduction: alice has resolved a card and owns an upgraded one,
	// with cards still to resolve.
	midProduction = func(v *furnace.View) bool {
		me := v.You()
		if v.Phase != furnace.ProductionPhase || me == nil || me.Done {
			return false
		}
		used, upgraded, left := 0, 0, 0
		for _, o := range me.Cards {
			if o.Used {
				used++
			} else {
				left++
			}
			if o.Upgraded {
				upgraded++
			}
		}
		return used > 0 && upgraded > 0 && left > 1
	}
	gameOver = func(v *furnace.View) bool { return v.Phase == furnace.GameOver }
)

func TestGolden(t *testing.T) {
	l := newTestLobby()
	two := table{Seats: 2, Seed: 11}.play(t, l, auctionAfter(3))
	four := table{Seats: 4, Seed: 30, Options: `{"capitalists":"on"}`}.play(t, l, auctionAfter(6))
	resolve := table{Seats: 3, Seed: 13}.play(t, l, compensation)
	production := table{Seats: 4, Seed: 14, Options: `{"capitalists":"on"}`}.play(t, l, midProduction)
	scores := table{Seats: 4, Seed: 15, Options: `{"capitalists":"on"}`}.play(t, l, gameOver)
	codes := []string{two, four, resolve, production, scores}
	join := func(code string) session.Start { return session.Start{Mode: "join", Code: code} }

	t.Run("auction2", func(t *testing.T) {
		goldenRun(t, l, join(two), codes, "MARKET", "right")
	})
	t.Run("auction4", func(t *testing.T) {
		goldenRun(t, l, join(four), codes, "MARKET")
	})
	t.Run("yours", func(t *testing.T) {
		// The seat's own cards, with what each produces, one key from the
		// 4-player auction (issue 25, point 5).
		goldenRun(t, l, join(four), codes, "MARKET", "y")
	})
	t.Run("resolve", func(t *testing.T) {
		goldenRun(t, l, join(resolve), codes, "RESOLVING")
	})
	t.Run("production", func(t *testing.T) {
		goldenRun(t, l, join(production), codes, "YOUR CARDS")
	})
	t.Run("scores", func(t *testing.T) {
		goldenRun(t, l, join(scores), codes, "GAME OVER")
	})
	t.Run("replay", func(t *testing.T) {
		// A finished game stepped through: into round 2's auction.
		start := session.Start{Mode: "replay", Code: scores}
		goldenRun(t, l, start, codes, "move 0 of", "]", "n", "n", "n")
	})
	t.Run("lobby", func(t *testing.T) {
		// Alice's Furnace games in her list, by their options.
		goldenRun(t, l, session.Start{}, codes, "YOUR GAMES")
	})
	t.Run("form", func(t *testing.T) {
		// The new-room form offers Furnace's own options.
		goldenRun(t, l, session.Start{}, codes, "YOUR GAMES", "n", "down", "down")
	})
	t.Run("cards", func(t *testing.T) {
		// The reference opens at the card the menu is on, and goes down
		// to the first doubtful or stand-in card on the board.
		goldenRun(t, l, join(four), codes, "MARKET", append([]string{"i"}, repeat("down", doubtfulAt(t, l, four))...)...)
	})
	t.Run("rules", func(t *testing.T) {
		goldenRun(t, l, join(two), codes, "MARKET", append([]string{"r"}, repeat("right", 7)...)...)
	})
}

// doubtfulAt is how far down the card reference, from the card the menu
// opens on, the first card with doubtful (C) or stand-in data is.
func doubtfulAt(t *testing.T, l *lobby.Lobby, code string) int {
	t.Helper()
	c, err := l.Join(context.Background(), code, alice)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	u := <-c.Updates()
	b, err := furnaceui.UI.Decode(u.View)
	if err != nil {
		t.Fatal(err)
	}
	seats := kit.Seats{Viewer: u.Seat}
	focus := b.Menu(seats)[0].Card.Key
	cards := b.Cards(seats)
	from := slices.IndexFunc(cards, func(r kit.CardRef) bool { return r.Key == focus })
	for i, ref := range cards[from:] {
		id := strings.TrimPrefix(ref.Key, "card:")
		for _, co := range furnace.Companies() {
			if co.ID == id && (co.Confidence == "C" || co.Confidence == "stand-in") {
				return i
			}
		}
	}
	t.Fatal("no doubtful card on the board after the menu's: pick another seed")
	return 0
}
