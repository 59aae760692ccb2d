package factories

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// Draw implements kit.Board: the seated board with its menu, or the
// public board.
func (b *board) Draw(f kit.Frame) string { return b.Lay(f).String() }

// Lay implements kit.Laid.
func (b *board) Lay(f kit.Frame) kit.Grid {
	if f.Menu == nil {
		return b.public(f)
	}
	return b.seated(f)
}

// seated is the seated player's board: marketplace and their own area on
// the left, the other seats, the move menu and the log on the right (in a
// third column on wide terminals). Every part gets a share of the height
// and shortens itself, with a mark, to stay in it. The parts kept from
// frame to frame are fitted to their column as they are drawn, and
// marked so (Grid.Fitted): a key's frame copies them unmeasured.
func (b *board) seated(f kit.Frame) kit.Grid {
	d := b.kept()
	t, v, w, h, g := f.Theme, b.v, f.Width, f.Height, &d.laid
	if w >= 150 {
		lw := w * 40 / 100
		mw := (w - lw - 2) / 2
		rw := w - lw - mw - 2
		market := d.market.Draw(t, f.Seats, lw, 0, func() string { return marketFitted(t, v, lw) })
		yh := h - lipgloss.Height(market) - 1
		you := d.you.Draw(t, f.Seats, lw, yh, func() string { return kit.FitLines(youLines(t, v, f.Seats, lw, yh, &d.hand), lw) })
		left := b.withPreview(f, append(g.left[:0], market, "", you), lw, h)
		mid := d.others.Draw(t, f.Seats, mw, h, func() othersDrawn {
			return othersFitted(t, v, f.Seats, mw, h, b.seatsKept(), g.others)
		})
		g.others = mid.blocks
		// The menu takes the lines its moves need, leaving the log at
		// least a third; the log takes every line left.
		menu, menuH := menuIn(f, rw, h, h-max(3, h/3)-1)
		right := append(g.right[:0], menu, "", f.Log(rw, h-menuH-2))
		g.widths = [3]int{lw, mw, rw}
		g.cols = [3][]string{left, mid.blocks, right}
		// Market, you and the preview; the others; the log.
		g.fitted = [3]uint64{0b10101, fittedParts(len(mid.blocks)), 0b100}
		return kit.Grid{H: h, Widths: g.widths[:], Cols: g.cols[:], Fitted: g.fitted[:]}
	}
	lw := w * 52 / 100
	rw := w - lw - 1
	market := d.market.Draw(t, f.Seats, lw, 0, func() string { return marketFitted(t, v, lw) })
	yh := h - lipgloss.Height(market)
	you := d.you.Draw(t, f.Seats, lw, yh, func() string { return kit.FitLines(youLines(t, v, f.Seats, lw, yh, &d.hand), lw) })
	left := b.withPreview(f, append(g.left[:0], market, you), lw, h)
	// The others take what a short menu (a title and two moves) and a
	// short log leave; the menu takes the lines its moves need, up to all
	// that is left but the log's; the log takes the rest.
	others := d.others.Draw(t, f.Seats, rw, h-8, func() othersDrawn {
		return othersFitted(t, v, f.Seats, rw, h-8, b.seatsKept(), g.others)
	})
	g.others = others.blocks
	menu, menuH := menuIn(f, rw, h, h-others.lines-4)
	logH := h - others.lines - menuH - 1
	n := len(others.blocks)
	g.right = append(append(g.right[:0], others.blocks...), "", menu, f.Log(rw, logH))
	g.widths = [3]int{lw, rw}
	g.cols = [3][]string{left, g.right}
	// Market, you and the preview; the others and the log.
	g.fitted = [3]uint64{0b1011, fittedParts(n) | uint64(1)<<(n+2)}
	return kit.Grid{H: h, Widths: g.widths[:2], Cols: g.cols[:2], Fitted: g.fitted[:2]}
}

// laid holds the slices of the seated board's Grid, made once for the
// board rather than at every frame: a screen writes the Grid a board
// lays before it lays the next. left and right have room for every part
// of theirs (withPreview adds two); others holds the others' blocks
// (othersFitted), and right takes as many as they are.
type laid struct {
	left          [5]string
	right, others []string
	widths        [3]int
	cols          [3][]string
	fitted        [3]uint64
}

// fittedParts is Grid.Fitted's bits for a column's first n parts: none
// past the 64th.
func fittedParts(n int) uint64 {
	if n >= 64 {
		return math.MaxUint64
	}
	return 1<<n - 1
}

// fitWidth cuts or pads every line of block to w columns, as a Grid's
// column does.
func fitWidth(block string, w int) string { return kit.FitLines(strings.Split(block, "\n"), w) }

// menuIn is the move menu w wide in the lines its moves need (drawn in
// all h lines), but at most most, and the lines it takes. A menu that
// leaves two of its lines unused was not cut for them, and draws the same
// in exactly the lines it takes (TestMenuSameInMoreLines): the drawing
// that measured it is placed, and the menu is drawn again only when it
// must be cut, rather than at every frame.
func menuIn(f kit.Frame, w, h, most int) (string, int) {
	full := f.Menu(w, h)
	if n := lipgloss.Height(full); n <= most && n <= h-2 {
		return full, n
	}
	menuH := min(lipgloss.Height(full), most)
	return kit.FitHeight(f.Menu(w, menuH), menuH), menuH
}

// withPreview adds the full text of the card the menu is on below the
// column's parts, when the column has room for it.
func (b *board) withPreview(f kit.Frame, parts []string, w, h int) []string {
	if f.Focus == nil {
		return parts
	}
	text := b.previewText(f.Theme, *f.Focus, w)
	used := lipgloss.Height(text) + 1
	for _, p := range parts {
		used += lipgloss.Height(p)
	}
	if used > h {
		return parts
	}
	return append(parts, "", text)
}

// previewText is a card's text as the preview shows it: without its
// last line, which says where the card lies (the menu says that), fitted
// to w. The rest depends on no view, so one cache serves every board and
// screen.
func (b *board) previewText(t kit.Theme, c kit.CardRef, w int) string {
	return previews.Get(preview{t.Styles, t.L.Tag(), c.Key, c.Name, w}, func() string {
		text := b.CardText(t, c, w)
		return fitWidth(text[:strings.LastIndex(text, "\n")], w) // not "on the board"
	})
}

// previews holds the cards' texts as previewText gives them, by theme,
// language, card and width.
var previews = kit.NewShared[preview, string](1024)

type preview struct {
	styles    *kit.Styles
	tag       lang.Tag
	key, name string // the card's name shows where its key is unknown
	w         int
}

// public is the board as a spectator sees it: marketplace and log on the
// left, every seat on the right. Replays draw it too.
func (b *board) public(f kit.Frame) kit.Grid {
	t, w, h := f.Theme, f.Width, f.Height
	lw := w * 48 / 100
	rw := w - lw - 1
	market := marketDrawn(t, b.v, lw)
	left := []string{market, "", f.Log(lw, max(2, h-lipgloss.Height(market)-2))}
	return kit.Grid{H: h, Widths: []int{lw, rw}, Cols: [][]string{left, {othersView(t, b.v, f.Seats, rw, h)}}}
}

// Scores implements kit.Board: the final scores as a bar chart, the
// winner named, and in a replay every seat's final compound below.
func (b *board) Scores(f kit.Frame) string {
	t, v, w := f.Theme, b.v, f.Width
	lines := []string{t.Title.Render(t.L.T("factories.over.title")) + "  " + tf(t, "factories.over.after", "Round", v.Round)}
	why := ""
	switch {
	case f.Ended != "":
		why = f.Ended
	case v.EndCause != "" && v.FinalRound > 1:
		// The cause is worded as it stood when it ended the game, a round
		// before the scores: say when, so the scores' higher numbers do
		// not read as a contradiction.
		why = tf(t, "factories.over.came", "Round", v.FinalRound-1, "Cause", endCause(t, v, f.Seats, true))
	case v.EndCause != "":
		why = endCause(t, v, f.Seats, true)
	}
	switch {
	case why == "":
	case lipgloss.Width(lines[0]+" · "+why) <= w:
		lines[0] += " · " + why
	default:
		lines = append(lines, why) // on its own line rather than cut
	}
	if len(v.Scores) == 0 {
		return strings.Join(append(lines, "", t.L.T("factories.over.no_scores")), "\n")
	}
	scores := slices.Clone(v.Scores)
	slices.SortStableFunc(scores, func(a, b factories.Score) int { return a.Rank - b.Rank })
	long := w >= 100 // room for the tie-breakers
	var rows []kit.ScoreRow
	for _, s := range scores {
		d := fmt.Sprintf("%3d  ", s.Total) + tf(t, "factories.over.points", "Goods", s.Goods, "Prestige", s.Prestige)
		if s.Machine {
			// The Machine scores its buildings (a Monument twice), not
			// their prestige.
			d = fmt.Sprintf("%3d  ", s.Total) + tf(t, "factories.over.machine_points", "Goods", s.Goods, "Buildings", s.Prestige)
		}
		if !s.Machine && long {
			d += "  (" + tf(t, "factories.over.tiebreak", "Metal", s.Metal, "Energy", s.Energy, "Hand", s.Hand) + ")"
		}
		rows = append(rows, kit.ScoreRow{Rank: s.Rank, Name: scoreName(t, f.Seats, s), You: !s.Machine && f.Seats.Me(s.Seat), Score: s.Total, Detail: d, Winner: s.Winner})
	}
	lines = append(lines, kit.ScoreChart(t, rows, w)...)
	if tie := tieNote(t, f.Seats, scores); tie != "" {
		lines = append(lines, t.Dim.Render(tie))
	}
	return strings.Join(lines, "\n")
}

// tieNote says how a tie on points at the top was broken, since the
// tie-breakers are not shown beside narrow bars: "tied on 9 points: You
// win with more cards in hand (10 to 9)". scores are in rank order.
func tieNote(t kit.Theme, s kit.Seats, scores []factories.Score) string {
	if len(scores) < 2 || scores[0].Machine || scores[1].Machine || scores[0].Total != scores[1].Total {
		return ""
	}
	a, b := scores[0], scores[1]
	head := t.L.N("factories.tie.head", a.Total) + " "
	if a.Rank == b.Rank {
		return head + t.L.T("factories.tie.shared")
	}
	why := tf(t, "factories.tie.metal", "A", a.Metal, "B", b.Metal)
	switch {
	case a.Metal != b.Metal:
	case a.Energy != b.Energy:
		why = tf(t, "factories.tie.energy", "A", a.Energy, "B", b.Energy)
	default:
		why = tf(t, "factories.tie.hand", "A", a.Hand, "B", b.Hand)
	}
	if s.Me(a.Seat) {
		return head + tf(t, "factories.tie.you_win", "Why", why)
	}
	return head + tf(t, "factories.tie.wins", "Who", scoreName(t, s, a), "Why", why)
}

func scoreName(t kit.Theme, s kit.Seats, sc factories.Score) string {
	switch {
	case sc.Machine:
		return t.L.T("factories.machine.name")
	case s.Me(sc.Seat):
		return t.L.T("factories.over.you")
	}
	return s.Name(sc.Seat)
}
