package factories

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestMenuPutsCostlyMovesLast plays seeded games through the engine, as
// rooms do with moves that can be taken back, and checks every menu on
// the way: each legal move is in exactly one group, and groups come in
// kindRank order, so the menu never opens on a paid refresh or on Done
// while anything else can be played; taking a move back is a group of
// its own, one move that plays at once, as u does.
func TestMenuPutsCostlyMovesLast(t *testing.T) {
	undos := 0
	defer func() {
		if undos == 0 {
			t.Error("no menu offered to take a move back")
		}
	}()
	walkGames(t, 2, 5, 400, func(seed uint64, step, seat int, v factories.View) factories.Move {
		groups := (&board{v: &v}).Menu(kit.Seats{Viewer: seat})
		kind := func(g kit.MoveGroup, i int) factories.Move {
			var mv factories.Move
			if err := json.Unmarshal(g.Moves[i].Move, &mv); err != nil {
				t.Fatal(err)
			}
			return mv
		}
		n := 0
		for i, g := range groups {
			n += len(g.Moves)
			if i > 0 && kindRank[kind(groups[i-1], 0).Kind] > kindRank[kind(g, 0).Kind] {
				t.Fatalf("seed %d step %d: group %q comes after %q", seed, step, g.Title, groups[i-1].Title)
			}
			for j := range g.Moves {
				if !slices.ContainsFunc(v.Legal, func(l factories.Move) bool { return reflect.DeepEqual(l, kind(g, j)) }) {
					t.Fatalf("seed %d step %d: the menu offers %s, which is not legal", seed, step, g.Moves[j].Move)
				}
			}
		}
		if n != len(v.Legal) {
			t.Fatalf("seed %d step %d: menu holds %d moves, the engine offers %d", seed, step, n, len(v.Legal))
		}
		first := kind(groups[0], 0).Kind
		if len(groups) > 1 && (first == factories.Refresh || first == factories.Done) {
			t.Fatalf("seed %d step %d: the menu opens on %s with %d groups", seed, step, first, len(groups))
		}
		for _, g := range groups {
			if g.Key == "undo" {
				undos++
				if len(g.Moves) != 1 || g.Moves[0].Confirm || g.Title != "Take back (u)" {
					t.Fatalf("seed %d step %d: the undo group %+v", seed, step, g)
				}
			}
		}
		// Play the last move of the first group: progress without Done
		// whenever anything else is possible (and without taking moves
		// back, which would go round in circles).
		if groups[0].Key == "undo" {
			groups = groups[1:]
		}
		g := groups[0]
		return kind(g, len(g.Moves)-1)
	})
}

// walkGames plays seeds 1 to seeds of players-seat games with undo on,
// at most steps moves each, asking move of the acting seat's view for
// the move to play.
func walkGames(t *testing.T, players int, seeds uint64, steps int, move func(seed uint64, step, seat int, v factories.View) factories.Move) {
	t.Helper()
	for seed := uint64(1); seed <= seeds; seed++ {
		s, err := factories.New(factories.Config{Players: players, Undo: true}, seed)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < steps && s.Phase != factories.GameOver; step++ {
			seat := factories.StatusOf(s).Acting[0]
			if s, _, err = factories.Apply(s, seat, move(seed, step, seat, factories.ViewOf(s, seat))); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
		}
	}
}

// TestGroupWordedOnce: Menu words a group from its first move alone, so
// every move of a group must word it alike (title and card), as a group
// of every move's own words would read, through a game in two languages.
func TestGroupWordedOnce(t *testing.T) {
	s, err := factories.New(factories.Config{Players: 3}, 7)
	if err != nil {
		t.Fatal(err)
	}
	seats := kit.Seats{Names: []string{"ann", "ben", "cat"}, Bots: make([]string, 3)}
	checked := 0
	for step := 0; s.Phase != factories.GameOver && step < 400; step++ {
		acting := factories.StatusOf(s).Acting
		for _, tag := range []lang.Tag{lang.English, lang.Polish} {
			seats.L, seats.Viewer = lang.For(tag), acting[0]
			v := factories.ViewOf(s, acting[0])
			th := kit.Theme{L: seats.L}
			for _, g := range (&board{v: &v}).Menu(seats) {
				for _, mv := range g.Moves {
					var m factories.Move
					if err := json.Unmarshal(mv.Move, &m); err != nil {
						t.Fatal(err)
					}
					title, card := groupOf(th, &v, m)
					if groupKey(m) != g.Key || title != g.Title || !reflect.DeepEqual(card, g.Card) {
						t.Fatalf("step %d: %q in group %q %q %v; its own words %q %q %v", step, mv.Label, g.Key, g.Title, g.Card, groupKey(m), title, card)
					}
					checked++
				}
			}
		}
		v := factories.ViewOf(s, acting[0])
		if s, _, err = factories.Apply(s, acting[0], v.Legal[step%len(v.Legal)]); err != nil {
			t.Fatal(err)
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d moves checked", checked)
	}
}

// TestGroupHeadsAsWorded holds the groups' titles and cards that every
// screen shares to the ones worded afresh, through seeded games in two
// languages: a slot's card changes under the same move, and a shared
// head keyed on less than it reads would keep the old card's name.
func TestGroupHeadsAsWorded(t *testing.T) {
	groupHeads = kit.NewShared[headKey, groupHead](1024) // an empty share
	heads := 0
	walkGames(t, 3, 3, 300, func(seed uint64, step, _ int, v factories.View) factories.Move {
		for _, tag := range []lang.Tag{lang.English, lang.Polish} {
			th := kit.Theme{L: lang.For(tag)}
			for _, mv := range v.Legal {
				title, card := groupOf(th, &v, mv)
				if got := groupHeadOf(th, &v, mv); got.title != title || !reflect.DeepEqual(got.card, card) {
					t.Fatalf("seed %d step %d: %+v's group is %q %+v, want %q %+v", seed, step, mv, got.title, got.card, title, card)
				}
				heads++
			}
		}
		return v.Legal[step%len(v.Legal)]
	})
	if heads < 500 {
		t.Fatalf("only %d groups' heads asked: the test plays too little", heads)
	}
}
