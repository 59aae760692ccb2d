package kit

import "testing"

// TestReoffered: the move a player saw is found by its data while it is
// offered as it was, and by its words when only its data changed (a die
// named by its place); a move worded otherwise is never taken for it.
func TestReoffered(t *testing.T) {
	offered := []struct {
		words string
		data  []byte
	}{
		{"1 on research: draw 2 (+1 matching)", []byte(`{"die":3,"to":"research"}`)},
		{"1 on generate: 1 energy", []byte(`{"die":3,"to":"generate"}`)},
		{"Take Obelisk", []byte(`{"slot":1}`)},
		{"Take Obelisk", []byte(`{"slot":2}`)},
	}
	at := func(i int) (string, []byte) { return offered[i].words, offered[i].data }
	for _, c := range []struct {
		words, data string
		want        int
	}{
		{"Take Obelisk", `{"slot":2}`, 3},                           // as it was: that very move
		{"1 on generate: 1 energy", `{"die":2,"to":"generate"}`, 1}, // the other 1
		{"1 on research: draw 1", `{"die":2,"to":"research"}`, -1},  // worded otherwise now
		{"Take Golem", `{"slot":1}`, -1},                            // the slot holds another card
	} {
		if got := Reoffered(len(offered), at, c.words, []byte(c.data)); got != c.want {
			t.Errorf("%q %s: %d, want %d", c.words, c.data, got, c.want)
		}
	}
}
