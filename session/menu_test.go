package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/session/kit"
)

// TestMenuKeepsItsMoreLine: however long the selected move's label, the
// menu fits its height and still says how many moves are below.
func TestMenuKeepsItsMoreLine(t *testing.T) {
	g := kit.MoveGroup{Key: "g", Title: "card 3: oil-06"}
	for i := range 12 {
		g.Moves = append(g.Moves, kit.MenuMove{Label: fmt.Sprintf("Place your %d on oil-06 and the neutral 2 on a card far to the right, number %d", i%4+1, i)})
	}
	th := kit.NewTheme("mono", nil)
	for _, h := range []int{3, 5, 8} {
		for item := range g.Moves {
			m := menu{groups: []kit.MoveGroup{g}, item: item}
			lines := strings.Split(m.view(th, 44, h, false), "\n")
			if len(lines) > h {
				t.Fatalf("h %d, item %d: %d lines:\n%s", h, item, len(lines), strings.Join(lines, "\n"))
			}
			if item < len(g.Moves)-1 && !strings.Contains(lines[len(lines)-1], "more (↓)") {
				t.Fatalf("h %d, item %d: no \"more\" line:\n%s", h, item, strings.Join(lines, "\n"))
			}
			if !strings.Contains(strings.Join(lines, " "), "▸ ") {
				t.Fatalf("h %d, item %d: the selected move is not shown:\n%s", h, item, strings.Join(lines, "\n"))
			}
		}
	}
}

// TestMenuViewKeptUntilChanged: the menu's drawing is kept for the same
// size, but a key that moves it, a move sent, or a costly move armed
// draws it anew.
func TestMenuViewKeptUntilChanged(t *testing.T) {
	g := &gameScreen{env: &env{theme: kit.NewTheme("mono", nil)}, seat: 0}
	g.menu = newMenu([]kit.MoveGroup{
		{Key: "a", Title: "A", Moves: []kit.MenuMove{{Label: "one", Move: []byte(`1`)}, {Label: "two", Move: []byte(`2`)}}},
		{Key: "b", Title: "B", Moves: []kit.MenuMove{{Label: "three", Move: []byte(`3`)}}},
	}, menu{})
	check := func(what string) {
		t.Helper()
		for _, h := range []int{10, 3, 10} { // measured, then placed: both kept
			if got, want := g.menuView(40, h), g.drawMenu(40, h); got != want {
				t.Fatalf("%s, at height %d the menu reads\n%s\nwant\n%s", what, h, got, want)
			}
		}
	}
	check("at first")
	g.menu.stepItem(1)
	check("a move down")
	g.menu.stepGroup(1)
	check("a group on")
	g.menu.setFilter("o")
	check("searching")
	g.menu.clearFilter()
	check("the search ended")
	g.armed = []byte(`3`)
	check("armed")
	g.armed, g.pending = nil, true
	check("sending")
}

// TestMenuNeverPreselectsALoss: the menu lands by itself only on a move
// that loses nothing while its group has one (issue 36, point 5): when
// it opens, and when the move it was on is gone (a card added coal, so
// every line of the card changed, and the old place is now the skip).
func TestMenuNeverPreselectsALoss(t *testing.T) {
	mv := func(label, loses string) kit.MenuMove {
		return kit.MenuMove{Label: label, Move: []byte(`"` + label + `"`), Loses: loses}
	}
	skip := mv("skip 3 coal → 4 money", "$4 less than this card can make now")
	opened := newMenu([]kit.MoveGroup{{Key: "produce:x", Moves: []kit.MenuMove{skip, mv("3 coal into 4 money", "")}}}, menu{})
	if got, _ := opened.selected(); got.Label != "3 coal into 4 money" {
		t.Errorf("the menu opens on %q", got.Label)
	}
	old := newMenu([]kit.MoveGroup{{Key: "produce:x", Moves: []kit.MenuMove{mv("2 coal into 4 money", ""), mv("1 coal into 2 money", ""), mv("skip 2 coal", "$4 less")}}}, menu{})
	old.item = 1
	after := newMenu([]kit.MoveGroup{{Key: "produce:x", Moves: []kit.MenuMove{mv("3 coal into 6 money", ""), skip}}}, old)
	if got, _ := after.selected(); got.Loses != "" {
		t.Errorf("after the update the menu is on %q, which loses %s", got.Label, got.Loses)
	}
	kept := newMenu(old.groups, old)
	kept.item = 2 // the player's own choice of a loss stays theirs
	if again := newMenu(old.groups, kept); again.item != 2 {
		t.Errorf("the player's own choice of the skip moved to %d", again.item)
	}
}

// TestNewMenuKeepsDrawingsOfTheSameWords: a new menu takes the old one's
// drawings only when it draws the same (its groups' keys, titles and
// labels), whatever its moves' JSON; a label changed is drawn again.
func TestNewMenuKeepsDrawingsOfTheSameWords(t *testing.T) {
	th := kit.NewTheme("default", nil)
	groups := func(label, data string) []kit.MoveGroup {
		return []kit.MoveGroup{{Key: "take:1", Title: "take slot 1", Moves: []kit.MenuMove{
			{Label: "take Foundry", Move: []byte(`{"kind":"take","slot":` + data + `}`)}, {Label: label, Move: []byte(`{}`)}}}}
	}
	old := newMenu(groups("pass", "1"), menu{})
	old.drawn[0] = menuDrawing{menuKey{w: 40, h: 10, styles: th.Styles}, old.view(th, 40, 10, false)}
	if same := newMenu(groups("pass", "2"), old); same.drawn != old.drawn {
		t.Error("a menu of the same words did not keep the drawings")
	}
	changed := newMenu(groups("pass and lose 2 dice", "1"), old)
	if changed.drawn != [2]menuDrawing{} {
		t.Error("a menu with a label changed kept the old drawings")
	}
	if idle := newMenu(nil, old); idle.drawn != [2]menuDrawing{} {
		t.Error("a menu of no moves (the board's idle line) kept the old drawings")
	}
}

// TestMenuSameInMoreLines: a menu that leaves two of its lines unused
// draws the same in exactly the lines it takes, so a board that draws it
// in all its height to learn how many lines it takes may place that
// drawing as the menu cut to them. (A menu cut to its lines fills them,
// but for the "more" line when the last move is selected.)
func TestMenuSameInMoreLines(t *testing.T) {
	long := kit.MoveGroup{Key: "long", Title: "a group whose title is far too long to share a line with the head"}
	short := kit.MoveGroup{Key: "short", Title: "card 3"}
	for i := range 9 {
		long.Moves = append(long.Moves, kit.MenuMove{Label: fmt.Sprintf("Place your %d on oil-06 and the neutral 2 on a card far to the right, number %d", i%4+1, i)})
		if i < 3 {
			short.Moves = append(short.Moves, kit.MenuMove{Label: fmt.Sprintf("take %d", i)})
		}
	}
	one := kit.MoveGroup{Key: "one", Title: "done", Moves: []kit.MenuMove{{Label: "Done, leaving every die unplaced for the round and the next"}}}
	th := kit.NewTheme("mono", nil)
	groups := []kit.MoveGroup{short, long, one}
	for _, w := range []int{12, 30, 44, 80} {
		for g := range groups {
			for item := range groups[g].Moves {
				for _, filter := range []string{"", "number", "nothing like it"} {
					for _, armed := range []bool{false, true} {
						m := menu{groups: groups, group: g, item: item, filter: filter}
						for h := 0; h <= 16; h++ {
							full := m.view(th, w, h, armed)
							n := strings.Count(full, "\n") + 1
							if n > h-2 {
								continue
							}
							if got := m.view(th, w, n, armed); got != full {
								t.Fatalf("w %d, group %d, item %d, %q: in %d lines:\n%s\nin its %d:\n%s", w, g, item, filter, h, full, n, got)
							}
						}
					}
				}
			}
		}
	}
}
