package factories

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestSharedSeatShowsNoHand holds a seat's block, which every screen of
// the process shares, to the seat's public record: a rival's hand is
// put in the view the block is first drawn from (the rival's own, which
// alone holds it), with cards named nowhere else on the board, and the
// block every other seat then gets from the share names none of them
// and is the block drawn afresh from their own views.
func TestSharedSeatShowsNoHand(t *testing.T) {
	s := playedTo(t, func(s factories.State) bool { return s.Round >= 3 && s.Phase == factories.WorkPhase })
	seats := kit.Seats{Names: []string{"alice", "bob", "carol", "dave"}, Bots: make([]string, 4), L: lang.For(lang.English)}
	th := kit.NewTheme("default", nil).In(seats.L)
	const w, budget = 40, 5
	for x := range s.Players {
		rival := factories.ViewOf(s, x)
		for y := range s.Players {
			if y == x {
				continue
			}
			seatBlocks = kit.NewShared[seatOf, seatBlock](4096) // an empty share
			v := factories.ViewOf(s, y)
			seats.Viewer = y
			fresh := seatLines(th, &v, seats, v.Players[x], w, budget)
			// Hand the rival cards its block does not name, and draw its
			// block from its own view first.
			hand := unnamed(th, strings.Join(fresh, "\n"), 5)
			rival.Hand = hand
			seats.Viewer = x
			seatShared(th, &rival, seats, &rival.Players[x], seatKeyOf(th, &rival, seats, x, w, budget))
			seats.Viewer = y
			got := seatShared(th, &v, seats, &v.Players[x], seatKeyOf(th, &v, seats, x, w, budget)).lines
			if !slices.Equal(got, fresh) {
				t.Fatalf("seat %d's block seen by seat %d is\n%s\nwant\n%s", x, y, strings.Join(got, "\n"), strings.Join(fresh, "\n"))
			}
			for _, c := range hand {
				if name := cardName(th, c.Name()); strings.Contains(strings.Join(got, "\n"), name) {
					t.Fatalf("seat %d's block seen by seat %d names %q from its hand:\n%s", x, y, name, strings.Join(got, "\n"))
				}
			}
			// The whole board, drawn after the rival's, names none of
			// them among the others either.
			f := kit.Frame{Theme: th, Seats: seats, Width: 120, Height: 36,
				Log: func(w, h int) string { return "" }, Menu: func(w, h int) string { return "" }}
			seats.Viewer = x
			(&board{v: &rival}).Draw(kit.Frame{Theme: th, Seats: seats, Width: 120, Height: 36, Log: f.Log, Menu: f.Menu})
			b := &board{v: &v}
			b.Draw(f)
			for _, part := range b.seats {
				for _, c := range hand {
					if name := cardName(th, c.Name()); part.ok && strings.Contains(strings.Join(part.lines, "\n"), name) {
						t.Fatalf("a block on seat %d's board names %q from seat %d's hand", y, name, x)
					}
				}
			}
		}
	}
}

// unnamed is n cards whose names text does not hold.
func unnamed(t kit.Theme, text string, n int) []factories.Card {
	var out []factories.Card
	for c := factories.Card(0); len(out) < n && c < 200; c++ {
		if name := c.Info().Name; name != "" && name != "unknown card" && !strings.Contains(text, cardName(t, name)) {
			out = append(out, c)
		}
	}
	return out
}

// TestSharedSeatKeysAllItDraws changes every field of a view, one at a
// time, and each thing a block's key holds besides (theme, language,
// names, bots, plain names, width, lines), and holds the shared block of
// every other seat, asked for after the unchanged one's was kept, to the
// block drawn afresh: two screens share a block only where it draws
// alike for both.
func TestSharedSeatKeysAllItDraws(t *testing.T) {
	for _, p := range probes(t) {
		seat, data := p.seat, p.data
		en, pl := lang.For(lang.English), lang.For(lang.Polish)
		base := kit.Seats{Names: []string{"alice", "bob", "carol", "dave"}, Bots: make([]string, 4), Viewer: seat, L: en}
		type setting struct {
			t         kit.Theme
			s         kit.Seats
			w, budget int
		}
		def := setting{kit.NewTheme("default", nil).In(en), base, 40, 5}
		settings := []setting{def}
		for _, change := range []func(*setting){
			func(c *setting) { c.t = kit.NewTheme("mono", nil).In(en) },
			func(c *setting) { c.t = c.t.In(pl) },
			func(c *setting) { c.s.L = pl },
			func(c *setting) { c.s.Plain = true },
			func(c *setting) { c.s.Names = []string{"ann", "ben", "cat", "dan"} },
			func(c *setting) { c.s.Bots = []string{"greedy", "greedy", "greedy", "greedy"} },
			func(c *setting) { c.w = 24 },
			func(c *setting) { c.budget = 2 },
			func(c *setting) { c.budget = 3 },
		} {
			c := def
			change(&c)
			settings = append(settings, c)
		}
		orig := decoded(t, data).v
		for n := 0; ; n++ {
			v := decoded(t, data).v
			if k := n; !mutate(reflect.ValueOf(v).Elem(), &k) {
				break
			}
			for _, c := range settings {
				for x := range v.Players {
					if x == v.Seat || x >= len(orig.Players) {
						continue
					}
					seatShared(def.t, orig, def.s, &orig.Players[x], seatKeyOf(def.t, orig, def.s, x, def.w, def.budget))
					want, ok := seatDrawn(c.t, v, c.s, x, c.w, c.budget)
					if !ok {
						continue // a change the board cannot draw (a card out of the catalogue)
					}
					got := seatShared(c.t, v, c.s, &v.Players[x], seatKeyOf(c.t, v, c.s, x, c.w, c.budget))
					if !slices.Equal(got.lines, want) {
						t.Fatalf("change %d, seat %d: the shared block is\n%s\nwant\n%s", n, x, strings.Join(got.lines, "\n"), strings.Join(want, "\n"))
					}
					if fitted := kit.FitLines(want, c.w); got.fitted != fitted {
						t.Fatalf("change %d, seat %d: the shared block fitted is\n%s\nwant\n%s", n, x, got.fitted, fitted)
					}
				}
			}
		}
	}
}

// seatDrawn is seat x's block drawn afresh, and false if drawing it
// panicked.
func seatDrawn(t kit.Theme, v *factories.View, s kit.Seats, x, w, budget int) (lines []string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return seatLines(t, v, s, v.Players[x], w, budget), true
}

// TestOthersFittedAsFitLines holds the others' part, the seats' fitted
// blocks stacked as a column stacks them, to their lines fitted whole,
// with and without The Machine, at widths down to none, and the lines
// it says they take to theirs.
func TestOthersFittedAsFitLines(t *testing.T) {
	s := playedTo(t, func(s factories.State) bool { return s.Round >= 3 && s.Phase == factories.WorkPhase })
	seats := kit.Seats{Names: []string{"alice", "bob", "carol", "dave"}, Bots: make([]string, 4), L: lang.For(lang.English)}
	th := kit.NewTheme("default", nil).In(seats.L)
	for _, seat := range []int{0, 2, -1} {
		v := factories.ViewOf(s, seat)
		seats.Viewer = seat
		for _, machine := range []*factories.Machine{nil, {Compound: []factories.Card{1, 2}, Goods: 3, Roll: [5]int{1, 2, 3, 4, 5}}} {
			v.Machine = machine
			for _, w := range []int{0, 1, 12, 40, 70} {
				for _, h := range []int{1, 6, 16, 40} {
					lines := othersLines(th, &v, seats, w, h)
					want := kit.FitLines(lines, w)
					drawn := othersFitted(th, &v, seats, w, h, make([]seatPart, len(v.Players)), nil)
					if got := strings.Join(drawn.blocks, "\n"); got != want {
						t.Fatalf("seat %d, machine %v, %dx%d: the others are\n%q\nwant\n%q", seat, machine != nil, w, h, got, want)
					}
					if drawn.lines != max(1, len(lines)) {
						t.Fatalf("seat %d, machine %v, %dx%d: the others take %d lines, want %d", seat, machine != nil, w, h, drawn.lines, len(lines))
					}
				}
			}
		}
	}
}
