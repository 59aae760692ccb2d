package furnace

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/session/kit"
)

// TestMenuHoldsEveryLegalMove plays seeded games in every size and setting
// through the engine and checks every seat's menu on the way: each legal
// move is in exactly one group, every move the menu offers is legal, Done
// is last and alone, and the upgrades, while open, come first.
func TestMenuHoldsEveryLegalMove(t *testing.T) {
	configs := []furnace.Config{
		{Players: 2}, {Players: 3, Chain: true}, {Players: 4, Capitalists: true},
		{Players: 2, Capitalists: true, Arthur: furnace.ArthurPaired}, {Players: 4, Capitalists: true, Chain: true, Rounds: 3},
	}
	lossy.Store(0)
	for _, cfg := range configs {
		for seed := uint64(1); seed <= 6; seed++ {
			t.Run(fmt.Sprintf("%+v/seed%d", cfg, seed), func(t *testing.T) {
				checkMenus(t, cfg, seed)
			})
		}
	}
	if lossy.Load() == 0 {
		t.Error("no menu offered a move that loses something (a skip that forgoes money, a last round's conversion)")
	}
}

// lossy counts the menus' moves that say what they lose (MenuMove.Loses).
var lossy atomic.Int64

func checkMenus(t *testing.T, cfg furnace.Config, seed uint64) {
	cfg.Undo = true // as rooms play it
	s, err := furnace.New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := engine.NewRNG(seed)
	undos := 0
	defer func() {
		if undos == 0 {
			t.Error("no menu offered to take a move back")
		}
	}()
	for step := 0; s.Phase != furnace.GameOver; step++ {
		if step > 2000 {
			t.Fatal("the game did not end")
		}
		acting := furnace.StatusOf(s).Acting
		for _, seat := range acting {
			v := furnace.ViewOf(s, seat)
			groups := (&board{v: &v}).Menu(kit.Seats{Viewer: seat})
			var offered []furnace.Move
			for i, g := range groups {
				if len(g.Moves) == 0 {
					t.Fatalf("step %d: group %q is empty", step, g.Title)
				}
				for _, mm := range g.Moves {
					var mv furnace.Move
					if err := json.Unmarshal(mm.Move, &mv); err != nil {
						t.Fatal(err)
					}
					if mm.Label == "" {
						t.Fatalf("step %d: %s has no label", step, mm.Move)
					}
					switch {
					case mv.Kind == furnace.Done && (i != len(groups)-1 || len(g.Moves) != 1):
						t.Fatalf("step %d: Done is in group %d of %d with %d moves", step, i+1, len(groups), len(g.Moves))
					case mv.Kind == furnace.Upgrade && i != 0:
						t.Fatalf("step %d: the upgrades are group %d, not the first", step, i+1)
					case mv.Kind == furnace.Undo && (g.Key != "undo" || len(g.Moves) != 1 || mm.Confirm):
						t.Fatalf("step %d: the undo is in group %+v", step, g)
					case mv.Kind == furnace.Undo:
						undos++
					}
					if mm.Loses != "" {
						lossy.Add(1)
					}
					offered = append(offered, mv)
				}
			}
			if len(offered) != len(v.Legal) {
				t.Fatalf("step %d seat %d: the menu offers %d moves, the engine %d", step, seat, len(offered), len(v.Legal))
			}
			for _, l := range v.Legal {
				if n := count(offered, l); n != 1 {
					t.Fatalf("step %d seat %d: %+v is in the menu %d times", step, seat, l, n)
				}
			}
		}
		// A random seat plays a random move of its menu, as a person
		// could, but never takes one back: that could go round in circles.
		seat := acting[rng.Intn(len(acting))]
		v := furnace.ViewOf(s, seat)
		groups := slices.DeleteFunc((&board{v: &v}).Menu(kit.Seats{Viewer: seat}), func(g kit.MoveGroup) bool { return g.Key == "undo" })
		g := groups[rng.Intn(len(groups))]
		var mv furnace.Move
		json.Unmarshal(g.Moves[rng.Intn(len(g.Moves))].Move, &mv)
		if err := s.Play(seat, mv); err != nil {
			t.Fatalf("step %d: the menu's %+v is refused: %v", step, mv, err)
		}
	}
}

func count(moves []furnace.Move, m furnace.Move) int {
	return len(slices.DeleteFunc(slices.Clone(moves), func(x furnace.Move) bool { return !reflect.DeepEqual(x, m) }))
}
