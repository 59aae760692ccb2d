package furnace

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestBoardFits draws every position of seeded games, in every size and
// setting, at 80x24, 120x40 and 200x60 (the body the game screen gives a
// board), for a seat that may act, a spectator and, in turn, each other
// seat, and fails on any line wider than the screen or any line past its
// bottom: the generic screen would cut them without a word. Long names are
// used on purpose. Every language is drawn (Portuguese and Polish run
// longer than English, Cyrillic measures otherwise): English at every
// position, the others at every fourth.
func TestBoardFits(t *testing.T) {
	for _, tag := range lang.Tags {
		t.Run(string(tag), func(t *testing.T) {
			stride := 1
			if tag != lang.English {
				stride = 4
			}
			boardFits(t, kit.NewTheme("mono", nil).In(lang.For(tag)), stride)
		})
	}
}

func boardFits(t *testing.T, th kit.Theme, stride int) {
	configs := []furnace.Config{
		{Players: 2}, {Players: 4, Capitalists: true}, {Players: 3, Capitalists: true, Chain: true},
		{Players: 4, Capitalists: true, Chain: true, Arthur: furnace.ArthurPaired},
	}
	names := []string{"alexandrina", "greedy bot 2", "bartholomew", "random bot 4"}
	sizes := [][2]int{{80, 20}, {120, 36}, {160, 56}} // the bodies of 80x24, 120x40 and 200x60
	if raceEnabled || testing.Short() {
		stride *= 4 // a quarter of the positions; the full run is the default
	}
	for _, cfg := range configs {
		for seed := uint64(1); seed <= 2; seed++ {
			s, err := furnace.New(cfg, seed)
			if err != nil {
				t.Fatal(err)
			}
			rng := engine.NewRNG(seed)
			seats := kit.Seats{Names: names[:cfg.Players], L: th.L}
			for step := 0; ; step++ {
				if step%stride == 0 || s.Phase == furnace.GameOver {
					checkPosition(t, th, s, cfg, seed, step, seats, sizes)
				}
				if s.Phase == furnace.GameOver {
					break
				}
				acting := furnace.StatusOf(s).Acting
				seat := acting[rng.Intn(len(acting))]
				legal := furnace.Legal(s, seat)
				if err := s.Play(seat, legal[rng.Intn(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// checkPosition draws s for a spectator, the seat of the step's turn and
// the first seat that may act.
func checkPosition(t *testing.T, th kit.Theme, s furnace.State, cfg furnace.Config, seed uint64, step int, seats kit.Seats, sizes [][2]int) {
	t.Helper()
	viewers := []int{engine.Spectator, step % cfg.Players}
	if st := furnace.StatusOf(s); len(st.Acting) > 0 {
		viewers = append(viewers, st.Acting[0])
	}
	for _, viewer := range viewers {
		v := furnace.ViewOf(s, viewer)
		b := &board{v: &v}
		seats.Viewer = viewer
		for _, sz := range sizes {
			where := fmt.Sprintf("%+v seed %d step %d viewer %d %dx%d", cfg, seed, step, viewer, sz[0], sz[1])
			checkFits(t, th, where, b, seats, sz[0], sz[1])
		}
	}
}

func checkFits(t *testing.T, th kit.Theme, where string, b *board, s kit.Seats, w, h int) {
	t.Helper()
	f := kit.Frame{Theme: th, Seats: s, Width: w, Height: h,
		Log: func(w, h int) string { return kit.Fit("LOG", w, h) }}
	if s.Viewer >= 0 {
		f.Menu = func(w, h int) string { return kit.Fit("MOVES", w, h) }
		if g := b.Menu(s); len(g) > 0 {
			f.Focus = g[0].Card
		}
	}
	out := b.Draw(f)
	if b.Over() {
		out = b.Scores(f)
	}
	lines := strings.Split(out, "\n")
	if len(lines) > h {
		t.Fatalf("%s: %d lines:\n%s", where, len(lines), out)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > w {
			t.Fatalf("%s: a line of %d columns:\n%s\n\n%s", where, ansi.StringWidth(l), l, out)
		}
	}
}

// TestMenuBesideLogHasAGutter: at 80 columns the move menu and the log
// stand side by side; a move filling the menu's width is kept two
// columns from the log, not one, so it does not read on into it.
func TestMenuBesideLogHasAGutter(t *testing.T) {
	s, err := furnace.New(furnace.Config{Players: 4, Capitalists: true}, 1)
	if err != nil {
		t.Fatal(err)
	}
	v := furnace.ViewOf(s, 0)
	b := &board{v: &v}
	f := kit.Frame{Theme: kit.NewTheme("mono", nil), Seats: kit.Seats{Names: []string{"a", "b", "c", "d"}}, Width: 80, Height: 20,
		Menu: func(w, h int) string { return kit.Fit(strings.Repeat("M", w), w, h) },
		Log:  func(w, h int) string { return kit.Fit(strings.Repeat("L", w), w, h) }}
	out := b.Draw(f)
	if !strings.Contains(out, "M  L") || strings.Contains(out, "M L") {
		t.Errorf("the menu and the log:\n%s", out)
	}
}

// TestWideMarketStaysInWords: at 120x40 (a 120x36 body) the auction's
// market is worded in full wherever its words fit the width, however many
// discs a card holds: a card's third disc used to hide behind "(i)", and
// the market turned to the short notation after a few bids, so that a
// player who narrowed and widened the window found it short (issue 36,
// point 10).
func TestWideMarketStaysInWords(t *testing.T) {
	th := kit.NewTheme("mono", nil)
	seats := kit.Seats{Names: []string{"alice", "greedy bot 2", "greedy bot 3", "greedy bot 4"}, Viewer: 0, L: th.L}
	crowded := 0
	for seed := uint64(1); seed <= 6; seed++ {
		s, err := furnace.New(furnace.Config{Players: 4}, seed)
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRNG(seed)
		for s.Phase == furnace.AuctionPhase {
			v := furnace.ViewOf(s, 0)
			most := 0
			for _, l := range v.Market {
				most = max(most, len(l.Discs))
			}
			if most == 3 {
				crowded++
				f := kit.Frame{Theme: th, Seats: seats, Width: 120, Height: 36}
				market := newMarketTable(th, &v, seats, f.Width).fit(f.Height / 2)
				if words := newMarketTable(th, &v, seats, 120).block(long, 0); widest(words) <= 120 && strings.Contains(strings.Join(market, "\n"), "c coal") {
					t.Fatalf("seed %d: a card with 3 discs, the market short:\n%s", seed, strings.Join(market, "\n"))
				}
			}
			acting := furnace.StatusOf(s).Acting
			seat := acting[rng.Intn(len(acting))]
			legal := furnace.Legal(s, seat)
			if err := s.Play(seat, legal[rng.Intn(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if crowded == 0 {
		t.Fatal("no position had a card with 3 discs")
	}
}

// TestDiscsNeverBreak: a disc's words stay on one line. A market whose
// discs column was narrower than "player-2732: 1" wrapped the disc at its
// space, its count alone on the next line (Russian, 100 columns); where
// the words break a disc, the short notation draws it. Every line a row
// continues on carries the " > " of its list.
func TestDiscsNeverBreak(t *testing.T) {
	names := []string{"player-1857", "player-2732", "player-b49c", "player-77aa"}
	for _, tag := range lang.Tags {
		th := kit.NewTheme("mono", nil).In(lang.For(tag))
		for seed := uint64(1); seed <= 4; seed++ {
			s, err := furnace.New(furnace.Config{Players: 4, Capitalists: seed%2 == 0}, seed)
			if err != nil {
				t.Fatal(err)
			}
			rng := engine.NewRNG(seed)
			for s.Phase == furnace.AuctionPhase {
				v := furnace.ViewOf(s, 0)
				seats := kit.Seats{Names: names, Viewer: 0, L: th.L}
				for w := 80; w <= 160; w += 10 {
					lines := newMarketTable(th, &v, seats, w).fit(0)
					rows := false
					for _, l := range lines {
						l = ansi.Strip(l)
						rows = rows || strings.HasPrefix(l, "1 ")
						if rows && strings.HasPrefix(l, " ") && !strings.HasPrefix(strings.TrimSpace(l), ">") {
							t.Fatalf("%s, %d columns: a disc broken over two lines:\n%s", tag, w, ansi.Strip(strings.Join(lines, "\n")))
						}
					}
				}
				acting := furnace.StatusOf(s).Acting
				seat := acting[rng.Intn(len(acting))]
				legal := furnace.Legal(s, seat)
				if err := s.Play(seat, legal[rng.Intn(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
