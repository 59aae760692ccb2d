package cmd

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// TestHelpNewWordsEveryBotKind: help new says what each bot kind of each
// registered game is, in every language, in that language's own words.
// help skips a kind its catalogue does not word, so a bot registered
// without words would go unexplained: this test names it.
func TestHelpNewWordsEveryBotKind(t *testing.T) {
	l := lobby.New(lobby.Config{Store: mem.New(), Games: games.Lobby(games.All())})
	s := &Set{Lobby: l, Host: &testHost{}, Log: slog.New(slog.DiscardHandler)}
	en := lang.For(lang.English)
	kinds := 0
	for _, tag := range lang.Tags {
		p := lang.For(tag)
		r := s.runIn(alice, []string{"LANG=" + string(tag)}, "help new")
		if r.status != 0 {
			t.Fatalf("%s: help new: status %d, %s", tag, r.status, r.err)
		}
		// The help's lines joined, so that a wrapped one reads whole.
		text := strings.Join(strings.Fields(r.out), " ")
		for _, g := range l.Games() {
			for _, name := range g.Bots.Names {
				kinds++
				id := "cmd.help.bot." + name
				about := p.Or(id, "")
				switch {
				case about == "":
					t.Errorf("%s: %s's bot %s has no words (%s)", tag, g.Name(), name, id)
				case tag != lang.English && about == en.Or(id, ""):
					t.Errorf("%s: %s reads as in English: %q", tag, id, about)
				case !strings.Contains(text, name+": "+strings.Join(strings.Fields(about), " ")):
					t.Errorf("%s: help new does not say what %s's bot %s is (%q):\n%s", tag, g.Name(), name, about, r.out)
				}
			}
		}
	}
	if kinds == 0 {
		t.Fatal("no game registers a bot")
	}
}
