package session_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestHintKeepsWorthWithItsNumber: h in a solo practice game at 80x24
// shows three moves, and each move's worth stays on one line with its
// number, though a move's line wraps: in English and in lang.Pseudo,
// whose words run longer. (80x24 is the smallest screen a session draws;
// TestHintRowKeepsWorthWhole takes narrower widths.)
func TestHintKeepsWorthWithItsNumber(t *testing.T) {
	for _, tag := range []lang.Tag{lang.English, lang.Pseudo} {
		t.Run(string(tag), func(t *testing.T) {
			p := lang.For(tag)
			l := newTestLobby()
			code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: hintSeed})
			d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Lang: tag,
				Start: session.Start{Mode: "join", Code: code}})
			d.inGame()
			g, _ := d.game()
			d.until("the market turn", func() bool { return g.Moves() > 0 && !g.Pending() })
			d.keys("h")
			title := p.T("session.hint.title")
			d.until("the hint", d.screenContains(title))
			screen := d.view()

			// The worth as the catalogue words it, its number a signed
			// decimal in the player's language.
			phrase := strings.SplitN(p.T("session.hint.worth", "Worth", "\x00"), "\x00", 2)
			whole := regexp.MustCompile(regexp.QuoteMeta(phrase[0]) + `[+-]\d+[.,]\d` + regexp.QuoteMeta(phrase[1]))
			if n := len(whole.FindAllString(screen, -1)); n != 3 {
				t.Errorf("%d of 3 hinted moves show their worth with its number on one line:\n%s", n, screen)
			}
			// The seed is chosen so that a move's line wraps: the test
			// is about that case.
			if !regexp.MustCompile(`(?m)^ {3}\S`).MatchString(screen) {
				t.Errorf("no hinted move wraps at 80x24; choose another hintSeed:\n%s", screen)
			}
		})
	}
}

// hintSeed deals a solo game whose first hint has a move too long for
// one line at 80x24.
const hintSeed = 3
