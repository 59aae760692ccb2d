package factories

import (
	"reflect"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// Carry implements kit.Carrier: each part of the seated board whose
// sub-view (all that its drawing reads of the view) is unchanged is
// taken over from old, drawn; the parts also key on the theme, seats
// and size themselves. The sub-views are TestCarryRedrawsWhatChanged's.
func (b *board) Carry(old kit.Board) {
	o, ok := old.(*board)
	if !ok {
		return
	}
	if marketOf(o.v) == marketOf(b.v) {
		b.market = o.market
	}
	if reflect.DeepEqual(youOf(o.v), youOf(b.v)) {
		b.you = o.you
	}
	if reflect.DeepEqual(othersOf(o.v), othersOf(b.v)) {
		b.others = o.others
	}
}

// marketFrom is what marketView reads.
type marketFrom struct {
	market                        factories.Market
	deck, discard, contractorDeck int
}

func marketOf(v *factories.View) marketFrom {
	return marketFrom{v.Market, v.DeckSize, v.DiscardSize, v.ContractorDeck}
}

// youFrom is what youView reads: the seat's own area, its hand, the
// phase (for the dice) and The Machine (for the score against it).
type youFrom struct {
	seat    int
	phase   factories.Phase
	you     factories.PlayerView
	hand    []factories.Card
	machine *factories.Machine
}

func youOf(v *factories.View) youFrom {
	return youFrom{v.Seat, v.Phase, v.You(), v.Hand, v.Machine}
}

// othersFrom is what othersView reads: every seat, who is choosing in
// the market, and The Machine.
type othersFrom struct {
	seat, turn int
	phase      factories.Phase
	players    []factories.PlayerView
	machine    *factories.Machine
}

func othersOf(v *factories.View) othersFrom {
	return othersFrom{v.Seat, v.Turn, v.Phase, v.Players, v.Machine}
}

// marketDrawn is the marketplace drawn w wide. It is all one table's
// screens' alike, a seat's or a spectator's (marketView reads marketOf
// alone, which is public), so after a move the table draws it once
// between them.
func marketDrawn(t kit.Theme, v *factories.View, w int) string {
	key := marketKey{t.Styles, t.L.Tag(), w, marketOf(v)}
	return markets.Get(key, func() string { return marketView(t, v, w) })
}

var markets = kit.NewShared[marketKey, string](512)

type marketKey struct {
	styles *kit.Styles
	tag    lang.Tag
	w      int
	from   marketFrom
}
