package furnace

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// wide is the width from which the board has room for every card's lines
// and a column of its own for the menu and the log.
const wide = 120

// Draw implements kit.Board: the seated board with its menu, or the
// public board, fitted to the frame (Fit leaves the wide board's
// columns as they are).
func (b *board) Draw(f kit.Frame) string {
	var drawn string
	switch {
	case f.Menu == nil:
		drawn = b.public(f)
	case f.Width >= wide:
		drawn = b.seatedWide(f)
	default:
		drawn = b.seatedNarrow(f)
	}
	return kit.Fit(drawn, f.Width, f.Height)
}

// top is what the board opens with, m's width wide: the market in the
// auction and the resolution; the seat's own cards in production (none
// for a spectator, whose players' table shows every seat's cards).
func (b *board) top(f kit.Frame, m *marketTable, maxLines int) []string {
	v, w := b.v, m.w
	switch {
	case v.Phase == furnace.AuctionPhase || v.Phase == furnace.ResolvePhase:
		return m.fit(maxLines)
	case v.Phase == furnace.ProductionPhase && v.You() != nil && f.Menu != nil:
		return yourCardsBlock(f.Theme, v, w, maxLines)
	}
	return nil
}

// fit draws the market in words where its rows fit its width, in the
// short notation where they do not, where the words would break a disc
// over two lines, or where the words would leave less room for the discs: who bids what is the auction, and the words had
// pushed it behind "(i)" markers at 100 columns. Each notation is made
// once for all its tries.
func (m *marketTable) fit(maxLines int) []string {
	if m.tooWide(long) {
		// As the loop below would find, without drawing the discs.
		return m.block(short, maxLines)
	}
	lines := m.block(long, maxLines)
	for _, l := range lines {
		if kit.Width(l) > m.w {
			return m.block(short, maxLines)
		}
	}
	hidden := func(lines []string) int { return strings.Count(strings.Join(lines, "\n"), " (i)") }
	if brief := m.block(short, maxLines); hidden(brief) < hidden(lines) || m.splits(long) && !m.splits(short) {
		return brief
	}
	return lines
}

// splits reports whether the market in n breaks a disc over two lines
// ("player-2732:" over "1"), its column narrower than the disc's words.
func (m *marketTable) splits(n notation) bool { return m.laid[m.laidIn(n)].split }

// seatedNarrow is the 80-column board: the market (or the seat's cards
// in production) across the top, the players' table under it, and the
// move menu beside the log at the bottom. Rows shorten before anything is
// dropped, and what is shortened says so and is listed whole by i.
func (b *board) seatedNarrow(f kit.Frame) string {
	w := f.Width
	up := b.narrow.Draw(f.Theme, f.Seats, w, f.Height, func() narrowParts { return b.narrowTop(f) })
	menuW := w * 56 / 100
	logW := w - menuW - 1
	// The menu is drawn a column short of its share: a wrapped move that
	// fills its width would read on into the log beside it.
	bottom := kit.Columns(up.bottomH, []int{menuW, logW}, []string{f.Menu(menuW-1, up.bottomH)}, []string{f.Log(logW, up.bottomH)})
	if up.top == "" {
		return bottom
	}
	return up.top + up.gap + bottom
}

// narrowParts are the narrow board's market (or own cards) and players'
// table, joined, and the room they leave the menu and the log: they
// depend on the view, the seats and the size, not on the menu, and are
// kept for the keys a player presses.
type narrowParts struct {
	top, gap string
	bottomH  int
}

// narrowTop lays out the narrow board's top for seatedNarrow.
func (b *board) narrowTop(f kit.Frame) narrowParts {
	v, t, w, h := b.v, f.Theme, f.Width, f.Height
	const minBottom = 5
	skip := v.Phase == furnace.ProductionPhase
	// The market, or the seat's own cards, come first, leaving the
	// players' table two lines a seat (a row and a line of its cards)
	// when they can do with the rest, one when they cannot, and the menu
	// its room. The table then shows each seat's cards under its row
	// (with their lines if they fit), else beside it on two lines, else
	// on one.
	seats := len(v.Players)
	if skip {
		seats--
	}
	if v.Agent != nil && v.Phase == furnace.AuctionPhase {
		seats++
	}
	room := h - minBottom - 1 - 2*seats
	market := newMarketTable(t, v, f.Seats, w)
	top := b.top(f, market, room)
	if len(top) > room {
		top = b.top(f, market, h-minBottom-1-seats)
	}
	var players []string
	table := newPlayersTable(t, v, f.Seats, w, short)
	for _, o := range []playersOptions{{below: true, withLines: true}, {below: true}, {below: true, perPlayer: 1}, {perPlayer: 2}, {perPlayer: 1}} {
		o.skipViewer = skip
		players = table.block(o)
		if widest(players) <= w && len(top)+len(players)+minBottom <= h {
			break
		}
	}
	used := len(top) + len(players)
	gap := "\n"
	if h-used-minBottom >= 2 {
		gap = "\n\n"
		used += 2
	}
	blocks := slices.DeleteFunc([]string{strings.Join(top, "\n"), strings.Join(players, "\n")}, func(s string) bool { return s == "" })
	return narrowParts{top: strings.Join(blocks, gap), gap: gap, bottomH: max(minBottom, h-used)}
}

// seatedWide has room for every card's lines: the market across the top
// (in production the seat's own cards, left), every seat's cards with
// their lines on the left, and the focused card, the menu and the log on
// the right.
func (b *board) seatedWide(f kit.Frame) string {
	w, h := f.Width, f.Height
	lw := w * 58 / 100
	rw := w - lw - 1
	parts := b.wide.Draw(f.Theme, f.Seats, w, h, func() wideParts { return b.wideLeft(f, lw) })
	bodyH := h - parts.headH
	right := b.preview(f, rw, bodyH/2)
	logH := max(4, bodyH/3)
	menuH := max(4, bodyH-logH-len(right)-1)
	right = append(right, kit.FitHeight(f.Menu(rw, menuH), menuH), "", f.Log(rw, bodyH-menuH-len(right)-1))
	cols := kit.Columns(bodyH, []int{lw, rw}, parts.left, right)
	if parts.headH == 0 {
		return cols
	}
	return parts.head + "\n" + cols
}

// wideParts are the wide board's market across the top and its left
// column, lw wide: they depend on the view, the seats and the size, not
// on the menu, and are kept for the keys a player presses. head is
// headH lines, joined.
type wideParts struct {
	head  string
	headH int
	left  []string
}

// wideLeft lays out wideParts for seatedWide.
func (b *board) wideLeft(f kit.Frame, lw int) wideParts {
	v, w, h := b.v, f.Width, f.Height
	var head, left []string
	if v.Phase == furnace.ProductionPhase {
		left = append(b.top(f, newMarketTable(f.Theme, v, f.Seats, lw), 0), "")
	} else {
		head = append(b.top(f, newMarketTable(f.Theme, v, f.Seats, w), h/2), "")
	}
	bodyH := h - len(head)
	left = append(left, b.playersWithTitle(f, lw, bodyH-len(left), v.Phase == furnace.ProductionPhase)...)
	return wideParts{head: strings.Join(head, "\n"), headH: len(head), left: slices.Clip(left)}
}

// playersWithTitle draws every seat (but the viewer's, when its cards are
// drawn apart) with each card's lines, in at most h lines: the lines go
// first, then rows are cut with a marker, if the table does not fit.
func (b *board) playersWithTitle(f kit.Frame, w, h int, skipViewer bool) []string {
	t := f.Theme
	title := withLegend(t, t.Title.Render(t.L.T("furnace.players.title")), "  ", w)
	// Every card with its lines under each seat's row if they fit whole,
	// else beside it, else every card's id, else as many ids as fit with a
	// marker for the rest.
	var lines []string
	table := newPlayersTable(t, b.v, f.Seats, w, short)
	for _, o := range []playersOptions{
		{withLines: true, below: true}, {withLines: true}, {below: true}, {}, {perPlayer: 3}, {perPlayer: 2}, {perPlayer: 1},
	} {
		o.skipViewer = skipViewer
		lines = append(slices.Clone(title), table.block(o)...)
		if len(lines) <= h && widest(lines) <= w {
			break
		}
	}
	return lines
}

// preview is the full text of the card the menu is on, with a blank line
// under it, when it fits in h lines.
func (b *board) preview(f kit.Frame, w, h int) []string {
	if f.Focus == nil {
		return nil
	}
	lines := b.previewLines(f.Theme, *f.Focus, w)
	if len(lines)+1 > h {
		return nil
	}
	return append(lines[:len(lines):len(lines)], "")
}

// previewLines is a card's text as the preview shows it, less its last
// line. It depends on the card, the theme and the width, and for Arthur
// on when he bids, so one cache serves every board and screen: a new
// board comes with every update, and the menu stays on a card.
func (b *board) previewLines(t kit.Theme, c kit.CardRef, w int) []string {
	return previews.Get(preview{t.Styles, t.L.Tag(), c, w, b.v.Config.Arthur}, func() []string {
		lines := strings.Split(b.CardText(t, c, w), "\n")
		return lines[:len(lines)-1] // not "on the board": the menu says where
	})
}

// previews holds previewLines' answers; they are shared, so never
// written to.
var previews = kit.NewShared[preview, []string](1024)

type preview struct {
	styles *kit.Styles
	tag    lang.Tag
	card   kit.CardRef // where it lies too: a long "where" wraps above the cut
	w      int
	arthur furnace.ArthurTiming
}

// public is the board as a spectator sees it, and replays draw it: the
// market, every seat with its cards (their lines where there is room),
// and the log.
func (b *board) public(f kit.Frame) string {
	w, h := f.Width, f.Height
	top := b.top(f, newMarketTable(f.Theme, b.v, f.Seats, w), h/2)
	var lines []string
	if len(top) > 0 {
		lines = append(top, "")
	}
	rest := h - len(lines) - 4 // keep room for a few log lines
	lines = append(lines, b.playersWithTitle(f, w, rest, false)...)
	logH := h - len(lines) - 1
	if logH < 2 {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines, "\n") + "\n\n" + f.Log(w, logH)
}

// Scores implements kit.Board: the final money as a bar chart, the
// winners named, the tie-breaks, and every seat's final cards.
func (b *board) Scores(f kit.Frame) string {
	t, v, w, p := f.Theme, b.v, f.Width, f.Theme.L
	lines := []string{t.Title.Render(p.T("furnace.scores.title"))}
	if f.Ended != "" {
		lines[0] += "  " + f.Ended
	}
	if len(v.Scores) == 0 {
		return strings.Join(append(lines, "", p.T("furnace.scores.none")), "\n")
	}
	var rows []kit.ScoreRow
	for _, sc := range v.Scores {
		rows = append(rows, kit.ScoreRow{Rank: sc.Rank, Name: scoreName(p, f.Seats, sc.Seat), You: f.Seats.Me(sc.Seat), Score: sc.Money, Winner: sc.Winner,
			Detail: fmt.Sprintf("%*s", 3-len(strconv.Itoa(sc.Money)), "") + p.N("furnace.scores.detail", sc.Money, "Cards", sc.Cards, "Resources", sc.Resources)})
	}
	lines = append(lines, kit.ScoreChart(t, rows, w)...)
	// A line an element, so that the room left below is counted right.
	for _, l := range wrap(p.T("furnace.scores.ties"), w) {
		lines = append(lines, t.Dim.Render(l))
	}
	lines = append(lines, "")
	// The final cards come before the log, which g opens whole, and only
	// when they fit: what the session puts under the scores (the ratings)
	// must not be pushed off the screen.
	if rest := f.Height - len(lines); rest >= 3 {
		if players := b.playersWithTitle(f, w, rest, false); len(players) <= rest {
			lines = append(lines, players...)
		}
	}
	return strings.Join(lines, "\n")
}

func scoreName(p *lang.Printer, s kit.Seats, seat int) string {
	if s.Me(seat) {
		return p.T("furnace.scores.you")
	}
	return s.Name(seat)
}
