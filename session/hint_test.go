package session_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
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

// TestHintAnswerHidesNothingNewer: the room's answer to h comes after
// the keys pressed while it was on its way, and it never covers what
// those keys said: in a solo game a costly move armed meanwhile keeps its
// "press enter again" and no hint opens over it; at a table of one
// player and a bot, esc's word stays and no hint opens over it. (A
// refusal, in a rated game, is said by the same path as a hint.)
func TestHintAnswerHidesNothingNewer(t *testing.T) {
	for _, tc := range []struct {
		name string
		room func(*testing.T, *lobby.Lobby) string
		keys []string
		want string
	}{{
		name: "solo, a move armed",
		room: func(t *testing.T, l *lobby.Lobby) string {
			code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 43})
			playSolo(t, l, code, alice, func(v *factories.View) bool { return v.Phase == factories.WorkPhase })
			return code
		},
		keys: []string{"h", "/", "d", "o", "n", "e", "enter"},
		want: "press enter again to play the move marked ⏎",
	}, {
		name: "a player and a bot, esc",
		room: func(t *testing.T, l *lobby.Lobby) string {
			return createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Bots: []string{"random"}})
		},
		keys: []string{"h", "esc"},
		want: "nothing to close: q leaves the table",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			l := newTestLobby()
			code := tc.room(t, l)
			d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code}})
			d.inGame()
			g, _ := d.game()
			d.until("a move to play", func() bool { return g.Moves() > 0 && !g.Pending() })
			d.keys(tc.keys...) // handled before the hint's answer, which waits in the queue
			d.until("the hint's answer", func() bool { return !g.Hinting() })
			if status, _ := g.Status(); !strings.Contains(status, tc.want) || g.Overlay() {
				t.Errorf("after the hint's answer the status reads %q (want %q), overlay open: %v\n%s", status, tc.want, g.Overlay(), d.view())
			}
		})
	}
}
