package lobby

import (
	"fmt"

	"github.com/smokestack/smokestack/engine"
)

// refuse is a refusal a player reads: its English text, and its words
// (a message in catalogue area lobby, and its arguments) for screens
// that speak the player's language (engine.Refusal; session words it).
func refuse(text, id string, args ...engine.Arg) error {
	return engine.Refuse(text, engine.Say(id, args...))
}

// The refusals said in more than one place.
var (
	errGameOver    = refuse("this game is over", "lobby.over")
	errPlayersVote = refuse("only the players at the table can hand a seat to a bot", "lobby.playersVote")
)

func noSeat(seat int) error {
	return refuse(fmt.Sprintf("there is no seat %d", seat+1), "lobby.noSeat", engine.Num("Seat", seat+1))
}

func botThere(seat int) error {
	return refuse(fmt.Sprintf("a bot already plays seat %d", seat+1), "lobby.botThere", engine.Num("Seat", seat+1))
}

// noBots refuses bots in a game (by its title) that has none here.
func noBots(title string) error {
	return refuse(title+" has no bots on this server", "lobby.noBots", engine.Str("Game", title))
}

// noGame refuses a game (as the player typed it) the server lacks.
func noGame(game string) error {
	return refuse("this server has no game "+game, "lobby.noGame", engine.Str("Game", game))
}

// notOffered refuses a stored room whose game this server lacks.
func notOffered(code, game string) error {
	return refuse(fmt.Sprintf("room %s plays %q, which this server does not offer", code, game), "lobby.notOffered",
		engine.Str("Code", code), engine.Str("Game", fmt.Sprintf("%q", game)))
}
