package session

import "testing"

// TestOptionWord: the room lists word every option so it reads without
// its name beside it.
func TestOptionWord(t *testing.T) {
	for _, c := range []struct{ name, value, want string }{
		{"capitalists", "on", "capitalists"},
		{"chain", "off", "no-chain"},
		{"rounds", "3", "3-rounds"},
		{"difficulty", "hard", "hard"},
		{"arthur", "paired", "paired"},
	} {
		if got := optionWord(c.name, c.value); got != c.want {
			t.Errorf("optionWord(%q, %q) = %q, want %q", c.name, c.value, got, c.want)
		}
	}
}
