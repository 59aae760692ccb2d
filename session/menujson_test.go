package session

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/engine"
)

// TestMenuMovesAreMarshalledAlike: kit.MenuOf carries each move as its
// own MarshalJSON writes it, which must be what json.Marshal writes of
// it, for every legal move of every game as a random bot plays them.
func TestMenuMovesAreMarshalledAlike(t *testing.T) {
	for _, g := range games.All() {
		checked := 0
		playRandomEach(t, g, 4, 3, func(state engine.State, seat int) {
			v, err := g.Rules.ViewValue(state, seat)
			if err != nil {
				t.Fatal(err)
			}
			legal := reflect.ValueOf(v).Elem().FieldByName("Legal")
			for i := range legal.Len() {
				mv := legal.Index(i).Interface()
				want, err := json.Marshal(mv)
				if err != nil {
					t.Fatal(err)
				}
				got, err := mv.(json.Marshaler).MarshalJSON()
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s: %+v marshals itself as %s (%v); json.Marshal writes %s", g.Name(), mv, got, err, want)
				}
				checked++
			}
		})
		if checked == 0 {
			t.Fatalf("%s: no legal move checked", g.Name())
		}
		t.Logf("%s: %d moves", g.Name(), checked)
	}
}
