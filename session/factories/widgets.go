package factories

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// The board's widgets: each draws one part of the game from the seat's view
// and returns lines no wider than asked (fit cuts anything longer).

// marketView draws the marketplace: four blueprints with tool, cost and
// prestige, and the four contractors under their tool tokens.
func marketView(t kit.Theme, v *factories.View, w int) string {
	lines := []string{t.Title.Render(t.L.T("factories.market.title")) +
		t.Dim.Render("  "+tf(t, "factories.market.decks", "Deck", v.DeckSize, "Discard", v.DiscardSize))}
	// Names take what the tool and cost leave (a row is the name, the
	// tool and 14 more cells), as wide as the longest one here and at
	// least the longest English name's 18. Where a language's long name
	// and tool leave too little, the gaps around the cost narrow before
	// anything is cut.
	toolW, present := toolWidth(t), 0
	for _, c := range v.Market.Blueprints {
		if c != factories.None {
			present = max(present, kit.Width(cardName(t, c.Name())))
		}
	}
	longest := max(18, present)
	gap := "  "
	if longest+toolW+14 > w {
		gap = " "
	}
	// The rows keep a cell free before the next column where they can,
	// and give it up before a name on offer gives way to a line of its
	// own: a name goes apart only where its row does not fit beside it
	// (the spectator's 38 cells hold every English row whole).
	room := w - toolW - 10 - 2*len(gap)
	nameW := max(10, min(longest, room-1), min(present, room))
	empty := t.Dim.Render(t.L.T("factories.empty"))
	for i, c := range v.Market.Blueprints {
		if c == factories.None {
			lines = append(lines, fmt.Sprintf("%d %s", i+1, empty))
			continue
		}
		b := c.Info()
		name := cardName(t, b.Name)
		rest := fmt.Sprintf(" %s%s%s%s★%d", padTool(t, b.Tool), gap, costShort(t, b.Metal, b.Energy), gap, b.Prestige)
		slot := strconv.Itoa(i + 1)
		if kit.Width(name) > nameW {
			// Too long to share its row: the name alone, the rest below
			// in its columns.
			lines = append(lines, slot+" "+name)
			slot, name = " ", ""
		}
		lines = append(lines, slot+" "+name+strings.Repeat(" ", max(0, nameW-kit.Width(name)))+rest)
	}
	// The contractors' head wraps between words where a language's runs
	// longer than the column, never cut.
	for _, l := range strings.Split(kit.Wrap(tf(t, "factories.market.contractors", "Deck", v.ContractorDeck), max(10, w-2)), "\n") {
		lines = append(lines, t.Dim.Render("  "+l))
	}
	for i, c := range v.Market.Contractors {
		name := empty
		if c != factories.None {
			name = cardName(t, c.Name())
			if e := c.Info().Energy; e > 0 {
				name += t.Dim.Render(fmt.Sprintf(" +%d%s", e, t.L.T("factories.abbr.energy")))
			}
		}
		lines = append(lines, fmt.Sprintf("%d %s → %s", i+1, padTool(t, v.Market.Tools[i]), name))
	}
	return strings.Join(lines, "\n")
}

// padTool draws a tool token padded to a fixed width so columns line up.
func padTool(t kit.Theme, tool factories.Tool) string {
	return toolText(t, tool) + strings.Repeat(" ", max(0, toolWidth(t)-kit.Width(toolMarks[t.Name][tool]+term(t, string(tool)))))
}

// toolWidth is the width of the widest tool token in the theme's language
// and marks: 6 in English ("wrench"), more with a mark or longer words.
func toolWidth(t kit.Theme) int {
	w := 0
	for _, tool := range factories.Tools() {
		w = max(w, kit.Width(toolMarks[t.Name][tool]+term(t, string(tool))))
	}
	return w
}

// costShort is a cost for a table cell: "2m 1e", "free", five cells
// wide with one-letter units.
func costShort(t kit.Theme, metal, energy int) string {
	k := costKey{t.L.Tag(), metal, energy}
	if s, ok := costs.Load(k); ok {
		return s.(string)
	}
	s := drawCost(t, metal, energy)
	costs.Store(k, s)
	return s
}

// costs holds the cost cells by language and cost (costKey): the
// printed costs are a dozen.
var costs sync.Map

type costKey struct {
	tag           lang.Tag
	metal, energy int
}

func drawCost(t kit.Theme, metal, energy int) string {
	m, e := t.L.T("factories.abbr.metal"), t.L.T("factories.abbr.energy")
	switch {
	case metal == 0 && energy == 0:
		free := t.L.T("factories.cost.free_short")
		return free + strings.Repeat(" ", max(0, 5-kit.Width(free)))
	case energy == 0:
		return fmt.Sprintf("%d%s   ", metal, m)
	case metal == 0:
		return fmt.Sprintf("   %d%s", energy, e)
	}
	return fmt.Sprintf("%d%s %d%s", metal, m, energy, e)
}

// resources is a player's metal, energy, goods and prestige in one line.
func resources(t kit.Theme, p factories.PlayerView) string {
	return tf(t, "factories.resources", "Metal", p.Metal, "Energy", p.Energy, "Goods", p.Goods, "Prestige", p.Prestige)
}

// Holdings implements kit.Told: a seat's resources, its hand and its
// buildings, in words.
func (b *board) Holdings(t kit.Theme, s kit.Seats, seat int) string {
	if seat < 0 || seat >= len(b.v.Players) {
		return ""
	}
	p := b.v.Players[seat]
	return tf(t, "factories.holdings", "Name", s.Name(seat), "Metal", p.Metal, "Energy", p.Energy, "Goods", p.Goods,
		"Prestige", p.Prestige, "Hand", p.HandSize, "Buildings", len(p.Compound))
}

// Unseated implements kit.Unseated: The Machine, in a solo game, with its
// points, goods and buildings, its last roll, and its compound.
func (b *board) Unseated(t kit.Theme) []kit.Rival {
	m := b.v.Machine
	if m == nil {
		return nil
	}
	name := t.L.T("factories.machine.name")
	words := tf(t, "factories.machine.holdings", "Name", name, "Points", machineScore(m), "Goods", m.Goods, "Buildings", len(m.Compound))
	if m.Roll != [5]int{} {
		words += "; " + tf(t, "factories.machine.roll_said", "Dice", rollText(m),
			"Colours", t.L.T("factories.machine.legend"))
	}
	r := kit.Rival{Name: name, Holdings: words}
	for _, c := range m.Compound {
		r.Cards = append(r.Cards, blueprintRef(t, c, t.L.T("factories.where.machine")))
	}
	return []kit.Rival{r}
}

// diceView draws a player's dice in the work phase: the free ones' values,
// extra dice that leave at round end with a "+", unset dice as "?", and
// how many are placed. In the market phase the dice wait for the next roll, so the
// last round's faces are not shown as if they were this round's.
func diceView(t kit.Theme, v *factories.View, p factories.PlayerView) string {
	var hired []string
	if p.Foreman {
		hired = append(hired, cardName(t, factories.Foreman))
	}
	if p.HiredHands > 0 {
		hired = append(hired, fmt.Sprintf("%s×%d", cardName(t, factories.HiredHands), p.HiredHands))
	}
	if p.Specialists > 0 {
		hired = append(hired, fmt.Sprintf("%s×%d", cardName(t, factories.Specialist), p.Specialists))
	}
	out := ""
	switch {
	case v.Phase == factories.MarketPhase:
		out = t.L.T("factories.dice.later")
	case len(p.Dice) == 0:
		out = t.L.T("factories.dice.none")
	default:
		// Placed dice show where they were placed (the Headquarters, a
		// building's [3,4]): here only the free ones and how many are out.
		var free []string
		placed := 0
		for _, d := range p.Dice {
			s := "?"
			if d.Value > 0 {
				s = fmt.Sprint(d.Value)
			}
			if d.Extra {
				s = "+" + s
			}
			if d.Placed {
				placed++
			} else {
				free = append(free, s)
			}
		}
		out = tf(t, "factories.dice.free", "Dice", strings.Join(free, " "))
		switch {
		case len(free) == 0:
			out = t.L.T("factories.dice.placed_all")
		case placed > 0:
			out += " · " + t.L.N("factories.dice.placed", placed)
		}
	}
	if len(hired) > 0 {
		out += " · " + tf(t, "factories.dice.hired", "Names", strings.Join(hired, ", "))
	}
	return out
}

// hqView draws the Headquarters with the dice placed on each action.
func hqView(t kit.Theme, hq factories.Headquarters) string {
	slot := func(vals []int) string {
		if len(vals) == 0 {
			return "-"
		}
		var s []string
		for _, v := range vals {
			s = append(s, fmt.Sprint(v))
		}
		return strings.Join(s, ",")
	}
	return tf(t, "factories.hq", "Research", slot(hq.Research), "Generate", slot(hq.Generate), "Mine", slot(hq.Mine))
}

// buildingLabel names a compound building with the dice on it; "✓" marks
// one already activated this round.
func buildingLabel(t kit.Theme, b factories.Building) string {
	s := cardName(t, b.Card.Name())
	if len(b.Dice) > 0 {
		var d []string
		for _, v := range b.Dice {
			d = append(d, fmt.Sprint(v))
		}
		s += "[" + strings.Join(d, ",") + "]"
	}
	if b.Copied != "" {
		s += "=" + cardName(t, b.Copied)
	}
	if b.Used {
		s += "✓"
	}
	return s
}

// fitLine breaks a line of parts joined by " · " (the Headquarters, the
// dice) into lines no wider than w, between parts where it can.
func fitLine(line string, w int) []string {
	if kit.Width(line) <= w {
		return []string{line}
	}
	return wrapList("", "  ", strings.Split(line, " · "), w)
}

// moreMark ends a list cut short to fit: how many items it leaves out and
// the key that shows every card.
func moreMark(t kit.Theme, n int) string {
	return t.Dim.Render(t.L.N("factories.more", n))
}

// listLines wraps items after prefix into at most max lines of width w.
// When they need more, the last line ends with a "+N more (i)" mark
// instead: a list is shortened, never cut silently.
func listLines(t kit.Theme, prefix string, items []string, w, max int) []string {
	return listHanging(t, prefix, strings.Repeat(" ", min(kit.Width(prefix), 12)), items, w, max)
}

// listHanging is listLines with the continuation lines' indent given.
func listHanging(t kit.Theme, prefix, indent string, items []string, w, max int) []string {
	lines := wrapList(prefix, indent, items, w)
	if len(lines) <= max || max < 1 {
		return lines
	}
	for n := len(items) - 1; n >= 0; n-- {
		kept := append(append([]string{}, items[:n]...), moreMark(t, len(items)-n))
		if lines := wrapList(prefix, indent, kept, w); len(lines) <= max {
			return lines
		}
	}
	return []string{prefix + moreMark(t, len(items))}
}

// wrapList joins items with " · " into lines no wider than w, as
// kit.WrapHanging does, never splitting an item that fits a line of its
// own; a longer one (a long name in some language, a copy beside its
// Replicator) breaks at its spaces, never inside a word.
func wrapList(prefix, indent string, items []string, w int) []string {
	var lines []string
	cur, fresh := prefix, true
	for _, it := range items {
		words := []string{it}
		if kit.Width(indent+it) > w {
			words = strings.Fields(it)
		}
		for i, word := range words {
			add := word
			switch {
			case fresh:
			case i == 0:
				add = " · " + word
			default:
				add = " " + word
			}
			if !fresh && kit.Width(cur+add) > w {
				lines = append(lines, cur)
				cur, add = indent+word, ""
			}
			cur += add
			fresh = false
		}
	}
	return append(lines, cur)
}

// compoundLines lists a compound's buildings in at most max lines of w.
func compoundLines(t kit.Theme, prefix string, compound []factories.Building, w, max int) []string {
	if len(compound) == 0 {
		return []string{prefix + t.Dim.Render(t.L.T("factories.compound.empty"))}
	}
	items := make([]string, len(compound))
	for i, b := range compound {
		items[i] = buildingLabel(t, b)
	}
	return listLines(t, prefix, items, w, max)
}

// handLines lists the seat's own hand grouped by tool, one line a tool,
// since building takes a discard of the same tool: what the seat can pay
// with shows at a glance. At most max lines of w.
func handLines(t kit.Theme, hand []factories.Card, w, max int) []string {
	if len(hand) == 0 {
		return []string{t.L.T("factories.hand.empty")}
	}
	byTool := map[factories.Tool][]string{}
	for _, c := range hand {
		tool := c.Info().Tool
		byTool[tool] = append(byTool[tool], cardName(t, c.Name()))
	}
	head := t.L.N("factories.hand.head", len(hand)) + " "
	indent := strings.Repeat(" ", kit.Width(head))
	// By tool, each tool's names wrapped; else each tool in its share of
	// the lines, shortened with a "+N more" mark: a hand of 10 kept its
	// grouping only while it fitted whole (issue 36, point 9).
	type group struct {
		prefix, hang string
		names        []string
		need         int
	}
	var groups []group
	for _, tool := range factories.Tools() {
		names := byTool[tool]
		if len(names) == 0 {
			continue
		}
		slices.Sort(names)
		prefix := indent
		if len(groups) == 0 {
			prefix = head
		}
		label := toolText(t, tool) + ": "
		g := group{prefix: prefix + label, hang: indent + strings.Repeat(" ", kit.Width(label)), names: names}
		g.need = len(wrapList(g.prefix, g.hang, names, w))
		groups = append(groups, g)
	}
	if len(groups) <= max {
		// Each group its need, as far as the lines go: one each first,
		// then one more to each that needs it, in turn.
		share := make([]int, len(groups))
		left := max
		for more := true; more && left > 0; {
			more = false
			for i := range groups {
				if left > 0 && share[i] < groups[i].need {
					share[i]++
					left--
					more = true
				}
			}
		}
		var lines []string
		for i, g := range groups {
			if share[i] >= g.need {
				lines = append(lines, wrapList(g.prefix, g.hang, g.names, w)...)
			} else {
				lines = append(lines, listHanging(t, g.prefix, g.hang, g.names, w, share[i])...)
			}
		}
		if len(lines) <= max {
			return lines
		}
	}
	// More tools than lines: the names alone, shortened with a mark.
	names := cardNames(t, hand)
	slices.Sort(names)
	return listLines(t, head, names, w, max)
}

// handKept is the seat's hand as handLines last drew it, and what for:
// the seat's own area is drawn again whenever its record changes, which
// mostly leaves its hand as it was, and the hand is most of the area's
// cost.
type handKept struct {
	styles *kit.Styles
	l      *lang.Printer
	w, max int
	hand   []factories.Card
	drawn  []string // read-only: youLines copies them
	ok     bool
}

// lines is handLines(t, hand, w, max), kept in k; k may be nil.
func (k *handKept) lines(t kit.Theme, hand []factories.Card, w, max int) []string {
	if k == nil {
		return handLines(t, hand, w, max)
	}
	if !k.ok || k.styles != t.Styles || k.l != t.L || k.w != w || k.max != max || !slices.Equal(k.hand, hand) {
		*k = handKept{styles: t.Styles, l: t.L, w: w, max: max, hand: slices.Clone(hand), drawn: handLines(t, hand, w, max), ok: true}
	}
	return k.drawn
}

// score is a seat's points so far: goods and prestige.
func score(p factories.PlayerView) int { return p.Goods + p.Prestige }

// machineScore is The Machine's points: a point a good, a building, and
// one more a Monument.
func machineScore(m *factories.Machine) int {
	n := m.Goods + len(m.Compound)
	for _, c := range m.Compound {
		if c.Info().Type == factories.Monument {
			n++
		}
	}
	return n
}

// youView draws the seat's own area in at most h lines: resources, dice,
// Headquarters, compound and hand, shortened (with marks) to fit.
func youView(t kit.Theme, v *factories.View, s kit.Seats, w, h int) string {
	return strings.Join(youLines(t, v, s, w, h, nil), "\n")
}

// youLines are youView's lines: a board fits them to its column as it
// keeps them (kit.FitLines), without joining them first. The hand's
// lines come from kept where it drew them for the same hand (kept may be
// nil).
func youLines(t kit.Theme, v *factories.View, s kit.Seats, w, h int, kept *handKept) []string {
	p := v.You()
	title := t.Title.Render(t.L.T("factories.you.title")) + " " + s.Label(t, v.Seat)
	if v.Machine != nil {
		title += " · " + tf(t, "factories.you.vs_machine", "You", score(p), "Machine", machineScore(v.Machine))
	}
	lines := []string{title}
	for _, l := range []string{resources(t, p), diceView(t, v, p), hqView(t, p.HQ)} {
		lines = append(lines, fitLine(l, w)...)
	}
	room := h - len(lines)
	hand := kept.lines(t, v.Hand, w, max(1, room-1))
	compound := compoundLines(t, t.L.T("factories.compound.head")+" ", p.Compound, w, max(1, room-len(hand)))
	lines = append(lines, compound...)
	return append(lines, hand...)
}

// seatState is a seat's state mark: choosing in the market, working or
// done in the work phase.
func seatState(t kit.Theme, v *factories.View, seat int, done bool) string {
	switch {
	case v.Phase == factories.MarketPhase && v.Turn == seat:
		return t.Accent.Render("▶ " + t.L.T("factories.seat.choosing"))
	case v.Phase == factories.WorkPhase && done:
		return t.Dim.Render("✓ " + t.L.T("factories.seat.done"))
	case v.Phase == factories.WorkPhase:
		return t.Accent.Render("… " + t.L.T("factories.seat.working"))
	}
	return ""
}

// othersView draws every seat but the viewer's (all seats for a
// spectator), and The Machine in solo play, in at most h lines of w. Each
// seat gets its name and state, a line of numbers and its compound; when
// lines are short, the compound is shortened with a mark and then the
// numbers share the name's line. Only hand sizes are shown, never a hand.
func othersView(t kit.Theme, v *factories.View, s kit.Seats, w, h int) string {
	return strings.Join(othersLines(t, v, s, w, h), "\n")
}

// othersLines are othersView's lines.
func othersLines(t kit.Theme, v *factories.View, s kit.Seats, w, h int) []string {
	var lines []string
	if v.Machine != nil {
		lines = machineView(t, v.Machine, w, max(1, h-3*countOthers(v)-1))
	}
	shareOut(v, h-len(lines), func(i, budget int) int {
		seat := seatLines(t, v, s, v.Players[i], w, budget)
		lines = append(lines, seat...)
		return len(seat)
	})
	return lines
}

// countOthers counts the seats but the viewer's: a PlayerView is large, so
// they are counted rather than copied.
func countOthers(v *factories.View) int {
	n := len(v.Players)
	for i := range v.Players {
		if v.Players[i].Seat == v.Seat {
			n--
		}
	}
	return n
}

// shareOut gives each seat but the viewer's, in order, an even share of
// the room the ones before it left: block draws seat i's block (v.Players
// index) in about budget lines and says how many it took.
func shareOut(v *factories.View, room int, block func(i, budget int) int) {
	others := countOthers(v)
	for i := range v.Players {
		if v.Players[i].Seat == v.Seat {
			continue
		}
		budget := room / others
		others--
		room -= block(i, budget)
	}
}

// othersFitted is othersView as the seated board keeps it: its blocks,
// The Machine's and then each seat's, fitted to w (kit.FitLines), for a
// Grid's column to stack as they are rather than joined into one string
// first (an update's frame's largest garbage). Each seat's block is
// taken from kept (indexed as v.Players) where it was drawn for the same
// label, state, phase, width and lines, and what it draws is kept there:
// a board carries a seat's block over while that seat's record is the
// same (Carry), and a move mostly changes one seat's. The blocks are
// written in dst's room, which a board reuses.
func othersFitted(t kit.Theme, v *factories.View, s kit.Seats, w, h int, kept []seatPart, dst []string) othersDrawn {
	dst, n := dst[:0], 0 // n: the lines drawn
	if v.Machine != nil {
		m := machineView(t, v.Machine, w, max(1, h-3*countOthers(v)-1))
		n = len(m)
		dst = append(dst, kit.FitLines(m, w))
	}
	shareOut(v, h-n, func(i, budget int) int {
		k := seatKeyOf(t, v, s, v.Players[i].Seat, w, budget)
		part := &kept[i]
		if !part.ok || part.key != k {
			*part = seatPart{key: k, seatBlock: seatShared(t, v, s, &v.Players[i], k), ok: true}
		}
		n += len(part.lines)
		dst = append(dst, part.fitted)
		return len(part.lines)
	})
	if len(dst) == 0 {
		return othersDrawn{append(dst, ""), 1} // a line, as an empty part takes in a column
	}
	return othersDrawn{dst, n}
}

// othersDrawn is othersFitted's blocks and the lines they take.
type othersDrawn struct {
	blocks []string
	lines  int
}

// seatPart is one other seat's block as othersKept drew it, and what it
// drew it for besides the seat's record, which Carry compares.
type seatPart struct {
	key seatKey
	seatBlock
	ok bool
}

// seatBlock is a seat's block: its lines and the lines fitted to its
// width, shared (seatBlocks): never written to.
type seatBlock struct {
	lines  []string
	fitted string
}

// seatKey is what a seat's block reads besides the seat's record: the
// theme and languages, what its label is made of (Seats.Label: the
// seat's name and bot), whose turn it is and the phase (seatState), and
// its room.
type seatKey struct {
	styles    *kit.Styles
	l, seats  *lang.Printer
	plain     bool
	name, bot string
	phase     factories.Phase
	turn      bool
	w, budget int
}

// seatKeyOf is the seatKey of seat's block, w wide in budget lines.
func seatKeyOf(t kit.Theme, v *factories.View, s kit.Seats, seat, w, budget int) seatKey {
	k := seatKey{styles: t.Styles, l: t.L, seats: s.L, plain: s.Plain, phase: v.Phase, turn: v.Turn == seat, w: w, budget: budget}
	if seat >= 0 && seat < len(s.Names) {
		k.name = s.Names[seat]
	}
	if seat >= 0 && seat < len(s.Bots) {
		k.bot = s.Bots[seat]
	}
	return k
}

// seatShared is seatLines for the seat p under k, as every screen of
// the process draws it: a seat's block shows only its public record
// (PlayerView: a hand size, never a hand) and what k holds, never whose
// screen it is on, so after a move the table's other three screens draw
// the mover's block once between them rather than once each. The key is
// k and every field of the record, written out whole (recordOf): no two
// records share a block unless they are alike.
func seatShared(t kit.Theme, v *factories.View, s kit.Seats, p *factories.PlayerView, k seatKey) seatBlock {
	return seatBlocks.Get(seatOf{k, recordOf(p)}, func() seatBlock {
		lines := seatLines(t, v, s, *p, k.w, k.budget)
		return seatBlock{lines, kit.FitLines(slices.Clone(lines), k.w)} // FitLines cuts in place
	})
}

// seatBlocks are the seats' blocks by seatOf: a move changes a seat or
// two of a table, and the table's screens ask for them at once, so a
// few thousand serve every table.
var seatBlocks = kit.NewShared[seatOf, seatBlock](4096)

// seatOf is a seat's block's key in seatBlocks: what it reads besides
// the record (seatKey), and the record, the seat's number first,
// written out.
type seatOf struct {
	seatKey
	record string
}

// recordOf writes out every field of a seat's public record, the ones
// its block does not draw too (they cost a block drawn again, never a
// wrong one), each number in full and each word after its length, so
// that two records give the same string only when they are alike.
func recordOf(p *factories.PlayerView) string {
	var buf [256]byte
	b := buf[:0]
	for _, n := range [...]int{p.Seat, p.HandSize, p.Metal, p.Energy, p.Goods, p.Prestige, one(p.Done), one(p.Foreman),
		p.HiredHands, p.Specialists, one(p.SettingDice), len(p.Dice)} {
		b = appendNum(b, n)
	}
	for _, d := range p.Dice {
		for _, n := range [...]int{d.Value, one(d.Placed), one(d.Extra), one(d.Chosen)} {
			b = appendNum(b, n)
		}
	}
	b = appendNum(b, len(p.Compound))
	for _, c := range p.Compound {
		b = appendNums(appendNum(appendNum(b, int(c.Card)), one(c.Used)), c.Dice)
		b = append(appendNum(b, len(c.Copied)), c.Copied...)
	}
	b = appendNums(appendNums(appendNums(b, p.HQ.Research), p.HQ.Generate), p.HQ.Mine)
	return string(b)
}

func appendNum(b []byte, n int) []byte { return strconv.AppendInt(append(b, ','), int64(n), 10) }

// appendNums writes out ns after their count.
func appendNums(b []byte, ns []int) []byte {
	b = appendNum(b, len(ns))
	for _, n := range ns {
		b = appendNum(b, n)
	}
	return b
}

func one(f bool) int {
	if f {
		return 1
	}
	return 0
}

// seatLines draws one other seat in about budget lines (at least one).
func seatLines(t kit.Theme, v *factories.View, s kit.Seats, p factories.PlayerView, w, budget int) []string {
	name := s.Label(t, p.Seat)
	if st := seatState(t, v, p.Seat, p.Done); st != "" {
		name += " " + st
	}
	numbers := tf(t, "factories.seat.numbers", "Goods", p.Goods, "Prestige", p.Prestige, "Hand", p.HandSize) +
		fmt.Sprintf(" · %d%s %d%s", p.Metal, t.L.T("factories.abbr.metal"), p.Energy, t.L.T("factories.abbr.energy"))
	dice := v.Phase == factories.WorkPhase && len(p.Dice) > 0
	// In the work phase a seat's free dice come before its compound:
	// where they do not both fit, the compound is counted, and the dice
	// shown (at 80x24 five players' dice had gone with no word).
	free := dice && slices.ContainsFunc(p.Dice, func(d factories.Die) bool { return !d.Placed })
	built := func() string { return " · " + t.L.N("factories.seat.buildings", len(p.Compound)) }
	switch {
	case budget >= 4 && dice:
		return append([]string{name, "  " + numbers, "  " + diceView(t, v, p)}, compoundLines(t, "  ", p.Compound, w, budget-3)...)
	case budget == 3 && free:
		return withCount([]string{name, "  " + numbers, "  " + diceView(t, v, p)}, built(), w)
	case budget == 2 && free && kit.Width(name+"  "+numbers) <= w:
		return withCount([]string{name + "  " + numbers, "  " + diceView(t, v, p)}, built(), w)
	case budget == 2 && free:
		return []string{name, "  " + diceView(t, v, p)}
	case budget < 2 && free:
		return []string{name + "  " + diceView(t, v, p)}
	case budget >= 3:
		return append([]string{name, "  " + numbers}, compoundLines(t, "  ", p.Compound, w, budget-2)...)
	case budget == 2 && kit.Width(name+"  "+numbers) <= w:
		return append([]string{name + "  " + numbers}, compoundLines(t, "  ", p.Compound, w, 1)...)
	case budget == 2:
		return []string{name, "  " + numbers + built()}
	}
	return []string{name + "  " + numbers}
}

// withCount puts count at the end of the first of lines it fits on in w.
func withCount(lines []string, count string, w int) []string {
	for i, l := range lines {
		if kit.Width(l+count) <= w {
			lines[i] += count
			break
		}
	}
	return lines
}

// rollText is The Machine's last roll, its five dice in the legend's
// order of colours.
func rollText(m *factories.Machine) string {
	return fmt.Sprintf("%d %d %d %d %d", m.Roll[0], m.Roll[1], m.Roll[2], m.Roll[3], m.Roll[4])
}

// machineView draws The Machine, the solo opponent: its score, goods and
// last roll, then its compound in at most h more lines.
func machineView(t kit.Theme, m *factories.Machine, w, h int) []string {
	lines := []string{t.Title.Render(t.L.T("factories.machine.title")) + "  " +
		tf(t, "factories.machine.score", "Points", machineScore(m), "Goods", m.Goods)}
	if m.Roll != [5]int{} {
		roll := "  " + tf(t, "factories.machine.roll", "Dice", rollText(m))
		if legend := " (" + t.L.T("factories.machine.legend") + ")"; kit.Width(roll+legend) <= w {
			roll += t.Dim.Render(legend)
		}
		lines = append(lines, roll)
	}
	names := cardNames(t, m.Compound)
	if len(names) == 0 {
		return lines
	}
	return append(lines, listLines(t, "  ", names, w, max(1, h-len(lines)))...)
}
