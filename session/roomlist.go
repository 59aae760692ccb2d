package session

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// The lobby's lists: public rooms with a seat to take, public games in
// play to watch, and the player's own games. They follow the lobby's room
// changes (lobby.RoomChanges) without a key, read again at most once a
// listPace, and not at all while nothing changes.

// Lists of the lobby screen, in the order they are drawn and tab visits
// them.
const (
	listOpen = iota // public rooms with a free seat
	listPlay        // public games in play, to watch
	listMine        // the player's games, unfinished first
	listCount
)

// listTitles and listEmpty are the lists' titles and what an empty one
// says, as message IDs; an empty list of open seats says how to make one
// ({{.Hint}}).
var (
	listTitles = [listCount]string{"session.list.openTitle", "session.list.playTitle", "session.list.mineTitle"}
	listEmpty  = [listCount]string{"session.list.openEmpty", "session.list.playEmpty", "session.list.mineEmpty"}
)

// listPace is the least time between two reads of the lists that room
// changes cause: a busy server moves on every second, and each lobby
// screen follows it at this pace, not at every move.
var listPace = time.Second

// roomsChangedMsg says the room lists may have changed.
type roomsChangedMsg struct{ feed <-chan struct{} }

// listDueMsg is the end of a wait for listPace.
type listDueMsg struct{ feed <-chan struct{} }

// liveLists follows room changes for one lobby screen.
type liveLists struct {
	feed    <-chan struct{} // nil until the screen starts following
	told    *poster         // with Config.Post: what the lobby tells of changes
	stop    context.CancelFunc
	loading bool      // a read of the lists is under way
	dirty   bool      // a change came since the last read began
	waiting bool      // a listDueMsg is on its way
	last    time.Time // when the last read began
}

// follow subscribes to room changes until the screen closes. With
// Config.Post the lobby tells of each change and the screen gets a
// message of it, no goroutine waiting between changes (the feed channel
// then only names the subscription in its messages).
func (l *lobbyScreen) follow() tea.Cmd {
	ctx, cancel := context.WithCancel(l.env.ctx)
	l.live.stop = cancel
	if post := l.env.post; post != nil {
		feed := make(chan struct{})
		l.live.feed, l.live.told = feed, &poster{post: post, msg: roomsChangedMsg{feed: feed}}
		l.env.lobby.OnRoomChanges(ctx, l.live.told.tell)
		return nil
	}
	l.live.feed = l.env.lobby.RoomChanges(ctx)
	return l.awaitChange()
}

// awaitChange delivers the next room change.
func (l *lobbyScreen) awaitChange() tea.Cmd {
	feed := l.live.feed
	return func() tea.Msg {
		if _, ok := <-feed; !ok {
			return nil // the screen closed
		}
		return roomsChangedMsg{feed: feed}
	}
}

// liveUpdate handles the live lists' messages; ok is false for others.
func (l *lobbyScreen) liveUpdate(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case roomsChangedMsg:
		if msg.feed != l.live.feed {
			return nil, true
		}
		l.live.dirty = true
		if l.live.told != nil {
			l.live.told.taken()
			return l.reload(), true
		}
		return tea.Batch(l.awaitChange(), l.reload()), true
	case listDueMsg:
		if msg.feed != l.live.feed {
			return nil, true
		}
		l.live.waiting = false
		return l.reload(), true
	}
	return nil, false
}

// reload reads the lists again if they changed, no sooner than listPace
// after the last read and never two reads at once.
func (l *lobbyScreen) reload() tea.Cmd {
	lv := &l.live
	if !lv.dirty || lv.loading || lv.waiting {
		return nil
	}
	if wait := listPace - time.Since(lv.last); wait > 0 {
		lv.waiting = true
		feed := lv.feed
		return tea.Tick(wait, func(time.Time) tea.Msg { return listDueMsg{feed: feed} })
	}
	return l.refresh()
}

// loaded takes in the lists read, keeping each list's selection on the
// same room when it is still there, and reads them again if they changed
// meanwhile.
func (l *lobbyScreen) loaded(lists [listCount][]lobby.RoomInfo, rows listed) tea.Cmd {
	for i, list := range lists {
		if r, ok := l.selectedIn(i); ok {
			if j := slices.IndexFunc(list, func(x lobby.RoomInfo) bool { return x.Code == r.Code }); j >= 0 {
				l.sel[i] = j
			}
		}
		l.sel[i] = min(l.sel[i], max(0, len(list)-1))
	}
	l.lists, l.rows, l.ready = lists, rows, true
	l.live.loading = false
	return l.reload()
}

// roomCells are one room's columns in a list.
type roomCells struct {
	code, game, seats, vis, state, people string
}

// wordRoom words room r of lobby lb for list i, as player me sees it
// ("" for a player seated nowhere), in p's language.
func wordRoom(lb *lobby.Lobby, p *lang.Printer, me string, r lobby.RoomInfo, list int) roomCells {
	taken := 0
	var people []string
	for i, s := range r.Seats {
		if s.Free {
			continue
		}
		taken++
		people = append(people, SeatName(p, r, i))
	}
	c := roomCells{code: r.Code, game: roomKind(lb, p, r), seats: fmt.Sprintf("%d/%d", taken, len(r.Seats)),
		people: strings.Join(people, ", ")}
	if list == listMine && !r.Public {
		c.vis = p.T("session.list.private")
	}
	if r.Practice {
		// Its seed was chosen: a game anyone told it can foresee.
		c.vis = strings.TrimPrefix(c.vis+" "+p.T("session.list.practice"), " ")
	}
	switch {
	case r.Over && r.Result != nil:
		c.state = resultText(p, r, me)
	case r.Over && r.Ended != "":
		c.state = p.T("session.list.finished") + " · " + endedText(p, r.Ended)
	case r.Over:
		c.state = p.T("session.list.finished")
	case r.YourMove(me):
		c.state = p.T("session.list.roundYourMove", "Round", r.Round)
	case r.Started && r.Round > 0:
		c.state = p.T("session.list.round", "Round", r.Round)
	case r.Started:
		c.state = p.T("session.list.inPlay") // stored before rounds were
	default:
		c.state = p.N("session.list.seatsFree", len(r.Seats)-taken)
	}
	return c
}

// listWidths are the widths of the columns, shared by every list so the
// three line up: each as wide as its widest cell, the players' names
// taking what is left and the long cells giving way first when the
// screen is narrow (each cut marked with "…").
type listWidths struct{ game, seats, vis, state, people int }

const listIndent = 4 // "  ▸ " before every row

// widen makes each column at least as wide as r's cell in it.
func (cw *listWidths) widen(r roomCells) {
	cw.game = max(cw.game, ansi.StringWidth(r.game))
	cw.seats = max(cw.seats, ansi.StringWidth(r.seats))
	cw.vis = max(cw.vis, ansi.StringWidth(r.vis))
	cw.state = max(cw.state, ansi.StringWidth(r.state))
	cw.people = max(cw.people, ansi.StringWidth(r.people))
}

// columnWidths fits the columns, each as wide as its widest cell, in w.
func columnWidths(cw listWidths, w int) listWidths {
	fixed := func() int {
		n := listIndent + lobby.CodeLength + 2 + cw.game + 2 + cw.seats + 2 + cw.state + 2
		if cw.vis > 0 {
			n += cw.vis + 2
		}
		return n
	}
	// Names keep at least 12 columns; past that the game and the state
	// give way, down to what still reads.
	for fixed()+min(cw.people, 12) > w && (cw.game > 16 || cw.state > 14) {
		if cw.game >= cw.state && cw.game > 16 || cw.state <= 14 {
			cw.game--
		} else {
			cw.state--
		}
	}
	cw.people = max(0, min(cw.people, w-fixed()))
	return cw
}

// cell pads or cuts s to exactly w columns; a cut ends in "…".
func cell(s string, w int) string {
	if n := ansi.StringWidth(s); n > w {
		if w <= 0 {
			return ""
		}
		s = ansi.Truncate(s, w-1, "") + "…"
	}
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}

func (c roomCells) row(cw listWidths) string {
	parts := []string{cell(c.code, lobby.CodeLength), cell(c.game, cw.game), cell(c.seats, cw.seats)}
	if cw.vis > 0 {
		parts = append(parts, cell(c.vis, cw.vis))
	}
	parts = append(parts, cell(c.state, cw.state), cell(c.people, cw.people))
	return strings.TrimRight(strings.Join(parts, "  "), " ")
}

// listRows shares h rows between the lists: each gets what it needs (a
// line for "none" when empty) while they fit, else an even share of what
// is left, smallest needs served first.
func listRows(need [listCount]int, h int) [listCount]int {
	var got [listCount]int
	order := []int{0, 1, 2}
	slices.SortStableFunc(order, func(a, b int) int { return need[a] - need[b] })
	left := h
	for i, li := range order {
		share := left / (len(order) - i)
		got[li] = max(1, min(need[li], share))
		left -= got[li]
	}
	return got
}

// listsView draws the three lists in h lines of w.
func (l *lobbyScreen) listsView(w, h int) string {
	t := l.env.theme
	if !l.ready {
		return t.L.T("session.list.loading")
	}
	cells := &l.rows.cells
	var need [listCount]int
	for i, list := range l.lists {
		need[i] = max(1, len(list))
	}
	cw := columnWidths(l.rows.widest, w)
	// A title a list, a blank line between lists.
	rows := listRows(need, h-2*listCount+1)
	var out []string
	for i := range listCount {
		if i > 0 {
			out = append(out, "")
		}
		title := t.Title.Render(t.L.T(listTitles[i]))
		if n := len(l.lists[i]); n > 0 {
			title += t.Dim.Render(fmt.Sprintf(" (%d)", n))
		}
		if l.focus == i {
			title = "▸ " + title
		} else {
			title = "  " + title
		}
		if len(cells[i]) == 0 {
			out = append(out, title)
			key := listEmpty[i]
			if i == listPlay && slices.ContainsFunc(l.lists[listMine], func(r lobby.RoomInfo) bool { return r.Public && r.Started && !r.Over }) {
				key = "session.list.playEmptyOthers" // the player's own are left out of it
			}
			empty := t.L.T(key, "Hint", l.createHint()) // the open seats' says how to make some
			// A language's longer sentence wraps between words, never cut.
			for _, line := range strings.Split(strings.TrimRight(kit.Wrap(empty, max(10, w-4)), " "), "\n") {
				out = append(out, "    "+t.Dim.Render(line))
			}
			continue
		}
		lines, more := l.listLines(i, cells[i], cw, rows[i])
		if more != "" {
			title += t.Dim.Render(" · " + more) // no line left for it
		}
		out = append(append(out, title), lines...)
	}
	return strings.Join(out, "\n")
}

// listLines draws list i in at most n lines, scrolled to its selection;
// rows it cannot show are counted on a last line, or in more when n
// leaves no line for it (the title says it then).
func (l *lobbyScreen) listLines(i int, cells []roomCells, cw listWidths, n int) (lines []string, more string) {
	t := l.env.theme
	show := len(cells)
	if show > n {
		show = max(1, n-1) // one line says how many more
	}
	sel := l.sel[i]
	start := min(max(0, sel-show+1), len(cells)-show)
	var out []string
	for j := start; j < start+show; j++ {
		text := cells[j].row(cw)
		if j == sel && l.focus == i {
			out = append(out, "  ▸ "+t.Selected.Render(text))
		} else {
			out = append(out, "    "+text)
		}
	}
	if hidden := len(cells) - show; hidden > 0 {
		above := start
		words := t.L.N("session.list.moreBelow", hidden-above)
		switch {
		case above > 0 && hidden > above:
			words = t.L.N("session.list.moreAboveBelow", above, "Below", hidden-above)
		case above > 0:
			words = t.L.N("session.list.moreAbove", above)
		}
		if len(out) >= n {
			return out, words + " (↑/↓)"
		}
		out = append(out, "    "+t.Dim.Render("… "+words+" (↑/↓)"))
	}
	return out, ""
}
