package factories

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// Menu implements kit.Board: the legal moves grouped by what they act
// on (a marketplace slot, a card in hand, a building, the Headquarters),
// in the engine's order within a group. The groups open on what a player
// most likely wants, and keep the paid refresh and Done, which end or cost
// something, last, where a careless enter cannot reach them.
func (b *board) Menu(s kit.Seats) []kit.MoveGroup {
	m := &b.kept().made
	if m.ok && sameSeats(m.seats, s) {
		return m.groups
	}
	*m = madeMenu{seats: s, groups: b.menu(s), ok: true}
	return m.groups
}

// madeMenu is a board's menu as Menu made it for seats, which a board
// carries over while all it reads of the view is the same (sameMenuFrom):
// an update mostly leaves a seat's moves as they were. Its groups are
// shared: read-only.
type madeMenu struct {
	seats  kit.Seats
	groups []kit.MoveGroup
	ok     bool
}

// sameMenuFrom compares what menu reads of a view: the moves, and what
// they are worded and grouped from (the marketplace, the seat's own
// record and hand, the number of seats, the seat).
func sameMenuFrom(a, b *factories.View) bool {
	if a.Seat != b.Seat || a.Seats != b.Seats || a.Phase != b.Phase || marketOf(a) != marketOf(b) ||
		!slices.Equal(a.Hand, b.Hand) || !slices.EqualFunc(a.Legal, b.Legal, sameMove) {
		return false
	}
	y, z := a.You(), b.You()
	return samePlayer(&y, &z)
}

func sameMove(a, b factories.Move) bool {
	return a.Kind == b.Kind && a.Slot == b.Slot && a.Card == b.Card && slices.Equal(a.Discard, b.Discard) &&
		slices.Equal(a.Dice, b.Dice) && a.Action == b.Action && a.Choice == b.Choice && a.Value == b.Value &&
		slices.Equal(a.Values, b.Values) && a.Metal == b.Metal && a.Energy == b.Energy && a.Row == b.Row &&
		a.Pay == b.Pay && a.Opponent == b.Opponent
}

// menu makes Menu's groups.
func (b *board) menu(s kit.Seats) []kit.MoveGroup {
	v, t := b.v, kit.Theme{L: s.L}
	last := "" // the key of the last move's group
	return kit.MenuOf(v.Legal, func(mv factories.Move) (kit.MoveGroup, int) {
		key := groupKey(mv)
		if key == last {
			// MenuOf titles a group from its first move: a group's moves
			// mostly come together, and the rest need no words.
			return kit.MoveGroup{Key: key}, kindRank[mv.Kind]
		}
		last = key
		h := groupHeadOf(t, v, mv)
		return kit.MoveGroup{Key: key, Title: h.title, Card: h.card}, kindRank[mv.Kind]
	}, func(mv factories.Move) kit.MenuMove {
		return kit.MenuMove{Label: describe(t, v, s, mv), Confirm: costly[mv.Kind], Loses: loses(t, v, mv)}
	})
}

// loses says what mv throws away, for the confirm line: Done with dice
// not yet placed leaves them unused for the round.
func loses(t kit.Theme, v *factories.View, mv factories.Move) string {
	if mv.Kind != factories.Done {
		return ""
	}
	n := 0
	for _, d := range v.You().Dice {
		if !d.Placed {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return t.L.N("factories.lossDice", n)
}

// costly are the moves a stray enter must not play: they end the seat's
// turn or phase, or spend resources and cards for good. Taking a move
// back is not one: it loses nothing, and plays at once from the menu as
// u does (the menu never opens on it).
var costly = map[factories.MoveKind]bool{
	factories.Build: true, factories.Hire: true, factories.Refresh: true,
	factories.DiscardDown: true, factories.Pass: true, factories.Done: true,
}

// kindRank orders the menu's groups: dice to set first, then the market,
// then building and working, then the moves that cost or end something,
// taking a move back just before Done.
var kindRank = map[factories.MoveKind]int{
	factories.SetDice: 0, factories.Choose: 1,
	factories.Take: 2, factories.Hire: 3,
	factories.Build: 4, factories.Activate: 5, factories.Place: 6,
	factories.DiscardDown: 7, factories.Refresh: 8, factories.Pass: 9, factories.Undo: 10, factories.Done: 11,
}

// groupKey says which group a move belongs to.
func groupKey(mv factories.Move) string {
	switch mv.Kind {
	case factories.Take, factories.Hire:
		return string(mv.Kind) + ":" + strconv.Itoa(mv.Slot)
	case factories.Choose:
		return fmt.Sprintf("choose:%v", mv.Dice)
	case factories.Build, factories.Activate:
		return string(mv.Kind) + ":" + mv.Card.Name()
	}
	return string(mv.Kind)
}

// groupHeadOf is groupOf as every screen of the process words it: a
// group's title and card are public (the marketplace's cards, a card's
// name, a rule), and each menu remade for a move words its groups
// again. The key is all groupOf reads.
func groupHeadOf(t kit.Theme, v *factories.View, mv factories.Move) groupHead {
	k := headKey{t.L.Tag(), mv.Kind, mv.Slot, mv.Card, blueprintAt(v, mv.Slot), contractorAt(v, mv.Slot)}
	return groupHeads.Get(k, func() groupHead {
		title, card := groupOf(t, v, mv)
		return groupHead{title, card}
	})
}

// groupHeads are the groups' titles and cards, shared: their cards are
// read-only, as a menu's are.
var groupHeads = kit.NewShared[headKey, groupHead](1024)

type groupHead struct {
	title string
	card  *kit.CardRef
}

type headKey struct {
	tag        lang.Tag
	kind       factories.MoveKind
	slot       int
	card       factories.Card
	blueprint  factories.Card
	contractor factories.Contractor
}

// groupOf says what a move's group is called and which card it is about.
func groupOf(t kit.Theme, v *factories.View, mv factories.Move) (title string, card *kit.CardRef) {
	ref := func(c kit.CardRef) *kit.CardRef { return &c }
	work := t.L.T("factories.where.work_phase")
	switch mv.Kind {
	case factories.Take:
		c := blueprintAt(v, mv.Slot)
		if c != factories.None {
			card = ref(blueprintRef(t, c, tf(t, "factories.where.market_blueprint", "Slot", mv.Slot+1)))
		}
		return tf(t, "factories.group.take", "Slot", mv.Slot+1, "Card", cardName(t, c.Name())), card
	case factories.Hire:
		c := contractorAt(v, mv.Slot)
		if c != factories.None {
			card = ref(contractorRef(t, c, tf(t, "factories.where.market_contractor", "Slot", mv.Slot+1)))
		}
		return tf(t, "factories.group.hire", "Slot", mv.Slot+1, "Card", cardName(t, c.Name())), card
	case factories.Refresh:
		return t.L.T("factories.group.refresh"), ruleRef(t, "refresh", t.L.T("factories.where.marketplace"))
	case factories.Pass:
		return t.L.T("factories.group.pass"), ruleRef(t, "pass", t.L.T("factories.where.market_phase"))
	case factories.SetDice:
		return t.L.T("factories.group.foreman"),
			ref(contractorRef(t, contractorNamed(factories.Foreman), t.L.T("factories.where.hired")))
	case factories.Choose:
		return t.L.T("factories.group.specialist"),
			ref(contractorRef(t, contractorNamed(factories.Specialist), t.L.T("factories.where.hired")))
	case factories.Build:
		return tf(t, "factories.group.build", "Card", cardName(t, mv.Card.Name())),
			ref(blueprintRef(t, mv.Card, t.L.T("factories.where.hand")))
	case factories.Place:
		return t.L.T("factories.group.hq"), ruleRef(t, "headquarters", t.L.T("factories.where.board"))
	case factories.Activate:
		return tf(t, "factories.group.activate", "Card", cardName(t, mv.Card.Name())),
			ref(blueprintRef(t, mv.Card, t.L.T("factories.where.compound")))
	case factories.DiscardDown:
		return t.L.T("factories.group.discard"), ruleRef(t, "limits", work)
	case factories.Done:
		return t.L.T("factories.group.done"), ruleRef(t, "done", work)
	case factories.Undo:
		return t.L.T("factories.group.undo"), ruleRef(t, "undo", work)
	}
	return string(mv.Kind), nil
}

// contractorNamed is the first printed contractor of a name.
func contractorNamed(name string) factories.Contractor {
	if cs := factories.ContractorsNamed(name); len(cs) > 0 {
		return cs[0]
	}
	return factories.None
}

func blueprintAt(v *factories.View, slot int) factories.Card {
	if slot < 0 || slot >= len(v.Market.Blueprints) {
		return factories.None
	}
	return v.Market.Blueprints[slot]
}

func contractorAt(v *factories.View, slot int) factories.Contractor {
	if slot < 0 || slot >= len(v.Market.Contractors) {
		return factories.None
	}
	return v.Market.Contractors[slot]
}
