package line

import (
	"context"
	"io"
	"testing"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/screentest"
)

// TestLineModeInPseudo runs the line mode in lang.Pseudo through the
// lobby, a new room, a bot and a look at the table: nothing it writes is
// a word no catalogue worded, beside what a player types.
func TestLineModeInPseudo(t *testing.T) {
	gs := games.All()
	l := lobby.New(lobby.Config{Store: mem.New(), Games: games.Lobby(gs)})
	in, w := io.Pipe()
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Config{Lobby: l, Games: games.Screens(gs), Player: lobby.Player{ID: "SHA256:al", Key: "SHA256:al", Name: "al"},
			Start: session.Start{Mode: "lobby"}, In: in, Out: out, Lang: lang.Pseudo})
	}()
	defer func() {
		cancel()
		w.Close()
		<-done
	}()
	var typed []string
	say := func(line, then string) {
		typed = append(typed, line)
		mark := len(out.String())
		io.WriteString(w, line+"\n")
		waitOutFrom(t, out, mark, then)
	}
	waitOut(t, out, lang.Accent("Welcome"))
	say("games", lang.Accent("Bots"))
	say("rooms", lang.Accent("room"))
	say("new furnace 2 players", lang.Accent("Waiting for"))
	say("bot", lang.Accent("now plays seat"))
	waitOut(t, out, lang.Accent("your turn"))
	say("look", "al: ")
	say("help", lang.Accent("where the game stands"))
	// A solo table: The Machine, its board, and a hint.
	say("leave", lang.Accent("Welcome"))
	say("new factories 1 player hard", lang.Accent("your turn"))
	say("look", "al: ")
	say("board "+lang.Accent("Machine"), lang.Accent("The Machine's compound"))
	say("hint", lang.Accent("worth"))
	allowed := []string{"al"}
	for _, g := range gs {
		allowed = append(allowed, g.Name())
		allowed = append(allowed, g.Bots.Names...)
		for _, o := range g.Rules.Options() { // words typed after new, as bots' names are
			allowed = append(allowed, o.Name)
			allowed = append(allowed, o.Choices...)
		}
	}
	for _, line := range typed {
		allowed = append(allowed, lang.Unlocalized(line)...)
	}
	rooms, _ := l.Rooms(ctx)
	for _, r := range rooms {
		allowed = append(allowed, r.Code)
	}
	screentest.Pseudo(t, out.String(), allowed...)
}
