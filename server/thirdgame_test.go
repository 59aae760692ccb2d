package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// This file adds a third game, tally, by following docs/adding-a-game.md
// to the letter, and plays it end to end. Its rules are internal/tally
// (step 1); everything else a game needs is below: a bot (step 2), its
// screens (step 3) and its registry entry (step 4). Nothing in the lobby,
// the server, the sessions or the other games changed for it.

// Step 2: the bots. engine.Random plays any game whose view lists its
// legal moves.
func tallyBots() engine.Bots {
	return engine.TypedBots[tally.View, tally.Move]([]string{"random"},
		func(_ string, seed uint64) (*engine.Random[tally.View, tally.Move], error) {
			return engine.NewRandom[tally.View, tally.Move](seed), nil
		})
}

// Step 3: the screens, a kit.Screens over the game's own view.
var tallyScreens = kit.Screens[tally.View]{
	Board: func(v *tally.View) kit.Board { return tallyBoard{v} },
	Pages: func(*lang.Printer) []kit.RulesPage {
		return []kit.RulesPage{{Title: "Tally", Text: "Take the top card on your turn, then say you are done.\n\nThe biggest hand wins."}}
	},
}

type tallyBoard struct{ v *tally.View }

func (b tallyBoard) Over() bool { return b.v.Over }

func (b tallyBoard) Header(_ kit.Theme, s kit.Seats) string {
	switch {
	case b.v.Over:
		return "game over"
	case b.v.Turn < 0:
		return fmt.Sprintf("round %d of %d · everyone says done", b.v.Round, tally.Rounds)
	}
	whose := s.Name(b.v.Turn) + "'s"
	if s.Me(b.v.Turn) {
		whose = "your"
	}
	return fmt.Sprintf("round %d of %d · %s turn", b.v.Round, tally.Rounds, whose)
}

func (b tallyBoard) Banner(kit.Theme, kit.Seats) string { return "" }

func (b tallyBoard) Draw(f kit.Frame) string {
	lines := []string{"HANDS"}
	for seat, n := range b.v.HandSizes {
		lines = append(lines, fmt.Sprintf("  %s: %d cards", f.Seats.Name(seat), n))
	}
	if b.v.Hand != nil {
		lines = append(lines, fmt.Sprintf("  your hand: %v, total %d", b.v.Hand, total(b.v.Hand)))
	}
	if f.Menu != nil {
		lines = append(lines, "", f.Menu(f.Width, 4))
	}
	lines = append(lines, "", f.Log(f.Width, 6))
	return kit.Fit(strings.Join(lines, "\n"), f.Width, f.Height)
}

func (b tallyBoard) Scores(f kit.Frame) string {
	var rows []kit.ScoreRow
	for seat, sc := range b.v.Scores {
		rank := 1
		for _, other := range b.v.Scores {
			if other > sc {
				rank++
			}
		}
		rows = append(rows, kit.ScoreRow{Rank: rank, Name: f.Seats.Name(seat), Score: sc, Detail: fmt.Sprint(sc), Winner: rank == 1})
	}
	return strings.Join(kit.ScoreChart(f.Theme, rows, f.Width), "\n")
}

func (b tallyBoard) Menu(kit.Seats) []kit.MoveGroup {
	return kit.MenuOf(b.v.Legal,
		func(tally.Move) (kit.MoveGroup, int) { return kit.MoveGroup{Key: "hand", Title: "your turn"}, 0 },
		func(m tally.Move) kit.MenuMove {
			raw, _ := json.Marshal(m)
			label := map[string]string{"take": "Take the top card", "done": "Done for this round"}[m.Kind]
			return kit.MenuMove{Label: label, Move: raw}
		})
}

func (b tallyBoard) Idle(s kit.Seats) string {
	if b.v.Turn >= 0 {
		return "waiting for " + s.Name(b.v.Turn)
	}
	return "waiting for the others to say done"
}

func (b tallyBoard) Cards(kit.Seats) []kit.CardRef { return nil }

func (b tallyBoard) CardText(kit.Theme, kit.CardRef, int) string { return "" }

func total(hand []int) int {
	n := 0
	for _, c := range hand {
		n += c
	}
	return n
}

// Step 4: the registration, one entry beside the registry's own.
func withTally() []games.Game {
	return append(games.All(), games.Game{
		Game:   lobby.Game{Rules: tally.Rules, Bots: tallyBots()},
		Screen: tallyScreens,
	})
}

// TestPlayThroughThirdGame is step 5: the third game offered by `help
// new`, chosen in the new-room form, and played at a terminal to its
// scores beside a bot, with nothing but the entry above.
func TestPlayThroughThirdGame(t *testing.T) {
	srv := startServerOf(t, withTally(), t.TempDir(), func(*lobby.Config) {})

	help := run(t, dialKey(t, srv.addr, "alice", newKey(t)), "help new", "")
	if !strings.Contains(help.stdout, "tally") {
		t.Fatalf("help new does not offer the third game:\n%s", help.stdout)
	}

	alice := sitDown(t, srv.addr, "alice", 80, 24, "")
	alice.openForm("Tally")
	alice.press("down", "down", "down")
	alice.sees("▸ bots")
	alice.press("right")
	alice.sees("◂ 1 (seat 2) ▸")
	alice.press("enter")
	alice.sees("round 1 of 10", "HANDS", "alice: 0 cards")
	for round := 1; round <= tally.Rounds; round++ {
		alice.sees(fmt.Sprintf("round %d of %d · your turn", round, tally.Rounds), "Take the top card")
		alice.press("enter")
		alice.sees(fmt.Sprintf("round %d of %d · everyone says done", round, tally.Rounds), "Done for this round")
		alice.press("enter")
	}
	alice.sees("game over", "★ ", "1. ", "alice", "random bot 2", "You said done") // a tie shares the win
}
