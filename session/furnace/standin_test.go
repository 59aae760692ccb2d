package furnace

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestStandInSaysSo: a company whose data only stands in for a card the
// edition has not made public ("example-01", which read as test data)
// says so in its text's first lines and on the market's title, in every
// language (issue 36, point 10).
func TestStandInSaysSo(t *testing.T) {
	card, ok := furnace.CardByID("example-01")
	if !ok || card.Company().Confidence != "stand-in" {
		t.Fatal("example-01 is no longer a stand-in: pick the card this test is about")
	}
	for _, tag := range lang.Tags {
		th := kit.NewTheme("mono", nil).In(lang.For(tag))
		seats := kit.Seats{Names: []string{"alice", "bob"}, L: th.L}
		v := furnace.View{Phase: furnace.AuctionPhase, Market: []furnace.Lot{{Card: card}}, Players: make([]furnace.Player, 2)}
		b := &board{v: &v}
		text := b.CardText(th, cardRef(card, "market"), 60)
		head := strings.Join(strings.Split(text, "\n")[:2], " ")
		if want := th.L.T("furnace.text.standIn"); !strings.Contains(strings.Join(strings.Fields(head), " "), strings.Fields(want)[0]) {
			t.Errorf("%s: the card's text does not open with %q:\n%s", tag, want, text)
		}
		market := newMarketTable(th, &v, seats, 120).block(long, 0)
		if want := th.L.T("furnace.market.standIn", "Card", "example-01"); !strings.Contains(market[0], want) {
			t.Errorf("%s: the market's title does not say %q:\n%s", tag, want, strings.Join(market, "\n"))
		}
	}
}
