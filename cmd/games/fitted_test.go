package games

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/session/kit"
)

// TestBoardsDrawTheirWholeFrame holds every game's Draw to its contract:
// exactly the frame's width on exactly its lines, seated (with a menu)
// and public, narrow and wide. The game screen stacks the drawing under
// its header without measuring it again (kit.Row.Fitted).
func TestBoardsDrawTheirWholeFrame(t *testing.T) {
	th := kit.NewTheme("default", nil)
	sizes := [][2]int{{60, 16}, {80, 24}, {119, 30}, {120, 40}, {160, 50}, {220, 60}}
	for _, g := range All() {
		for _, seats := range []int{1, 2, 4} {
			if lo, hi := g.Rules.Seats(); seats < lo || seats > hi {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", g.Name(), seats), func(t *testing.T) {
				playViews(t, g, seats, nil, func(state engine.State, step int) {
					for seat := engine.Spectator; seat < seats; seat++ {
						value, err := g.Rules.ViewValue(state, seat)
						if err != nil {
							t.Fatal(err)
						}
						b, err := g.Screen.Decode(value)
						if err != nil {
							t.Fatal(err)
						}
						s := kit.Seats{Names: []string{"ann", "bob", "cat", "dan", "eve"}, Viewer: seat}
						for _, size := range sizes {
							w, h := size[0], size[1]
							f := kit.Frame{Theme: th, Seats: s, Width: w, Height: h,
								// The log's lines are fitted, as kit.Frame.Log promises.
								Log: func(w, h int) string { return kit.FitLines([]string{"the log's one line"}, w) }}
							if seat >= 0 {
								f.Menu = func(w, h int) string { return "a short menu\nof two lines" }
							}
							if err := exactly(b.Draw(f), w, h); err != nil {
								t.Fatalf("step %d, seat %d, %dx%d: %v", step, seat, w, h, err)
							}
						}
					}
				})
			})
		}
	}
}

// exactly says how block is not h lines of exactly w columns.
func exactly(block string, w, h int) error {
	lines := strings.Split(block, "\n")
	if len(lines) != h {
		return fmt.Errorf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := kit.Width(l); got != w {
			return fmt.Errorf("line %d is %d columns, want %d: %q", i, got, w, l)
		}
	}
	return nil
}
