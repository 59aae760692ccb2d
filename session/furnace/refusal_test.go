package furnace

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestRefusalsSpeakEveryLanguage plays seeded games and, at each position,
// has every seat try moves the rules refuse (out of turn, out of phase,
// naming no card or a card not there, discs and counts out of range,
// taking back what stands); every refusal must carry its words, a
// message every language has, worded without a hole in any of them.
func TestRefusalsSpeakEveryLanguage(t *testing.T) {
	seen := map[string]bool{}
	for _, cfg := range []furnace.Config{
		{Players: 2, Capitalists: true, Undo: true},
		{Players: 3, Chain: true, Capitalists: true, Arthur: furnace.ArthurPaired, Undo: true},
		{Players: 4, Capitalists: true},
	} {
		s, err := furnace.New(cfg, 7)
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRNG(7)
		for step := 0; s.Phase != furnace.GameOver; step++ {
			if step%3 == 0 {
				for seat := range s.Players {
					for _, m := range spoilt(s, seat) {
						if _, _, err := furnace.Apply(s, seat, m); err != nil {
							checkRefusal(t, err, seen)
						}
					}
				}
			}
			acting := furnace.StatusOf(s).Acting
			seat := acting[rng.Intn(len(acting))]
			legal := furnace.Legal(s, seat)
			if err := s.Play(seat, legal[rng.Intn(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		_, _, err = furnace.Apply(s, 0, furnace.Move{Kind: furnace.Done})
		checkRefusal(t, err, seen)
	}
	for _, js := range []string{`{"kind":"bid","card":"nope","disc":1}`, `{"kind":"bid","card":7}`, `{"kind":"compensate","times":[1,2,3]}`} {
		s, _ := furnace.Rules.New(2, nil, 1)
		_, _, err := furnace.Rules.Apply(s, 0, []byte(js))
		checkRefusal(t, err, seen)
	}
	if len(seen) < 30 {
		t.Errorf("only %d refusals met: %v", len(seen), slices.Sorted(func(yield func(string) bool) {
			for id := range seen {
				if !yield(id) {
					return
				}
			}
		}))
	}
}

// spoilt are moves for seat at s that the rules should mostly refuse.
func spoilt(s furnace.State, seat int) []furnace.Move {
	other := furnace.NoCard
	if len(s.Market) > 0 {
		other = s.Market[len(s.Market)-1].Card
	}
	mine := furnace.NoCard
	if p := s.Players[seat]; len(p.Cards) > 0 {
		mine = p.Cards[len(p.Cards)-1].Card
	}
	out := []furnace.Move{
		{Kind: furnace.Undo}, {Kind: furnace.Done}, {Kind: "jump"},
		{Kind: furnace.Bid}, {Kind: furnace.Bid, Card: other, Disc: 9}, {Kind: furnace.Bid, Card: mine, Disc: 1},
		{Kind: furnace.Bid, Card: other, Neutral: true, Disc: 2}, {Kind: furnace.Bid, Card: other, Disc: 1, Extra: other},
		{Kind: furnace.Bid, Card: other, Disc: 1, At: 2},
		{Kind: furnace.Compensate, Times: furnace.Times{9}}, {Kind: furnace.Compensate, Times: furnace.Times{-1}},
		{Kind: furnace.Compensate, Times: furnace.Times{1, 1}},
		{Kind: furnace.Produce}, {Kind: furnace.Produce, Card: other}, {Kind: furnace.Produce, Card: mine, Times: furnace.Times{9, 9}},
		{Kind: furnace.Produce, Card: mine, Again: true}, {Kind: furnace.Produce, Card: mine, Times: furnace.Times{0, 0}},
		{Kind: furnace.Upgrade}, {Kind: furnace.Upgrade, Card: mine}, {Kind: furnace.Upgrade, Card: other},
		{Kind: furnace.Place}, {Kind: furnace.Place, Card: other, At: 99},
	}
	for _, p := range s.Players {
		for _, o := range p.Cards {
			out = append(out, furnace.Move{Kind: furnace.Upgrade, Card: o.Card}, furnace.Move{Kind: furnace.Produce, Card: o.Card},
				furnace.Move{Kind: furnace.Produce, Card: o.Card, Times: furnace.Times{3, 3}})
		}
		for _, c := range p.New {
			out = append(out, furnace.Move{Kind: furnace.Place, Card: c, At: 99})
		}
	}
	for other := range s.Players {
		if other != seat {
			out = append(out, furnace.Legal(s, other)...)
		}
	}
	return out
}

func checkRefusal(t *testing.T, err error, seen map[string]bool) {
	t.Helper()
	if err == nil {
		t.Fatal("a move the rules refuse was played")
	}
	var r *engine.Refusal
	if !errors.As(err, &r) || r.ID == "" {
		t.Fatalf("refused without words for the player's language: %v", err)
	}
	seen[r.ID] = true
	for _, tag := range lang.Tags {
		th := kit.NewTheme("mono", nil).In(lang.For(tag))
		text := kit.Refusal(th, "furnace", err)
		if !th.L.Has(r.ID) || text == r.ID || strings.Contains(text, "{{") || strings.Contains(text, "no value>") {
			t.Errorf("%s: %q (%v) words as %q", tag, r.Text, r.Words, text)
		}
	}
}

// TestRefusalWordsExist reads the engine's sources for every refusal's
// message, those the games above never meet too: each must be in every
// language.
func TestRefusalWordsExist(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "engine", "furnace", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatal("no engine sources", err)
	}
	id := regexp.MustCompile(`"(furnace\.refuse\.\w+)"`)
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range id.FindAllStringSubmatch(string(src), -1) {
			n++
			for _, tag := range lang.Tags {
				if !lang.For(tag).Has(m[1]) {
					t.Errorf("%s: %s is not in the %s catalogue", f, m[1], tag)
				}
			}
		}
	}
	if n < 60 {
		t.Errorf("only %d refusal messages found in the engine", n)
	}
}
