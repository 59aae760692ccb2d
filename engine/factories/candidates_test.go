package factories

import (
	"slices"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// TestCardFacts holds the facts Legal reads by number to the printed cards
// they were worked out from: a card table that changes must change both.
func TestCardFacts(t *testing.T) {
	cards := make([]Card, 0, NumCards()+2)
	for c := range NumCards() {
		cards = append(cards, Card(c))
	}
	cards = append(cards, None, Card(NumCards())) // outside the table
	for _, c := range cards {
		b, f := c.Info(), c.facts()
		if f.design != design(c) || f.metal != b.Metal || f.energy != b.Energy ||
			f.recipe != recipeOf(b.Name) || f.activatable != activatable(&b) ||
			f.multiple != multipleAllowed(b.Name) || f.megalith != (b.Name == Megalith) ||
			f.monument != (b.Type == Monument) {
			t.Errorf("card %d (%s): facts %+v", c, b.Name, *f)
		}
		for _, d := range cards {
			if (f.tool == d.facts().tool) != (b.Tool == d.Info().Tool) {
				t.Errorf("cards %d and %d: tools %q and %q, numbered %d and %d", c, d, b.Tool, d.Info().Tool, f.tool, d.facts().tool)
			}
			if (f.design == design(d)) != (b.Name == d.Name()) {
				t.Errorf("cards %d and %d: designs %d and %d", c, d, f.design, design(d))
			}
		}
	}
	// Every design with a recipe Apply runs has a number, and no other.
	for _, b := range Blueprints() {
		if r := recipeOf(b.Name); (r != noRecipe) != activatable(&b) {
			t.Errorf("%s: recipe %d, activatable %v", b.Name, r, activatable(&b))
		}
	}
}

// TestDiceCombos holds diceCombos, which picks dice by value for Legal's
// usual cases, to the general way, which sorts the free dice and walks
// them, over random dice.
func TestDiceCombos(t *testing.T) {
	rng := engine.NewRNG(7)
	for range 20000 {
		dice := make([]Die, rng.Intn(10))
		for i := range dice {
			dice[i] = Die{Value: rng.Intn(7), Placed: rng.Intn(4) == 0}
			if rng.Intn(200) == 0 {
				dice[i].Value = 7 + rng.Intn(3) // not a die the rules make
			}
		}
		for n := range 6 {
			got, want := diceCombos(nil, dice, n), allDiceCombos(nil, dice, n)
			if !slices.Equal(got, want) {
				t.Fatalf("%d of %+v: %v, want %v", n, dice, got, want)
			}
		}
	}
}

// TestHandDesigns holds handDesigns and pairedWith to their plain
// definitions over random hands with many copies of few designs: one card
// of each design in hand order, leaving out a given card.
func TestHandDesigns(t *testing.T) {
	// distinct lists one card of each design of hand in hand order,
	// leaving out hand[skip].
	distinct := func(hand []Card, skip int) []Card {
		var out []Card
		seen := map[int]bool{}
		for i, c := range hand {
			if i != skip && !seen[design(c)] {
				seen[design(c)] = true
				out = append(out, c)
			}
		}
		return out
	}
	rng := engine.NewRNG(11)
	for range 5000 {
		// The first 12 cards are a few designs of 2 to 4 copies; and two
		// cards outside the table, which count as one design.
		hand := []Card{None, Card(NumCards())}
		for c := range 12 {
			hand = append(hand, Card(c))
		}
		rng.Shuffle(len(hand), func(i, j int) { hand[i], hand[j] = hand[j], hand[i] })
		hand = hand[:rng.Intn(len(hand)+1)]
		designs := handDesigns(nil, hand)
		var firsts []Card
		for _, e := range designs {
			firsts = append(firsts, e.card)
		}
		if want := distinct(hand, -1); !slices.Equal(firsts, want) {
			t.Fatalf("hand %v: designs %v, want %v", hand, firsts, want)
		}
		for i, e := range designs {
			want := distinct(hand, e.at)
			if got := pairedWith(nil, hand, designs, i, false); !slices.Equal(got, want) {
				t.Fatalf("hand %v, with %d: %v, want %v", hand, e.card, got, want)
			}
			want = slices.DeleteFunc(want, func(c Card) bool {
				return slices.IndexFunc(firsts, func(f Card) bool { return design(f) == design(c) }) < i
			})
			if got := pairedWith(nil, hand, designs, i, true); !slices.Equal(got, want) {
				t.Fatalf("hand %v, with %d from its design on: %v, want %v", hand, e.card, got, want)
			}
		}
	}
}
