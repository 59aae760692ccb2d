package furnace

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/session/kit"
)

// TestCardTextSaysHowSureTheDataIs reads the reference of every company,
// start card and capitalist: each says plainly how sure its data is, with
// the doubt or the stand-in told in the card data's own words.
func TestCardTextSaysHowSureTheDataIs(t *testing.T) {
	b := &board{v: &furnace.View{Config: furnace.Config{Capitalists: true, Arthur: furnace.ArthurPaired}}}
	th := kit.NewTheme("mono", nil)
	words := map[string]string{"A": "a published fact (A)", "B": "single-source (B)", "C": "doubtful (C)", "stand-in": "STAND-IN value"}
	check := func(key, id, mark, note string) {
		t.Helper()
		text := strings.Join(strings.Fields(b.CardText(th, kit.CardRef{Key: key, Name: id, Where: "here"}, 400)), " ")
		if !strings.Contains(text, words[mark]) {
			t.Errorf("%s (%s) does not say %q:\n%s", id, mark, words[mark], text)
		}
		if note != "" && !strings.Contains(text, strings.Join(strings.Fields(note), " ")) {
			t.Errorf("%s does not give its note %q:\n%s", id, note, text)
		}
	}
	for _, c := range furnace.Companies() {
		check("card:"+c.ID, c.ID, c.Confidence, c.Note)
		card, _ := furnace.CardByID(c.ID)
		text := b.CardText(th, cardRef(card, "here"), 200)
		for _, l := range []furnace.Line{c.Basic, c.Upgraded, c.Compensation} {
			if !strings.Contains(text, long.line(l)) {
				t.Errorf("%s does not show its line %s:\n%s", c.ID, long.line(l), text)
			}
		}
	}
	for _, s := range furnace.StartCards() {
		check("card:"+s.ID, s.ID, s.Confidence, s.Note)
	}
	for _, k := range furnace.Capitalists() {
		check("capitalist:"+string(k.ID), k.Name, k.Confidence, k.Note)
	}
	if text := b.CardText(th, kit.CardRef{Key: "card:nope", Name: "nope"}, 60); !strings.Contains(text, "not a card of this game") {
		t.Errorf("an unknown card reads %q", text)
	}
}

// TestRulesNameTheUncertainCards checks the rules' last page against the
// card data: every doubtful and stand-in company is named.
func TestRulesNameTheUncertainCards(t *testing.T) {
	pages := UI.Rules(nil)
	if len(pages) < 7 {
		t.Fatalf("%d rules pages", len(pages))
	}
	about := pages[len(pages)-1].Text
	for _, c := range furnace.Companies() {
		if named := strings.Contains(about, "• "+c.ID+":"); named != (c.Confidence == "C" || c.Confidence == "stand-in") {
			t.Errorf("%s (confidence %s): named on the rules page %v", c.ID, c.Confidence, named)
		}
	}
}
