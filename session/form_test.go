package session_test

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestNewRoomFormExplains: each row of the new-room form explains itself
// in a line under the form while the cursor is on it, in the game's own
// words; options that mean nothing now are hidden; ? shows every row's
// help; the bot-turn note goes with the clock (issue 25, point 10).
func TestNewRoomFormExplains(t *testing.T) {
	every := games.All()
	l := newTestLobby(func(c *lobby.Config) { c.Games = games.Lobby(every) })
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Games: games.Screens(every)})
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	d.keys("n")
	d.until("the form", d.screenContains("NEW ROOM"))
	if v := d.view(); !strings.Contains(v, "the game to play") || strings.Contains(v, "difficulty") {
		t.Errorf("the game row's help, and no solo difficulty at 2 seats:\n%s", v)
	}
	// A private room is joined by its invite: the code alone lets
	// nobody in, and the row says so.
	d.keys("down", "down", "right")
	d.until("the private row's help", d.screenContains("invite to can join; the code alone lets nobody"))
	d.keys("right", "up", "up") // public again, on the game
	d.until("the game row", d.screenContains("the game to play"))
	d.keys("right") // Furnace
	d.until("Furnace's options", d.screenContains("capitalists"))
	if v := d.view(); strings.Contains(v, "arthur") {
		t.Errorf("arthur shown with capitalists off:\n%s", v)
	}
	d.keys("down", "down", "down", "down") // capitalists
	d.until("capitalists' help", d.screenContains("dealt a capitalist with a power of their own"))
	d.keys("right") // on
	d.until("arthur, now that it applies", d.screenContains("arthur"))
	d.keys("down") // chain
	d.until("chain's help", d.screenContains("production chain: your cards form a row"))
	d.keys("down") // arthur
	d.until("arthur's help", d.screenContains("Arthur's extra 2 disc"))
	d.keys("?")
	d.until("the help", d.screenContains("what each setting does"))
	if v := d.view(); !strings.Contains(v, "rounds: the number of rounds") || !strings.Contains(v, "clock: the time each turn") {
		t.Errorf("the form's help lists every row:\n%s", v)
	}
	d.keys("x")
	d.until("the form again", d.screenContains("◂ Furnace ▸"))
	for range 3 {
		d.keys("down") // bots, away grace, clock: no bot kind without bots
	}
	if v := d.view(); strings.Contains(v, "bot kind") {
		t.Errorf("the kind of bot asked, with no bots:\n%s", v)
	}
	d.until("the clock's help", d.screenContains("the time each turn may take"))
	if v := d.view(); strings.Contains(v, "default: off") == strings.Contains(v, "then the bot plays the turn") {
		t.Errorf("the bot-turn note and the clock disagree:\n%s", v)
	}
	clock := func() string {
		for _, l := range strings.Split(d.view(), "\n") {
			if strings.Contains(l, "clock ") {
				return l
			}
		}
		return ""
	}
	for !strings.Contains(clock(), "◂ off ▸") {
		d.keys("right")
	}
	if c := clock(); strings.Contains(c, "then the bot plays the turn") {
		t.Errorf("the bot-turn note with the clock off: %q", c)
	}
	d.keys("right")
	if c := clock(); !strings.Contains(c, "30s a turn ▸  (then the bot plays the turn)") {
		t.Errorf("the note with a clock: %q", c)
	}
	d.keys("up", "up", "right") // a bot in the last seat
	d.until("the kind of bot, once there is one", d.screenContains("bot kind"))
}
