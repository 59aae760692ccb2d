package furnace

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// The board's widgets: each draws one part of the game from the seat's
// view as lines no wider than asked.

// discText words one disc: "alice's 3", "your 2", "the Agent's 1",
// "bob's neutral 2", or in the short notation "alice:3", "you:2",
// "Agent:1", "bob:2n" (names shortened).
func discText(t kit.Theme, s kit.Seats, d furnace.Disc, n notation) string {
	p := t.L
	value := strconv.Itoa(d.Value)
	if n.short {
		var name string
		switch {
		case d.Seat == furnace.AgentSeat:
			name = p.T("furnace.agentName")
		case s.Me(d.Seat):
			name = t.Accent.Render(p.T("furnace.you"))
		default:
			name = seatStyle(t, d.Seat).Render(s.Short(d.Seat, 8))
		}
		if d.Neutral {
			value += p.T("furnace.short.neutral")
		}
		return name + ":" + value
	}
	id, name := "furnace.disc.seat", ""
	switch {
	case d.Seat == furnace.AgentSeat:
		id = "furnace.disc.agent"
	case s.Me(d.Seat):
		id = "furnace.disc.yours"
	default:
		name = seatStyle(t, d.Seat).Render(s.Name(d.Seat))
	}
	if d.Neutral {
		id += "Neutral"
	}
	text := p.T(id, "Name", name, "Value", value)
	if s.Me(d.Seat) {
		text = t.Accent.Render(text)
	}
	return text
}

// discItems lists a card's discs, the one winning it now first and the
// rest from the highest down, for a " > " list: "alice:3 > Agent:2 > you:1".
func discItems(t kit.Theme, v *furnace.View, l furnace.Lot, s kit.Seats, n notation) []string {
	if len(l.Discs) == 0 {
		return nil
	}
	// Only the players' capitalists decide a tie (Monica loses them):
	// the engine's rule, asked on a state that holds just those.
	lead := (&furnace.State{Players: v.Players}).Winner(l)
	discs := slices.Clone(l.Discs)
	first := discs[lead]
	discs = slices.Delete(discs, lead, lead+1)
	slices.SortStableFunc(discs, func(a, b furnace.Disc) int { return cmp.Compare(b.Value, a.Value) })
	out := []string{discText(t, s, first, n)}
	for _, d := range discs {
		out = append(out, discText(t, s, d, n))
	}
	return out
}

// discsText is discItems on one line, for the card reference.
func discsText(v *furnace.View, l furnace.Lot, s kit.Seats, n notation) string {
	return strings.Join(discItems(kit.NewTheme("mono", nil).In(s.L), v, l, s, n), " > ")
}

// hasNeutral reports whether Arthur is at the table, so the board explains
// his neutral disc's "n".
func hasNeutral(v *furnace.View) bool {
	return slices.ContainsFunc(v.Players, func(p furnace.Player) bool { return p.Capitalist == furnace.Arthur })
}

// marketTable is the market in w columns: each card with its lines, its
// compensation and the discs on it; while the cards are resolved, the
// cards still to resolve, the one being resolved first. A board tries it
// in each notation and line limit until one fits: its title and rows are
// made and laid out once for each notation.
type marketTable struct {
	t     kit.Theme
	v     *furnace.View
	s     kit.Seats
	w     int
	made  [2]bool // by notation: long, short
	title [2][]string
	laid  [2]laidGrid
}

func newMarketTable(t kit.Theme, v *furnace.View, s kit.Seats, w int) *marketTable {
	return &marketTable{t: t, v: v, s: s, w: w}
}

// block is the market in the notation n in at most maxLines lines
// (0: no limit), where it can.
func (m *marketTable) block(n notation, maxLines int) []string {
	i := m.laidIn(n)
	lines := slices.Clone(m.title[i])
	// A card's discs take up to three lines where the market has the
	// room: at two, a third bid hid behind "(i)" and sent a 120-column
	// market into the short notation for the rest of the auction.
	// Discs that still do not fit are cut with a marker; the reference
	// (i) lists every card's discs.
	var rows []string
	for _, per := range []int{3, 2, 1} {
		rows = m.laid[i].lines(per)
		if maxLines <= 0 || len(lines)+len(rows) <= maxLines {
			break
		}
	}
	rows[0] = m.t.Dim.Render(rows[0])
	lines = append(lines, rows...)
	return withStandIn(m.t, m.v, lines, m.w, maxLines)
}

// laidIn makes and lays out the market in n, once, and says which of
// title and laid hold it.
func (m *marketTable) laidIn(n notation) int {
	i := 0
	if n.short {
		i = 1
	}
	if !m.made[i] {
		m.title[i], m.laid[i] = m.make(n.in(m.t.L))
		m.made[i] = true
	}
	return i
}

// tooWide reports whether the market in n has a line wider than its
// width whatever its line limit: its title, its head or a card's cells.
func (m *marketTable) tooWide(n notation) bool {
	i := m.laidIn(n)
	return m.laid[i].least > m.w || widest(m.title[i]) > m.w
}

// make makes the market's title lines and lays out its grid in n.
func (m *marketTable) make(n notation) ([]string, laidGrid) {
	t, v, s, w, p := m.t, m.v, m.s, m.w, m.t.L
	title := t.Title.Render(p.T("furnace.market.title")) + t.Dim.Render("  "+p.N("furnace.market.deck", v.DeckSize))
	lines := []string{title}
	if v.Phase == furnace.ResolvePhase {
		head := t.Title.Render(p.T("furnace.market.resolving"))
		title = head + t.Dim.Render("  "+p.T("furnace.market.leftToRight"))
		lines = []string{title}
		if n.short && kit.Width(title+" · "+legend(p)) > w {
			// The ▶ and the order of the rows say "left to right"
			// where the legend leaves no room for it.
			title = head
		}
	}
	if n.short {
		lines = withLegend(t, title, " · ", w)
	}
	g := grid{sep: " > ", noun: "furnace.count.discs", p: p, head: []string{"", p.T("furnace.market.card"), p.T("furnace.market.basic"),
		p.T("furnace.market.upgrade"), p.T("furnace.market.compensation"), p.T("furnace.market.discs")}}
	if n.short {
		g.head[4] = p.T("furnace.market.compensationShort")
	}
	if hasNeutral(v) {
		g.head[5] = p.T("furnace.market.discsNeutral", "Neutral", p.T("furnace.short.neutral"))
	}
	for i, l := range v.Market {
		pos := strconv.Itoa(i + 1)
		if v.Phase == furnace.ResolvePhase {
			pos = " "
			if i == 0 {
				pos = "▶"
			}
		}
		co := l.Card.Company()
		items := discItems(t, v, l, s, n)
		if len(items) == 0 {
			items = []string{t.Dim.Render(p.T("furnace.market.noDisc"))}
		}
		g.rows = append(g.rows, gridRow{
			cells: []string{pos, l.Card.ID(), n.line(co.Basic), n.line(co.Upgraded), n.line(co.Compensation)},
			items: items,
		})
	}
	return lines, g.layout(w)
}

// withStandIn says, on the market's title line where it fits, else on a
// line under the market where there is room, which card of the market
// only stands in for one the edition has not made public: "example-01"
// read as test data. The card's text (i) says it too.
func withStandIn(t kit.Theme, v *furnace.View, lines []string, w, maxLines int) []string {
	for _, l := range v.Market {
		if l.Card.Company().Confidence != "stand-in" {
			continue
		}
		note := t.L.T("furnace.market.standIn", "Card", l.Card.ID())
		switch {
		case kit.Width(lines[0]+"  "+note) <= w:
			lines[0] += t.Dim.Render("  " + note)
		case kit.Width(note) <= w && (maxLines <= 0 || len(lines) < maxLines):
			lines = append(lines, t.Dim.Render(note))
		}
	}
	return lines
}

// playerState is a seat's part in the phase, for the players' table:
// its discs in hand in the auction, its choice in the resolution, its
// progress in production.
func playerState(l *lang.Printer, v *furnace.View, p furnace.Player) string {
	switch v.Phase {
	case furnace.AuctionPhase:
		var d []string
		for k := 1; k <= 4; k++ {
			if p.Discs.Has(k) {
				d = append(d, strconv.Itoa(k))
			}
		}
		if p.Neutral {
			d = append(d, "2"+l.T("furnace.short.neutral"))
		}
		text := strings.Join(d, " ")
		switch {
		case p.Out && text != "":
			text = l.T("furnace.players.outWith", "Discs", text)
		case p.Out || text == "":
			text = l.T("furnace.players.out")
		}
		return text
	case furnace.ResolvePhase:
		if p.Owed > 0 {
			return l.T("furnace.players.choosing", "Owed", p.Owed)
		}
	case furnace.ProductionPhase:
		if p.Done {
			return l.T("furnace.players.done")
		}
		return l.T("furnace.players.producing")
	}
	return ""
}

// cardItem words one of a seat's cards for a list: its id, ⇧ when
// upgraded, ✓ once resolved this production, and with withLines its lines
// in brackets.
func cardItem(v *furnace.View, o furnace.Owned, n notation, withLines bool) string {
	// n speaks the reader's language: its caller set it.
	text := o.Card.ID()
	if o.Upgraded {
		text += "⇧"
	}
	if withLines {
		text += " [" + n.lines(o.Card.Lines(o.Upgraded), "; ") + "]"
	}
	if o.Used && v.Phase == furnace.ProductionPhase {
		text += "✓"
	}
	return text
}

// playersOptions say how the players' table is drawn.
type playersOptions struct {
	skipViewer bool // the viewer's own cards are drawn apart
	withLines  bool // each card with its lines
	below      bool // the cards under each row, across the width
	perPlayer  int  // lines a seat's cards may take (0: any)
}

// playersTable is the players' table in w columns: every seat as a row,
// capitalist, goods, its part in the phase and its cards; in the 2-player
// game the Agent too. A board tries it in ways (playersOptions) until one
// fits: the rows are made once for each way of wording the cards, each
// laid out once for each way of placing them.
type playersTable struct {
	t    kit.Theme
	v    *furnace.View
	s    kit.Seats
	w    int
	n    notation
	head []string
	rows map[[2]bool][]gridRow   // by skipViewer, withLines
	laid map[[3]bool][2]laidGrid // by those and below: words, letters
}

func newPlayersTable(t kit.Theme, v *furnace.View, s kit.Seats, w int, n notation) *playersTable {
	n = n.in(t.L)
	return &playersTable{t: t, v: v, s: s, w: w, n: n, head: playersHead(t.L, v),
		rows: map[[2]bool][]gridRow{}, laid: map[[3]bool][2]laidGrid{}}
}

// block is the table drawn as o says.
func (pt *playersTable) block(o playersOptions) []string {
	p := pt.t.L
	key := [3]bool{o.skipViewer, o.withLines, o.below}
	laid, ok := pt.laid[key]
	if !ok {
		rows, ok := pt.rows[[2]bool{o.skipViewer, o.withLines}]
		if !ok {
			rows = pt.makeRows(o)
			pt.rows[[2]bool{o.skipViewer, o.withLines}] = rows
		}
		g := grid{head: pt.head, rows: rows, sep: " · ", noun: "furnace.count.cards", p: p, below: o.below}
		if pt.v.Config.Chain {
			g.sep = " → "
		}
		// The goods' columns headed by their letters, which the legend
		// beside the table explains, where their words are too wide or
		// leave the cards too little room.
		// Each letter stands over the last digit of its numbers (num3),
		// and the tokens' column keeps a second space before the discs:
		// "1 1 2 3 4" read as five discs.
		letters := g
		letters.head = slices.Clone(pt.head)
		i := slices.Index(pt.head, p.T("furnace.players.money"))
		copy(letters.head[i:], []string{"  $", "  " + p.T("furnace.short.coal"), "  " + p.T("furnace.short.iron"),
			"  " + p.T("furnace.short.oil"), "  " + p.T("furnace.short.tokens") + " "})
		laid = [2]laidGrid{g.layout(pt.w), letters.layout(pt.w)}
		pt.laid[key] = laid
	}
	lines := laid[0].lines(o.perPlayer)
	if short := laid[1].lines(o.perPlayer); widest(lines) > pt.w || len(short) < len(lines) || pt.w-laid[0].indent < minCardsWidth {
		lines = short
	}
	lines[0] = pt.t.Dim.Render(lines[0])
	return lines
}

// makeRows makes the table's rows for o's skipViewer and withLines.
func (pt *playersTable) makeRows(o playersOptions) []gridRow {
	t, v, s, n, p := pt.t, pt.v, pt.s, pt.n, pt.t.L
	capitalists := v.Config.Capitalists
	var rows []gridRow
	for seat := range v.Players {
		if o.skipViewer && s.Me(seat) {
			continue
		}
		mark := " "
		if v.Phase == furnace.AuctionPhase && v.Turn == seat {
			mark = "▶"
		}
		// One's own name is cut no shorter than the others': the
		// server's own names ("player-" and four letters) fit whole.
		var name string
		if s.Me(seat) {
			name = t.Accent.Render(p.T("furnace.players.you", "Name", s.Short(seat, maxNameCells)))
		} else {
			name = seatStyle(t, seat).Render(s.Short(seat, maxNameCells))
		}
		pl := v.Players[seat]
		cells := []string{mark, name, num3(pl.Goods.Money), num3(pl.Goods.Coal), num3(pl.Goods.Iron), num3(pl.Goods.Oil), num3(pl.Goods.Tokens), playerState(p, v, pl)}
		if capitalists {
			cells = slices.Insert(cells, 2, capitalistName(p, pl.Capitalist))
		}
		var items []string
		for _, c := range pl.Cards {
			items = append(items, cardItem(v, c, n, o.withLines))
		}
		if len(pl.New) > 0 {
			var ids []string
			for _, c := range pl.New {
				ids = append(ids, c.ID())
			}
			items = append(items, p.T("furnace.players.toPlace", "Cards", strings.Join(ids, ", ")))
		}
		row := gridRow{cells: cells, items: items}
		if s.Me(seat) && len(items) > 0 {
			// Your own cards are one key away, with what each produces.
			row.more = "y"
			if !o.withLines {
				row.items[len(items)-1] += " (y)"
			}
		}
		rows = append(rows, row)
	}
	if a := v.Agent; a != nil && v.Phase == furnace.AuctionPhase {
		rows = append(rows, agentRow(p, a, capitalists))
	}
	return rows
}

// maxNameCells is the most of a name the players' table shows.
const maxNameCells = 14

// num3 is k right-aligned in three columns, as fmt's "%3d".
func num3(k int) string {
	d := strconv.Itoa(k)
	if len(d) >= 3 {
		return d
	}
	return "   "[len(d):] + d
}

// minCardsWidth is the least room the players' table leaves its cards'
// column beside the rows before it heads the goods by their letters:
// "12 cards (i)" and a card or two.
const minCardsWidth = 16

// playersHead is the players' table's head: the seat, its capitalist
// (with the module on), its goods, its part in the phase and its cards.
func playersHead(p *lang.Printer, v *furnace.View) []string {
	stateHead := map[furnace.Phase]string{furnace.AuctionPhase: p.T("furnace.players.discs"),
		furnace.ResolvePhase: p.T("furnace.players.compensation"), furnace.ProductionPhase: p.T("furnace.players.production")}[v.Phase]
	id := "furnace.players.cards"
	if v.Config.Chain {
		id = "furnace.players.chain"
	}
	if v.Phase == furnace.ProductionPhase {
		id += "Resolved"
	}
	head := []string{"", p.T("furnace.players.player"), p.T("furnace.players.money"), p.T("furnace.players.coal"),
		p.T("furnace.players.iron"), p.T("furnace.players.oil"), p.T("furnace.players.tokens"), stateHead, p.T(id)}
	if v.Config.Capitalists {
		head = slices.Insert(head, 2, p.T("furnace.players.capitalist"))
	}
	return head
}

// agentRow is the 2-player Agent's row of the table during the auction:
// its discs left and its last roll.
func agentRow(p *lang.Printer, a *furnace.Agent, capitalists bool) gridRow {
	var d []string
	for k := 1; k <= 4; k++ {
		if a.Discs.Has(k) {
			d = append(d, strconv.Itoa(k))
		}
	}
	state := strings.Join(d, " ")
	if a.Out || state == "" {
		state = p.T("furnace.players.out")
	}
	items := []string{p.T("furnace.agent.places")}
	if a.Roll > 0 {
		items = append(items, p.T("furnace.agent.roll", "Roll", a.Roll))
	}
	cells := []string{" ", p.T("furnace.agentName"), "", "", "", "", "", state}
	if capitalists {
		cells = slices.Insert(cells, 2, "")
	}
	return gridRow{cells: cells, items: items}
}

// yourCardsBlock draws the viewer's cards in production under the goods
// that pay for them, in the first way that fits w×maxLines: a row a card
// with its lines in words; the same in the short notation; the resolved
// cards folded into one list; then the cards to resolve in a list too,
// cut with a marker (the menu lists each of them, and i every card). A
// hint on reading the lines, and a reminder that upgrades are open, come
// where there is room.
func yourCardsBlock(t kit.Theme, v *furnace.View, w, maxLines int) []string {
	me, p := v.You(), t.L
	how := p.T("furnace.yours.how")
	if v.Config.Chain {
		how = p.T("furnace.yours.howChain")
	}
	title := yoursTitle(t, me.Goods, w)
	var lines []string
	for fold := range 3 {
		for _, n := range []notation{long.in(p), short.in(p)} {
			rows := cardRows(t, v, n, fold, w, maxLines-1-len(title))
			if widest(rows) > w {
				continue
			}
			lines = append(slices.Clone(title), rows...)
			for _, c := range me.New {
				for _, l := range wrap(p.T("furnace.yours.won", "Card", c.ID()), w) {
					lines = append(lines, t.Accent.Render(l))
				}
			}
			hint := how
			if n.short {
				hint += " · " + legend(p)
			}
			room := func(extra []string) bool { return maxLines <= 0 || len(lines)+len(extra) <= maxLines }
			if open := wrap(p.T("furnace.yours.open"), w); canUpgrade(v) && room(open) {
				for _, l := range open {
					lines = append(lines, t.Accent.Render(l))
				}
			}
			if hint := wrap(hint, w); room(hint) {
				// A line an element, so that the room left is counted
				// right when the hint wraps.
				for i, l := range hint {
					hint[i] = t.Dim.Render(l)
				}
				lines = slices.Insert(lines, len(title), hint...)
			}
			if room(nil) {
				return lines
			}
		}
	}
	return lines
}

// canUpgrade reports whether the seat may upgrade a company now: its start
// card's line is open and it can pay.
func canUpgrade(v *furnace.View) bool {
	return slices.ContainsFunc(v.Legal, func(m furnace.Move) bool { return m.Kind == furnace.Upgrade })
}

// cardRows draws the viewer's cards in the notation n: a row a card
// (fold 0); the resolved ones folded into a list (fold 1); or the cards to
// resolve in a list as well, in at most maxLines lines (fold 2).
func cardRows(t kit.Theme, v *furnace.View, n notation, fold, w, maxLines int) []string {
	me, p := v.You(), t.L
	g := grid{sep: "; ", p: p}
	next := -1
	if v.Config.Chain {
		next = slices.IndexFunc(me.Cards, func(o furnace.Owned) bool { return !o.Used })
	}
	var done, toResolve []string
	for j, o := range me.Cards {
		state := p.T("furnace.yours.toResolve")
		resolved := false
		switch {
		case o.Used && me.Open == o.Card && canUpgrade(v):
			state = t.Accent.Render(p.T("furnace.yours.upgradesOpen"))
		case o.Used:
			state, resolved = p.T("furnace.yours.resolved"), true
		case j == next:
			state = t.Accent.Render(p.T("furnace.yours.next"))
		case next >= 0:
			state = p.T("furnace.yours.waits")
		}
		id := o.Card.ID()
		if o.Upgraded {
			id += "⇧"
		}
		if fold > 0 && resolved {
			done = append(done, id)
			continue
		}
		var items []string
		for _, l := range o.Card.Lines(o.Upgraded) {
			items = append(items, n.line(l))
		}
		toResolve = append(toResolve, id+" ["+strings.Join(items, "; ")+"]")
		g.rows = append(g.rows, gridRow{cells: []string{strconv.Itoa(j + 1), id, state}, items: items})
	}
	var lines []string
	if fold < 2 {
		lines = g.lines(w, 0)
	} else if len(toResolve) > 0 {
		lines = wrapItems(p, toResolve, " · ", w, max(1, maxLines-1), "furnace.count.cards")
	}
	if len(done) > 0 {
		head := p.T("furnace.yours.resolvedList") + " "
		lines = append(lines, head+wrapItems(p, done, " · ", w-kit.Width(head), 1, "furnace.count.cards")[0])
	}
	return lines
}

// wrap breaks text into lines of width w at spaces (a card id stays one
// word).
func wrap(text string, w int) []string {
	return strings.Split(kit.Wrap(text, w), "\n")
}

// widest is the width of the widest line.
func widest(lines []string) int {
	n := 0
	for _, l := range lines {
		n = max(n, kit.Width(l))
	}
	return n
}

// withLegend is a title with the short notation's legend after it, or
// under it, wrapped, where the line would be wider than w.
func withLegend(t kit.Theme, title, sep string, w int) []string {
	l := legend(t.L)
	if kit.Width(title+sep+l) <= w {
		return []string{title + t.Dim.Render(sep+l)}
	}
	lines := []string{title}
	for _, line := range wrapItems(t.L, strings.Split(l, " · "), " · ", w, 0, "") {
		lines = append(lines, t.Dim.Render(line))
	}
	return lines
}

// yoursTitle heads the seat's own cards with its goods, on the title's
// line where they fit in w, else on lines of their own.
func yoursTitle(t kit.Theme, g furnace.Goods, w int) []string {
	head, goods := t.Title.Render(t.L.T("furnace.yours.title")), goodsLine(t.L, g)
	if kit.Width(head+"  "+goods) <= w {
		return []string{head + "  " + goods}
	}
	return append([]string{head}, wrapItems(t.L, strings.Split(goods, " · "), " · ", w, 0, "")...)
}

// goodsLine is a seat's goods in words.
// Holdings implements kit.Told: a seat's money and goods, in words, and
// where it stands in the phase.
func (b *board) Holdings(t kit.Theme, s kit.Seats, seat int) string {
	if seat < 0 || seat >= len(b.v.Players) {
		return ""
	}
	pl := b.v.Players[seat]
	text := s.Name(seat) + ": " + goodsLine(t.L, pl.Goods)
	if st := playerState(t.L, b.v, pl); st != "" {
		text += "; " + st
	}
	return text
}

func goodsLine(p *lang.Printer, g furnace.Goods) string {
	return p.T("furnace.yours.goods", "Money", g.Money, "Coal", g.Coal, "Iron", g.Iron, "Oil", g.Oil, "Tokens", g.Tokens)
}

// capitalistName is a capitalist's name as the reader's edition prints
// it (furnace.card.ID), else as the card data has it.
func capitalistName(p *lang.Printer, c furnace.Capitalist) string {
	if c == "" {
		return c.Name()
	}
	return p.Or("furnace.card."+string(c), c.Name())
}
