package furnace

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestGoodsLettersOverTheirNumbers: where the players' table heads the
// goods by their letters, each letter stands over the last digit of its
// column, and the tokens are two spaces from the discs: the letters stood
// two cells left of their numbers, and a seat's 1 token and discs read
// "1 1 2 3 4".
func TestGoodsLettersOverTheirNumbers(t *testing.T) {
	for _, tag := range lang.Tags {
		th := kit.NewTheme("mono", nil).In(lang.For(tag))
		s, err := furnace.New(furnace.Config{Players: 3}, 1)
		if err != nil {
			t.Fatal(err)
		}
		v := furnace.ViewOf(s, 0)
		seats := kit.Seats{Names: []string{"ann", "bob", "cy"}, Viewer: 0, L: th.L}
		lines := newPlayersTable(th, &v, seats, 60, short).block(playersOptions{perPlayer: 1})
		head := ansi.Strip(lines[0])
		money := strings.Index(head, "$")
		if money < 0 {
			t.Fatalf("%s: no letters at 60 columns:\n%s", tag, strings.Join(lines, "\n"))
		}
		letters := []string{"$", th.L.T("furnace.short.coal"), th.L.T("furnace.short.iron"), th.L.T("furnace.short.oil"), th.L.T("furnace.short.tokens")}
		for _, l := range lines[1:] {
			row := []rune(ansi.Strip(l))
			if len(row) <= money+17 || row[money] == ' ' && row[money+1] == ' ' && row[money+2] == ' ' {
				continue // a line of cards under a row
			}
			at := []rune(head)
			col := 0
			for _, letter := range letters {
				for col < len(at) && string(at[col]) != letter {
					col++
				}
				if col >= len(row) || row[col] < '0' || row[col] > '9' {
					t.Errorf("%s: %q stands over %q, not a digit:\n%s\n%s", tag, letter, string(row[min(col, len(row)-1)]), head, string(row))
				}
			}
			if string(row[col+1:col+3]) != "  " {
				t.Errorf("%s: the tokens run into the next column:\n%s\n%s", tag, head, string(row))
			}
		}
	}
}
