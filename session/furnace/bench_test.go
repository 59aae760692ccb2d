package furnace

import (
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/session/kit"
)

// BenchmarkDraw draws a 4-player board with capitalists in the middle of
// its third production, for the seat producing, at 80x24 and 200x60: the
// work a session does for every update it shows.
func BenchmarkDraw(b *testing.B) {
	s, err := furnace.New(furnace.Config{Players: 4, Capitalists: true}, 5)
	if err != nil {
		b.Fatal(err)
	}
	rng := engine.NewRNG(5)
	for s.Round < 3 || s.Phase != furnace.ProductionPhase {
		acting := furnace.StatusOf(s).Acting
		seat := acting[rng.Intn(len(acting))]
		legal := furnace.Legal(s, seat)
		if err := s.Play(seat, legal[rng.Intn(len(legal))]); err != nil {
			b.Fatal(err)
		}
	}
	seat := furnace.StatusOf(s).Acting[0]
	v := furnace.ViewOf(s, seat)
	board := &board{v: &v}
	seats := kit.Seats{Names: []string{"alice", "bob", "carol", "dave"}, Viewer: seat}
	// The bodies of an 80x24 and a 200x60 screen (whose width is capped
	// at 160).
	for _, sz := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 20}, {"200x60", 160, 56}} {
		b.Run(sz.name, func(b *testing.B) {
			f := kit.Frame{Theme: kit.NewTheme("default", nil), Seats: seats, Width: sz.w, Height: sz.h,
				Log:  func(w, h int) string { return kit.Fit("LOG", w, h) },
				Menu: func(w, h int) string { return kit.Fit("MOVES", w, h) }}
			b.ReportAllocs()
			for b.Loop() {
				board.Draw(f)
				board.Menu(seats)
			}
		})
	}
}
