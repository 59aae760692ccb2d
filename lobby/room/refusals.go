package room

import (
	"fmt"

	"github.com/smokestack/smokestack/engine"
)

// Refuse is a refusal a player reads: its English text, and its words
// (a message in catalogue area lobby, and its arguments) for screens
// that speak the player's language (engine.Refusal; session words it).
func Refuse(text, id string, args ...engine.Arg) error {
	return engine.Refuse(text, engine.Say(id, args...))
}

// The refusals said in more than one place.
var (
	errGameOver    = Refuse("this game is over", "lobby.over")
	errPlayersVote = Refuse("only the players at the table can hand a seat to a bot", "lobby.playersVote")
)

func noSeat(seat int) error {
	return Refuse(fmt.Sprintf("there is no seat %d", seat+1), "lobby.noSeat", engine.Num("Seat", seat+1))
}

func botThere(seat int) error {
	return Refuse(fmt.Sprintf("a bot already plays seat %d", seat+1), "lobby.botThere", engine.Num("Seat", seat+1))
}

// noBots refuses bots in a game (by its title) that has none here.
func noBots(title string) error {
	return Refuse(title+" has no bots on this server", "lobby.noBots", engine.Str("Game", title))
}

// NoGame refuses a game (as the player typed it) the server lacks.
func NoGame(game string) error {
	return Refuse("this server has no game "+game, "lobby.noGame", engine.Str("Game", game))
}

// NotOffered refuses a stored room whose game this server lacks.
func NotOffered(code, game string) error {
	return Refuse(fmt.Sprintf("room %s plays %q, which this server does not offer", code, game), "lobby.notOffered",
		engine.Str("Code", code), engine.Str("Game", fmt.Sprintf("%q", game)))
}

// ErrUnavailable is what a player is told when the store cannot be reached
// or fails; the cause goes to the log, not to the player's screen.
var ErrUnavailable = Refuse("the game service is unavailable right now: try again in a moment", "lobby.unavailable")
