package factories

import (
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// BenchmarkDrawFresh draws a 4-seat board in its third round's work
// phase from a fresh board, with its menu, at 80x24 and 120x40, in
// English and Polish: the work each seat's session does for every move.
//
//	go test ./session/factories -run '^$' -bench DrawFresh -benchmem
func BenchmarkDrawFresh(b *testing.B) {
	s, err := factories.New(factories.Config{Players: 4}, 5)
	if err != nil {
		b.Fatal(err)
	}
	for step := 0; s.Round < 3 || s.Phase != factories.WorkPhase; step++ {
		seat := factories.StatusOf(s).Acting[0]
		v := factories.ViewOf(s, seat)
		if s, _, err = factories.Apply(s, seat, v.Legal[step%len(v.Legal)]); err != nil {
			b.Fatal(err)
		}
	}
	seat := factories.StatusOf(s).Acting[0]
	v := factories.ViewOf(s, seat)
	seats := kit.Seats{Names: []string{"alice", "bob", "carol", "dave"}, Bots: make([]string, 4), Viewer: seat}
	for _, tag := range []lang.Tag{lang.English, lang.Polish} {
		for _, sz := range []struct {
			name string
			w, h int
		}{{"80x24", 80, 20}, {"120x40", 120, 36}} {
			b.Run(string(tag)+"/"+sz.name, func(b *testing.B) {
				seats.L = lang.For(tag)
				f := kit.Frame{Theme: kit.NewTheme("default", nil).In(seats.L), Seats: seats, Width: sz.w, Height: sz.h,
					Log:  func(w, h int) string { return kit.Fit("LOG", w, h) },
					Menu: func(w, h int) string { return kit.Fit("MOVES", w, h) }}
				b.ReportAllocs()
				for b.Loop() {
					board := &board{v: &v}
					board.Draw(f)
					board.Menu(seats)
				}
			})
		}
	}
}

// BenchmarkDrawCarried draws a 4-seat board after each of a run of
// moves, each board carrying its parts over from the one before, as a
// seat's session does with the room's updates:
//
//	go test ./session/factories -run '^$' -bench DrawCarried -benchmem
func BenchmarkDrawCarried(b *testing.B) {
	s := playedTo(b, func(s factories.State) bool { return s.Round >= 3 && s.Phase == factories.WorkPhase })
	seat := factories.StatusOf(s).Acting[0]
	var views []factories.View
	for step := 0; len(views) < 8; step++ {
		views = append(views, factories.ViewOf(s, seat))
		acting := factories.StatusOf(s).Acting
		if len(acting) == 0 {
			break
		}
		v := factories.ViewOf(s, acting[step%len(acting)])
		var err error
		if s, _, err = factories.Apply(s, acting[step%len(acting)], v.Legal[step%len(v.Legal)]); err != nil {
			b.Fatal(err)
		}
	}
	seats := kit.Seats{Names: []string{"alice", "bob", "carol", "dave"}, Bots: make([]string, 4), Viewer: seat, L: lang.For(lang.English)}
	f := kit.Frame{Theme: kit.NewTheme("default", nil).In(seats.L), Seats: seats, Width: 120, Height: 36,
		Log:  func(w, h int) string { return kit.Fit("LOG", w, h) },
		Menu: func(w, h int) string { return kit.Fit("MOVES", w, h) }}
	var old kit.Board
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		board := &board{v: &views[i%len(views)]}
		kit.Carry(old, board)
		board.Draw(f)
		old = board
	}
}
