package factories

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// playedTo plays a seeded 4-seat game until stop holds, and returns the
// state.
func playedTo(tb testing.TB, stop func(factories.State) bool) factories.State {
	tb.Helper()
	s, err := factories.New(factories.Config{Players: 4}, 5)
	if err != nil {
		tb.Fatal(err)
	}
	for step := 0; !stop(s); step++ {
		seat := factories.StatusOf(s).Acting[0]
		v := factories.ViewOf(s, seat)
		if s, _, err = factories.Apply(s, seat, v.Legal[step%len(v.Legal)]); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

// probe is the acting seat of a played game's position and that seat's
// view as JSON, for tests that change the view a field at a time.
type probe struct {
	seat int
	data []byte
}

// probes are a market phase (round 2) and a work phase (round 3).
func probes(t *testing.T) []probe {
	t.Helper()
	var out []probe
	for _, st := range []func(factories.State) bool{
		func(s factories.State) bool { return s.Round >= 2 && s.Phase == factories.MarketPhase },
		func(s factories.State) bool { return s.Round >= 3 && s.Phase == factories.WorkPhase },
	} {
		s := playedTo(t, st)
		seat := factories.StatusOf(s).Acting[0]
		data, err := json.Marshal(factories.ViewOf(s, seat))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, probe{seat, data})
	}
	return out
}

// TestCarryRedrawsWhatChanged changes every field of a view, one at a
// time (a number, a flag, a word, an element added, a Machine added),
// and holds a board that carried its parts over from the unchanged
// view's board to drawing exactly what a fresh board draws: no part may
// be carried over when something it draws from has changed.
func TestCarryRedrawsWhatChanged(t *testing.T) {
	for _, p := range probes(t) {
		seat, data := p.seat, p.data
		seats := kit.Seats{Names: []string{"alice", "bob", "carol", "dave"}, Bots: make([]string, 4), Viewer: seat, L: lang.For(lang.English)}
		var frames []kit.Frame
		for _, sz := range [][2]int{{80, 20}, {120, 36}, {160, 56}} {
			frames = append(frames, kit.Frame{Theme: kit.NewTheme("default", nil).In(seats.L), Seats: seats, Width: sz[0], Height: sz[1],
				Log:  func(w, h int) string { return kit.Fit("LOG", w, h) },
				Menu: func(w, h int) string { return kit.Fit("MOVES", w, h) }})
		}
		changed := 0
		for n := 0; ; n++ {
			var v factories.View
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatal(err)
			}
			if k := n; !mutate(reflect.ValueOf(&v).Elem(), &k) {
				break
			}
			for _, f := range frames {
				old := decoded(t, data)
				before := old.Draw(f)
				fresh, ok := drawn(&board{v: &v}, f)
				if !ok {
					continue // a change the board cannot draw (a card out of the catalogue)
				}
				// The marketplace a table's screens share is keyed on
				// all it draws: the unchanged view's is kept first.
				var orig factories.View
				if err := json.Unmarshal(data, &orig); err != nil {
					t.Fatal(err)
				}
				lw := f.Width / 2
				marketDrawn(f.Theme, &orig, lw)
				if got, want := marketDrawn(f.Theme, &v, lw), marketView(f.Theme, &v, lw); got != want {
					t.Fatalf("change %d at %d: the shared marketplace is\n%s\nwant\n%s", n, lw, got, want)
				}
				old.Menu(f.Seats)
				old.HeaderIn(f.Theme, f.Seats, f.Width)
				carried := &board{v: &v}
				carried.Carry(old)
				if got, _ := drawn(carried, f); got != fresh {
					t.Fatalf("change %d at %dx%d: the carried board draws\n%s\nwant\n%s", n, f.Width, f.Height, got, fresh)
				}
				if got, want := headerOf(carried, f), headerOf(&board{v: &v}, f); got != want {
					t.Fatalf("change %d at %d: the carried board's header is\n%s\nwant\n%s", n, f.Width, got, want)
				}
				if got, want := menuOf(carried, f.Seats), menuOf(&board{v: &v}, f.Seats); !reflect.DeepEqual(got, want) {
					t.Fatalf("change %d: the carried board's menu is\n%+v\nwant\n%+v", n, got, want)
				}
				if fresh != before {
					changed++
				}
			}
		}
		if changed < 50 {
			t.Fatalf("only %d changes redrew the board: the test changes too little", changed)
		}
	}
}

// TestCarryKeepsTheParts holds Carry to carrying every part over from a
// board of the same view.
func TestCarryKeepsTheParts(t *testing.T) {
	s := playedTo(t, func(s factories.State) bool { return s.Round >= 3 && s.Phase == factories.WorkPhase })
	data, _ := json.Marshal(factories.ViewOf(s, factories.StatusOf(s).Acting[0]))
	old, b := decoded(t, data), decoded(t, data)
	seats := kit.Seats{Names: []string{"alice", "bob", "carol", "dave"}, Bots: make([]string, 4), Viewer: b.v.Seat, L: lang.For(lang.English)}
	f := kit.Frame{Theme: kit.NewTheme("default", nil).In(seats.L), Seats: seats, Width: 80, Height: 20,
		Log: func(w, h int) string { return "" }, Menu: func(w, h int) string { return "" }}
	old.Draw(f)
	b.Carry(old)
	for name, p := range map[string]any{"market": &b.market, "you": &b.you, "others": &b.others} {
		if !reflect.ValueOf(p).Elem().FieldByName("ok").Bool() {
			t.Errorf("the %s part was not carried over", name)
		}
	}
	for i := range b.v.Players {
		if i != b.v.Seat && (len(b.seats) != len(b.v.Players) || !b.seats[i].ok) {
			t.Errorf("seat %d's block among the others was not carried over", i)
		}
	}
}

// headerOf is b's header in f's width, or "" if drawing it panicked.
func headerOf(b *board, f kit.Frame) (header string) {
	defer func() {
		if recover() != nil {
			header = ""
		}
	}()
	return b.HeaderIn(f.Theme, f.Seats, f.Width)
}

// menuOf is b's menu, or nil if making it panicked (a change the board
// cannot draw).
func menuOf(b *board, s kit.Seats) (groups []kit.MoveGroup) {
	defer func() {
		if recover() != nil {
			groups = nil
		}
	}()
	return b.Menu(s)
}

func decoded(tb testing.TB, data []byte) *board {
	var v factories.View
	if err := json.Unmarshal(data, &v); err != nil {
		tb.Fatal(err)
	}
	return &board{v: &v}
}

// drawn is b drawn in f, and false if drawing it panicked.
func drawn(b *board, f kit.Frame) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return b.Draw(f), true
}

// mutate changes the n-th thing v holds, depth first: a number, a flag
// or a word, an element added to a slice, a nil pointer set. It reports
// false when v holds fewer than n+1 things.
func mutate(v reflect.Value, n *int) bool {
	here := func(change func()) bool {
		if *n == 0 {
			change()
			return true
		}
		*n--
		return false
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && mutate(v.Field(i), n) {
				return true
			}
		}
	case reflect.Array, reflect.Slice:
		for i := range v.Len() {
			if mutate(v.Index(i), n) {
				return true
			}
		}
		if v.Kind() == reflect.Slice {
			return here(func() { v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem())) })
		}
	case reflect.Pointer:
		if !v.IsNil() {
			return mutate(v.Elem(), n)
		}
		return here(func() { v.Set(reflect.New(v.Type().Elem())) })
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return here(func() { v.SetInt(v.Int() + 1) })
	case reflect.Bool:
		return here(func() { v.SetBool(!v.Bool()) })
	case reflect.String:
		return here(func() { v.SetString(v.String() + "x") })
	}
	return false
}

// TestSameAsDeepEqual holds sameYou and sameOthers to reflect.DeepEqual
// of youOf and othersOf, what they replace, over every change mutate
// makes: a field added to a view and missed by them fails here.
func TestSameAsDeepEqual(t *testing.T) {
	s := playedTo(t, func(s factories.State) bool { return s.Round >= 3 && s.Phase == factories.WorkPhase })
	data, err := json.Marshal(factories.ViewOf(s, factories.StatusOf(s).Acting[0]))
	if err != nil {
		t.Fatal(err)
	}
	orig := decoded(t, data).v
	for _, machine := range []bool{false, true} {
		for n := 0; ; n++ {
			v := decoded(t, data).v
			if machine {
				v.Machine, orig.Machine = &factories.Machine{Compound: []factories.Card{1}}, &factories.Machine{Compound: []factories.Card{1}}
			}
			if k := n; !mutate(reflect.ValueOf(v).Elem(), &k) {
				break
			}
			if got, want := sameYou(orig, v), reflect.DeepEqual(youOf(orig), youOf(v)); got != want {
				t.Errorf("change %d (machine %v): sameYou = %v, DeepEqual %v", n, machine, got, want)
			}
			if got, want := sameOthers(orig, v), reflect.DeepEqual(othersOf(orig), othersOf(v)); got != want {
				t.Errorf("change %d (machine %v): sameOthers = %v, DeepEqual %v", n, machine, got, want)
			}
		}
	}
}

// youFrom is what youView reads: the seat's own area, its hand, the
// phase (for the dice) and The Machine (for the score against it).
type youFrom struct {
	seat    int
	phase   factories.Phase
	you     factories.PlayerView
	hand    []factories.Card
	machine *factories.Machine
}

func youOf(v *factories.View) youFrom {
	return youFrom{v.Seat, v.Phase, v.You(), v.Hand, v.Machine}
}

// othersFrom is what othersView reads: every seat, who is choosing in
// the market, and The Machine.
type othersFrom struct {
	seat, turn int
	phase      factories.Phase
	players    []factories.PlayerView
	machine    *factories.Machine
}

func othersOf(v *factories.View) othersFrom {
	return othersFrom{v.Seat, v.Turn, v.Phase, v.Players, v.Machine}
}
