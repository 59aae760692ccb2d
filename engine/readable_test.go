package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/internal/tally"
)

// A move whose fields have the wrong type is refused in a player's words,
// never in the decoder's Go terms ("cannot unmarshal string into Go struct
// field Move.slot of type int").
func TestUnreadableMovesInPlayersWords(t *testing.T) {
	state, err := tally.Rules.New(1, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ move, want string }{
		{`{"kind":7}`, `that move cannot be read: "kind" should be text in quotes, not a number`},
		{`{"kind":["take"]}`, `that move cannot be read: "kind" should be text in quotes, not a list`},
		{`{"kind":true}`, `that move cannot be read: "kind" should be text in quotes, not true or false`},
	}
	for _, c := range cases {
		_, _, err := tally.Rules.Apply(state, 0, json.RawMessage(c.move))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s is refused with %v; want %q", c.move, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "Go struct") || strings.Contains(err.Error(), "unmarshal")) {
			t.Errorf("%s is refused in Go's words: %v", c.move, err)
		}
	}
}
