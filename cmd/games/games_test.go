package games

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby"
)

// TestRegistry: the games load, each with its rules, bots, screen and
// simulator, under names no two share.
func TestRegistry(t *testing.T) {
	gs, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) < 2 {
		t.Fatalf("%d games", len(gs))
	}
	for _, g := range gs {
		if g.Rules == nil || g.Bots.New == nil || g.Screen == nil || g.Simulate == nil {
			t.Errorf("%s: %+v", g.Name(), g)
		}
	}
	if s := Screens(gs); len(s) != len(gs) {
		t.Errorf("screens of %d games: %v", len(gs), s)
	}
	if n := Names(gs); len(n) != len(gs) || n[0] != gs[0].Name() {
		t.Errorf("names %v", n)
	}
}

// TestCheckRefusesFlags: a game whose option has the name of one of
// `new`'s or `simulate`'s own flags is refused at start-up, naming the
// game and the option, instead of `new` failing for every game.
func TestCheckRefusesFlags(t *testing.T) {
	for _, name := range Flags {
		g := Game{Game: lobby.Game{Rules: withOption{All()[0].Rules, engine.Option{Name: name, Choices: []string{"a"}}}}}
		err := Check(append(All()[1:], g))
		if err == nil || !strings.Contains(err.Error(), g.Name()+`: the option "`+name+`"`) {
			t.Errorf("an option %q: %v", name, err)
		}
	}
	if err := Check(append(All(), All()[0])); err == nil || !strings.Contains(err.Error(), "two games") {
		t.Errorf("a game twice: %v", err)
	}
}

// withOption is a Ruleset with one more option.
type withOption struct {
	engine.Ruleset
	extra engine.Option
}

func (w withOption) Options() []engine.Option { return append(w.Ruleset.Options(), w.extra) }
