package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/engine/factories/bot"
)

func TestSimulateCmdText(t *testing.T) {
	var out, errs bytes.Buffer
	err := simulateCmd(t.Context(), []string{"--players", "3", "--bots", "random", "--games", "4", "--seed", "9"}, &out, &errs)
	if err != nil {
		t.Fatalf("simulate: %v (stderr %q)", err, errs.String())
	}
	for _, want := range []string{"4 games, 3 players, seed 9", "win rate", "Manufactory", "Architect"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if errs.Len() != 0 {
		t.Errorf("a progress bar went to a buffer, not a terminal: %q", errs.String())
	}
}

func TestSimulateCmdJSON(t *testing.T) {
	var out, errs bytes.Buffer
	err := simulateCmd(t.Context(), []string{"--players", "1", "--bots", "random", "--games", "3", "--difficulty", "easy", "--json"}, &out, &errs)
	if err != nil {
		t.Fatalf("simulate: %v", err)
	}
	var res bot.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out.String())
	}
	if res.Games != 3 || res.Players != 1 || res.Difficulty != "easy" || res.Machine == nil {
		t.Errorf("result = %+v", res)
	}
}

func TestSimulateCmdErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--bots", "nobody"},
		{"--players", "0"},
		{"--players", "6", "--bots", "random"},
		{"--games", "0"},
		{"--difficulty", "brutal", "--players", "1"},
		{"--no-such-flag"},
		{"extra"},
	} {
		var out, errs bytes.Buffer
		if err := simulateCmd(t.Context(), args, &out, &errs); err == nil {
			t.Errorf("simulate %v succeeded", args)
		}
	}
}

// TestSimulateFurnace: --game picks the game, and its own options are
// flags; another game's options are refused.
func TestSimulateFurnace(t *testing.T) {
	var out, errs bytes.Buffer
	err := simulateCmd(t.Context(), []string{"--game", "furnace", "--players", "2", "--games", "3", "--rounds", "3", "--capitalists", "on"}, &out, &errs)
	if err != nil {
		t.Fatalf("simulate: %v (stderr %q)", err, errs.String())
	}
	for _, want := range []string{"3 games of Furnace, 2 players", "rounds 3, capitalists on", "greedy", "random"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	for _, args := range [][]string{
		{"--game", "furnace", "--players", "1"},
		{"--game", "furnace", "--difficulty", "hard"},
		{"--game", "furnace", "--rounds", "5"},
		{"--game", "chess"},
	} {
		if err := simulateCmd(t.Context(), args, &out, &errs); err == nil {
			t.Errorf("simulate %v succeeded", args)
		}
	}
}

// TestSimulateFlagsAreReserved: every flag of simulate's own is among
// the names the registry keeps games' options from, so no game can take
// one and break the flag set for every game.
func TestSimulateFlagsAreReserved(t *testing.T) {
	fs, f := newSimulateFlags(games.All(), io.Discard)
	fs.VisitAll(func(fl *flag.Flag) {
		if f.options[fl.Name] == nil && !slices.Contains(games.Flags, fl.Name) {
			t.Errorf("--%s is not in games.Flags", fl.Name)
		}
	})
}
