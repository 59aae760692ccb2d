package games

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/session/kit"
)

// TestScreensShareViewValues: a room hands every screen of a seat (every
// spectator) one view value, no longer JSON each decodes apart. Through
// bot-played games of each game, every seat's and a spectator's board
// drawn from the value draws exactly as one decoded from the view's JSON,
// and drawing, menus and card texts leave the value as it was: a board
// that sorted its view in place would change what the others draw.
func TestScreensShareViewValues(t *testing.T) {
	for _, g := range All() {
		lo, _ := g.Rules.Seats()
		for _, seats := range []int{lo, 4} {
			for _, opts := range []json.RawMessage{nil, lastChoices(g.Rules, seats)} {
				t.Run(fmt.Sprintf("%s/%d/%s", g.Name(), seats, opts), func(t *testing.T) {
					playViews(t, g, seats, opts, func(state engine.State, step int) {
						for seat := engine.Spectator; seat < seats; seat++ {
							checkShared(t, g, state, seat, fmt.Sprintf("step %d seat %d", step, seat))
						}
					})
				})
			}
		}
	}
}

// lastChoices is every option that applies set to its last choice.
func lastChoices(r engine.Ruleset, seats int) json.RawMessage {
	values := map[string]string{}
	for _, o := range r.Options() {
		values[o.Name] = o.Choices[len(o.Choices)-1]
	}
	for _, o := range r.Options() {
		if !o.Applies(seats, values) {
			delete(values, o.Name)
		}
	}
	raw, _ := json.Marshal(values)
	return raw
}

// playViews plays a game of g between its random bots, calling see with
// every third state.
func playViews(t *testing.T, g Game, seats int, opts json.RawMessage, see func(engine.State, int)) {
	bot, err := g.Bots.New("random", 7)
	if err != nil {
		t.Fatal(err)
	}
	state, err := g.Rules.New(seats, opts, 7)
	if err != nil {
		t.Fatal(err)
	}
	for step := 0; step < 5000; step++ {
		st, err := g.Rules.Status(state)
		if err != nil {
			t.Fatal(err)
		}
		if step%3 == 0 || st.Over {
			see(state, step)
		}
		if st.Over {
			return
		}
		seat := st.Acting[step%len(st.Acting)]
		view, err := g.Rules.View(state, seat)
		if err != nil {
			t.Fatal(err)
		}
		mv, err := bot(view)
		if err != nil {
			t.Fatal(err)
		}
		if state, _, err = g.Rules.Apply(state, seat, mv); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no end after 5000 moves")
}

// checkShared draws seat's view from its value and from its JSON, and
// checks they draw alike and the value is unchanged.
func checkShared(t *testing.T, g Game, state engine.State, seat int, where string) {
	t.Helper()
	raw, err := g.Rules.View(state, seat)
	if err != nil {
		t.Fatal(err)
	}
	value, err := g.Rules.ViewValue(state, seat)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(value); string(got) != string(raw) {
		t.Fatalf("%s: the value's JSON is not View's:\n%s\n%s", where, got, raw)
	}
	fromJSON, err := g.Screen.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	fromValue, err := g.Screen.Decode(value)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := drawAll(fromValue, seat), drawAll(fromJSON, seat); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the value draws otherwise than its JSON", where)
	}
	if after, _ := json.Marshal(value); string(after) != string(raw) {
		t.Fatalf("%s: drawing changed the view:\nbefore %s\nafter  %s", where, raw, after)
	}
}

// drawAll is everything a screen asks of b, at two sizes.
func drawAll(b kit.Board, seat int) []any {
	th := kit.NewTheme("mono", nil)
	s := kit.Seats{Names: []string{"ann", "bob", "cat", "dan", "eve"}, Viewer: seat}
	out := []any{b.Over(), b.Header(th, s), b.Banner(th, s), b.Idle(s), b.Menu(s), b.Cards(s)}
	for _, c := range b.Cards(s) {
		out = append(out, b.CardText(th, c, 40))
	}
	if y, ok := b.(kit.Yours); ok {
		out = append(out, y.Yours(th, s, 80, 24))
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		f := kit.Frame{Theme: th, Seats: s, Width: size[0], Height: size[1],
			Log: func(w, h int) string { return kit.Fit("LOG", w, h) }}
		if seat >= 0 {
			f.Menu = func(w, h int) string { return kit.Fit("MOVES", w, h) }
		}
		for _, grp := range b.Menu(s) {
			if grp.Card != nil {
				f.Focus = grp.Card
				break
			}
		}
		out = append(out, b.Draw(f), b.Scores(f))
	}
	return out
}
