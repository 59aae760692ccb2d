package players

import (
	"context"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// A solo game, played against the game's own opponent, keeps out of the
// game's games, wins and average score, which count games against other
// seats: its record is the solo line's. The player's totals count both.
func TestSummaryKeepsSoloApart(t *testing.T) {
	ps := New(Config{Store: mem.New()})
	opponent := 40
	rooms := []Played{
		{Code: "SOLO01", Game: "factories", Seats: 1, Seat: 0, Over: true,
			Result: &engine.Result{Scores: []int{31}, Ranks: []int{1}, Winners: []int{}, Opponent: &opponent}},
		{Code: "DUO001", Game: "factories", Seats: 2, Seat: 1, Over: true,
			Result: &engine.Result{Scores: []int{10, 20}, Ranks: []int{2, 1}, Winners: []int{1}}},
		{Code: "DUO002", Game: "factories", Seats: 2, Seat: 0, Over: true,
			Result: &engine.Result{Scores: []int{14, 30}, Ranks: []int{2, 1}, Winners: []int{1}}},
	}
	sum, err := ps.Summarize(context.Background(), store.Profile{ID: "SHA256:alice", Name: "alice"}, true, rooms, []string{"factories"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Games != 3 || sum.Wins != 1 {
		t.Errorf("totals: %d games, %d wins; want 3 and 1", sum.Games, sum.Wins)
	}
	if len(sum.ByGame) != 1 {
		t.Fatalf("byGame: %+v", sum.ByGame)
	}
	if g := sum.ByGame[0]; g.Games != 2 || g.Wins != 1 || g.AverageScore != 17 {
		t.Errorf("factories against other seats: %d games, %d wins, average %v; want 2, 1, 17 (the solo 31 kept apart)",
			g.Games, g.Wins, g.AverageScore)
	}
}
