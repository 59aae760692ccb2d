package factories

import (
	"slices"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// Carry implements kit.Carrier: each part of the seated board whose
// sub-view (all that its drawing reads of the view) is unchanged is
// taken over from old, drawn; the parts also key on the theme, seats
// and size themselves. The sub-views are TestCarryRedrawsWhatChanged's.
// The old board is done with, so its drawings are taken over rather
// than copied into a new board's at every update, the changed ones
// dropped; it keeps none.
func (b *board) Carry(old kit.Board) {
	o, ok := old.(*board)
	if !ok || o == b || o.drawings == nil {
		return
	}
	d := o.drawings
	o.drawings = nil
	if marketOf(o.v) != marketOf(b.v) {
		d.market = kit.Part{}
	}
	if !sameYou(o.v, b.v) {
		d.you = kit.Part{}
	}
	if !sameOthers(o.v, b.v) {
		d.others = kit.PartOf[othersDrawn]{}
	}
	if !d.made.ok || !sameMenuFrom(o.v, b.v) {
		d.made = madeMenu{} // Menu compares the seats it was made for
	}
	// Each seat's block for a seat whose record is the same: its key
	// holds the rest of what it read.
	if len(d.seats) == len(b.v.Players) && len(o.v.Players) == len(b.v.Players) {
		for i := range d.seats {
			if d.seats[i].ok && !samePlayer(&o.v.Players[i], &b.v.Players[i]) {
				d.seats[i] = seatPart{}
			}
		}
	} else {
		d.seats = nil
	}
	b.drawings = d
}

// sameYou and sameOthers compare what youView and othersView read, field
// by field: as reflect.DeepEqual would, without boxing them or walking
// them by reflection at every update of every screen, and in place, as a
// PlayerView is large. A field the parts draw from and these miss fails
// TestCarryRedrawsWhatChanged.
func sameYou(a, b *factories.View) bool {
	if a.Seat != b.Seat || a.Phase != b.Phase || !slices.Equal(a.Hand, b.Hand) || !sameMachine(a.Machine, b.Machine) {
		return false
	}
	if a.Seat < 0 || a.Seat >= len(a.Players) || a.Seat >= len(b.Players) {
		y, z := a.You(), b.You()
		return samePlayer(&y, &z)
	}
	return samePlayer(&a.Players[a.Seat], &b.Players[b.Seat])
}

func sameOthers(a, b *factories.View) bool {
	if a.Seat != b.Seat || a.Turn != b.Turn || a.Phase != b.Phase || len(a.Players) != len(b.Players) ||
		!sameMachine(a.Machine, b.Machine) {
		return false
	}
	for i := range a.Players {
		if !samePlayer(&a.Players[i], &b.Players[i]) {
			return false
		}
	}
	return true
}

func samePlayer(a, b *factories.PlayerView) bool {
	return a.Seat == b.Seat && a.HandSize == b.HandSize && a.Metal == b.Metal && a.Energy == b.Energy &&
		a.Goods == b.Goods && a.Prestige == b.Prestige && a.Done == b.Done && a.Foreman == b.Foreman &&
		a.HiredHands == b.HiredHands && a.Specialists == b.Specialists && a.SettingDice == b.SettingDice &&
		slices.Equal(a.Dice, b.Dice) && slices.EqualFunc(a.Compound, b.Compound, sameBuilding) &&
		slices.Equal(a.HQ.Research, b.HQ.Research) && slices.Equal(a.HQ.Generate, b.HQ.Generate) &&
		slices.Equal(a.HQ.Mine, b.HQ.Mine)
}

func sameBuilding(a, b factories.Building) bool {
	return a.Card == b.Card && a.Used == b.Used && a.Copied == b.Copied && slices.Equal(a.Dice, b.Dice)
}

func sameMachine(a, b *factories.Machine) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Goods == b.Goods && a.Roll == b.Roll && slices.Equal(a.Compound, b.Compound)
}

// marketFrom is what marketView reads.
type marketFrom struct {
	market                        factories.Market
	deck, discard, contractorDeck int
}

func marketOf(v *factories.View) marketFrom {
	return marketFrom{v.Market, v.DeckSize, v.DiscardSize, v.ContractorDeck}
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

// marketFitted is marketDrawn fitted to w, as the seated board keeps it
// (Grid.Fitted): fitted once for the table too.
func marketFitted(t kit.Theme, v *factories.View, w int) string {
	key := marketKey{t.Styles, t.L.Tag(), w, marketOf(v)}
	return fittedMarkets.Get(key, func() string { return fitWidth(marketDrawn(t, v, w), w) })
}

var fittedMarkets = kit.NewShared[marketKey, string](512)

type marketKey struct {
	styles *kit.Styles
	tag    lang.Tag
	w      int
	from   marketFrom
}
