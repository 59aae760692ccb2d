package session

import (
	"testing"

	"github.com/smokestack/smokestack/internal/lang"
)

// TestOptionWord: the room lists word every option so it reads without
// its name beside it, in the reader's language.
func TestOptionWord(t *testing.T) {
	for _, c := range []struct {
		tag                     lang.Tag
		game, name, value, want string
	}{
		{lang.English, "furnace", "capitalists", "on", "capitalists"},
		{lang.English, "furnace", "chain", "off", "no-chain"},
		{lang.English, "furnace", "rounds", "3", "3-rounds"},
		{lang.English, "factories", "difficulty", "hard", "hard"},
		{lang.English, "furnace", "arthur", "paired", "paired"},
		{lang.English, "tally", "target", "12", "12-target"}, // a game without words: as it declares itself
		{lang.Polish, "furnace", "chain", "off", "łańcuch: nie"},
		{lang.Polish, "factories", "difficulty", "insane", "szalony"},
		{lang.Russian, "furnace", "rounds", "3", "раунды: 3"},
		{lang.Portuguese, "furnace", "capitalists", "off", "sem capitalistas"},
	} {
		if got := optionWord(lang.For(c.tag), c.game, c.name, c.value); got != c.want {
			t.Errorf("%s: optionWord(%q, %q) = %q, want %q", c.tag, c.name, c.value, got, c.want)
		}
	}
}
