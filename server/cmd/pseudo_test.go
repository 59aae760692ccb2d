package cmd

import (
	"context"
	"encoding/json"
	"log/slog"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session/screentest"
)

var bob = lobby.Player{ID: "SHA256:bob", Key: "SHA256:bob", Name: "bob"}

// pseudoSet is a server's commands with both games, after alice and bob
// played a rated game of Fantastic Factories to its end (a greedy bot in
// the third seat) and while bob's Furnace room waits for players.
func pseudoSet(t *testing.T) (*Set, []string) {
	t.Helper()
	ctx := context.Background()
	l := lobby.New(lobby.Config{Store: mem.New(), Games: games.Lobby(games.All()), Seeds: func() uint64 { return 47 }})
	for _, p := range []lobby.Player{alice, bob} {
		if _, err := l.Identify(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	done, err := l.Create(ctx, alice, lobby.CreateOptions{Seats: 3, Public: true, Bots: []string{"greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	screentest.PlayFactories(t, l, done.Code, alice, bob)
	solo, err := l.Create(ctx, alice, lobby.CreateOptions{Seats: 1, Options: json.RawMessage(`{"difficulty":"hard"}`)})
	if err != nil {
		t.Fatal(err)
	}
	screentest.PlayFactories(t, l, solo.Code, alice)
	open, err := l.Create(ctx, bob, lobby.CreateOptions{Game: "furnace", Seats: 4, Public: true, Bots: []string{"greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	return &Set{Lobby: l, Host: &testHost{}, Log: slog.New(slog.DiscardHandler)}, []string{done.Code, solo.Code, open.Code}
}

// TestCommandsInPseudo runs every exec command, its help and its common
// refusals in lang.Pseudo: what it prints for people (not its --json)
// shows no word the catalogues did not word, beside what a player types
// (command names, flags and their values as usage lines give them,
// games, their options and bots, codes, names, what the line itself
// said), the languages' tags and own names, and UTC. The operators'
// admin is left out: its tables and help are English, as the server's
// log is.
func TestCommandsInPseudo(t *testing.T) {
	s, codes := pseudoSet(t)
	allowed := append(codes, "SHA256", "localhost", "UTC", "devel", runtime.Version())
	for _, cmd := range commands {
		allowed = append(allowed, cmd.name)
		for _, w := range lang.Unlocalized(cmd.args) {
			if !placeholder.MatchString(w) {
				allowed = append(allowed, w) // a flag, a value as typed
			}
		}
	}
	for _, tag := range lang.Tags {
		allowed = append(allowed, string(tag), tag.Name())
	}
	for _, g := range s.Lobby.Games() {
		allowed = append(allowed, g.Name())
		allowed = append(allowed, g.Bots.Names...)
		for _, o := range g.Rules.Options() {
			allowed = append(allowed, o.Name)
			allowed = append(allowed, o.Choices...)
		}
	}
	allowed = append(allowed, games.Flags...)
	lines := []string{"help", "rooms", "rooms --playing", "profile", "profile bob", "top", "top --game furnace", "history", "mine",
		"whoami", "name", "link", "lang", "version", "new", "new --game furnace --players 2", "rematch " + codes[0],
		"nosuch", "new --nosuch", "new --players 9", "join", "play", "profile nobody", "lang xx", "help nosuch"}
	for _, cmd := range commands {
		if !cmd.operator {
			lines = append(lines, "help "+cmd.name, cmd.name+" --help")
		}
	}
	ctx := context.Background()
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			r := s.runAs(alice, lang.Pseudo, line)
			made, err := s.Lobby.Rooms(ctx) // new made one
			if err != nil {
				t.Fatal(err)
			}
			also := lang.Unlocalized(line)
			for _, m := range made {
				also = append(also, m.Code)
			}
			if code := linkCode.FindString(r.out); code != "" {
				also = append(also, code)
			}
			screentest.Pseudo(t, r.out+r.err, append(also, allowed...)...)
		})
	}
}

// linkCode is a code link prints.
var linkCode = regexp.MustCompile(`[0-9A-Z]{5}-[0-9A-Z]{5}`)

func (s *Set) runAs(p lobby.Player, tag lang.Tag, line string) result {
	var out, errOut strings.Builder
	sess := &testSession{in: strings.NewReader("")}
	status := s.Run(&Call{Ctx: context.Background(), Player: p, Line: strings.Fields(line), Out: &out, Err: &errOut,
		Lang: tag, Session: sess})
	return result{out: out.String(), err: errOut.String(), status: status, kind: sess.kind}
}
