package session

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// view draws the room: header, banner, body, status line and help bar.
func (g *gameScreen) view(w, h int) string { return string(g.appendView(nil, w, h)) }

// appendView appends view to dst, a board's grid written in place.
func (g *gameScreen) appendView(dst []byte, w, h int) []byte {
	t := g.env.theme
	status, sh := g.statusView(w)
	bh := h - 3 - sh
	var body string
	var grid *kit.Grid
	fitted := false // the board's Draw is, exactly
	switch {
	case g.conn == nil || g.room.Code == "":
		// Connected but no update yet: an empty waiting room would read
		// "0 of 0 seats taken" for a frame.
		body = t.L.T("session.room.joining", "Code", g.code)
		if g.watch {
			body = t.L.T("session.room.opening", "Code", g.code)
		}
	case g.overlay != nil:
		body = g.overlay.view(t, w, bh)
		if o, ok := g.overlay.(fittedOverlay); ok {
			fitted = o.fitted()
		}
	case g.board == nil:
		body = g.waitingView(w, bh) // also a room closed before it started
	case g.over():
		body = g.scoresBody(w, bh)
	default:
		if l, ok := g.board.(kit.Laid); ok {
			g.laid = l.Lay(g.frame(w, bh))
			grid = &g.laid
		} else {
			body, fitted = g.board.Draw(g.frame(w, bh)), true
		}
	}
	var bar string
	switch {
	case g.chat.typing:
		bar = helpBar(t, g.chatKeys(), w)
	case g.overlay != nil:
		bar = helpBar(t, g.overlay.keys(), w)
	default:
		bar = g.keysBar(w)
	}
	return kit.AppendRows(dst, w, kit.Row{Text: g.header(w), H: 1}, kit.Row{Text: g.banner(w), H: 1},
		kit.Row{Text: body, H: bh, Fitted: fitted, Grid: grid}, kit.Row{Text: status, H: sh}, kit.Row{Text: bar, H: 1})
}

// drawings are the header and the help bar as the screen last drew them:
// most frames are drawn for a key that changes neither. Apply clears the
// header, as a room update may change anything it shows; the rest of
// what it shows, and all the bar shows, is in their keys.
type drawings struct {
	header, bar kit.Kept[drawingKey]
}

type drawingKey struct {
	w      int
	styles *kit.Styles
	lang   *lang.Printer
	conn   *lobby.Conn // the header: the room joined (an invite shows then)
	seat   int         // and the seat, set on joining
	clock  string      // and the turn's clock
	keys   int         // the help bar: which of gameKeySets
}

// keysBar is the help bar of the screen's keys (keys).
func (g *gameScreen) keysBar(w int) string {
	t, set := g.env.theme, g.keySet()
	k := drawingKey{w: w, styles: t.Styles, lang: t.L, keys: set}
	return g.drawings.bar.Get(k, func() string { return helpBar(t, gameKeySets[set], w) })
}

// statusView is the status line fitted to w (statusLines), and its
// height: the chat's input while typing, the move search, what was said
// last, or the chat's unread lines.
func (g *gameScreen) statusView(w int) (string, int) {
	t := g.env.theme
	status := ""
	switch {
	case g.chat.typing:
		return g.chat.inputView(), 1
	case g.filtering && g.statusBad && g.status != "":
		status = t.L.T("session.game.search", "Search", g.menu.filter) + "▏  " + t.Bad.Render("✗ "+g.status) // enter's answer
	case g.filtering:
		status = t.L.T("session.game.search", "Search", g.menu.filter) + "▏" + t.Dim.Render("  "+t.L.T("session.game.searchKeys"))
	case g.status != "" && g.statusBad:
		status = t.Bad.Render("✗ " + g.status)
	case g.status != "" && g.noteRound == 0 && g.unreadText() != "":
		// A note that lasts (welcome back: said until the move is
		// played) never hides what others said meanwhile.
		status = t.Dim.Render(g.status+" · ") + t.Accent.Render(g.unreadText())
	case g.status != "" && (g.noteRound == 0 || g.unreadText() == ""):
		status = t.Dim.Render(g.status)
	case g.unreadText() != "":
		status = t.Accent.Render(g.unreadText()) // before a note of a move played
	}
	return statusLines(status, w)
}

// keys are the screen's keys now (keySet).
func (g *gameScreen) keys() help.KeyMap { return gameKeySets[g.keySet()] }

// keySet is which of gameKeySets the screen's keys are now: moves for a
// seat in play, the rest for spectators, the waiting room and a finished
// game.
func (g *gameScreen) keySet() int {
	if g.over() && !g.spectator() {
		return overSet
	}
	if g.board == nil && !g.room.Over {
		return waitingSet
	}
	if g.spectator() || g.board == nil || g.over() {
		return watchSet
	}
	set := playSet
	if g.menu.offersUndo() {
		set = undoSet
	}
	if game, ok := g.gameOf(); ok && game.Bots.Hint == nil { // its keys page does not list h
		set += playHintlessSet - playSet
	}
	return set
}

const (
	playSet = iota
	undoSet
	watchSet
	overSet
	waitingSet
	playHintlessSet // playSet and undoSet in a game without hints
	undoHintlessSet
)

// gameKeySets are the screen's key maps, made into help.KeyMaps once:
// each frame asks for one, and boxing the key map copies every binding.
var gameKeySets = [...]help.KeyMap{
	playSet: gameKeyMap, undoSet: undoKeys{gameKeyMap}, watchSet: watchKeys{gameKeyMap},
	overSet: overKeys{gameKeyMap}, waitingSet: waitingKeys{gameKeyMap},
	playHintlessSet: hintless{gameKeyMap}, undoHintlessSet: hintless{undoKeys{gameKeyMap}},
}

// frame is what the board draws into: its size, the seats, and the menu
// and log widgets for it to place.
func (g *gameScreen) frame(w, h int) kit.Frame {
	f := kit.Frame{Theme: g.env.theme, Seats: g.seats(), Width: w, Height: h, Ended: endedText(g.env.theme.L, g.room.Ended),
		Log: g.bound.log}
	if !g.spectator() {
		f.Menu = g.bound.menu
		if grp, ok := g.menu.selectedGroup(); ok {
			f.Focus = grp.Card
		}
	}
	return f
}

// header names the room and says what is happening in the game, with the
// turn's clock last; the name of the server gives way when w is short.
func (g *gameScreen) header(w int) string {
	t, clock := g.env.theme, ""
	if g.board != nil && !g.over() {
		clock = g.clockText()
	}
	k := drawingKey{w: w, styles: t.Styles, lang: t.L, conn: g.conn, seat: g.seat, clock: clock}
	return g.drawings.header.Get(k, func() string { return g.drawHeader(w, clock) })
}

// drawHeader is header with the clock's text.
func (g *gameScreen) drawHeader(w int, clockText string) string {
	t := g.env.theme
	room := g.roomName(g.code)
	var in [8]string // every part there may be: on the stack
	parts := append(in[:0], themed(t, "brand", func() string { return t.Title.Render("smokestack") }), room)
	branded := true // parts[0] is the server's name
	if g.spectator() && g.conn != nil {
		if g.invite != "" {
			// Came in with a private room's invite: the code alone would
			// not let them back in.
			parts[1] = t.L.T("session.room.code", "Code", g.invite)
		}
		parts = append(parts, t.L.T("session.room.watching"))
	}
	if g.room.Practice {
		parts = append(parts, t.L.T("session.room.practice"))
	}
	if g.room.Hinted {
		parts = append(parts, t.L.T("session.room.hinted"))
	}
	clock := ""
	if g.board == nil && g.room.Code != "" && !g.room.Over {
		parts = append(parts, g.setupText())
	}
	if g.board != nil {
		if clockText != "" {
			clock = t.Accent.Render(clockText)
		}
		var news string
		switch f, ok := g.board.(kit.Fitted); {
		case g.room.Over && g.room.Ended != "" && !g.board.Over():
			// Ended early: the board still stands at the turn it
			// stopped on ("round 2 · market phase · your turn").
			news = endedText(t.L, g.room.Ended)
		case !ok:
			news = g.board.Header(t, g.seats())
		default:
			// The game's news fits what the room and the clock leave, its
			// names counted rather than cut. The server's name stays only
			// where there is room for it beside the news: a list that had
			// to count names never leaves that much, as one more short
			// name would have taken it.
			rest := joinedWidth(parts[1:]) + 2*dotWidth + kit.Width(clock) // and "", clock
			if clock == "" {
				rest -= dotWidth
			}
			news = f.HeaderIn(t, g.seats(), max(1, w-rest))
			if kit.Width(news) > w-rest-kit.Width(parts[0])-dotWidth {
				parts, branded = parts[1:], false
			}
		}
		parts = append(parts, news)
		if clock != "" {
			parts = append(parts, clock)
		}
	}
	if branded && joinedWidth(parts) > w {
		parts = parts[1:]
	}
	if joinedWidth(parts) > w && parts[0] != room {
		parts[0] = room // the invite gives way to the game's own news
	}
	if over := joinedWidth(parts) - w; over > 0 && clock != "" && len(parts) > 2 {
		// The clock is last and must show: the game's news before it
		// gives way, with a marker ("working: you, bob, ca…").
		news := parts[len(parts)-2]
		parts[len(parts)-2] = ansi.Truncate(news, max(1, kit.Width(news)-over), "…")
	}
	return strings.Join(parts, " · ")
}

// joinedWidth is the width of parts joined with " · ", measured part by
// part rather than joined first: the separator's spaces keep every part's
// characters apart, so the widths add up.
func joinedWidth(parts []string) int {
	n := max(0, len(parts)-1) * dotWidth
	for _, p := range parts {
		n += kit.Width(p)
	}
	return n
}

// dotWidth is the width of the header's separator, " · ".
var dotWidth = kit.Width(" · ")

// roomName is "room CODE" in the reader's language, worded once for the
// screen rather than at every frame.
func (g *gameScreen) roomName(code string) string {
	if g.named[0] != code || g.named[1] == "" {
		g.named = [2]string{code, g.env.theme.L.T("session.room.code", "Code", code)}
	}
	return g.named[1]
}

// setupText names, before the game starts, what is to be played: the
// game, its seats, the options that are not the game's default, the clock.
func (g *gameScreen) setupText() string {
	p := g.env.theme.L
	seats := p.N("session.room.seats", len(g.room.Seats))
	if len(g.room.Seats) == 1 {
		seats = p.T("session.list.solo")
	}
	parts := []string{g.room.Game, seats}
	if game, ok := g.gameOf(); ok {
		parts[0] = gameTitle(p, game)
		parts = append(parts, optionWords(p, game, g.room)...)
	}
	if g.room.ClockSeconds > 0 {
		parts = append(parts, "⏱ "+p.T("session.form.perTurn", "Time", p.Duration(time.Duration(g.room.ClockSeconds)*time.Second)))
	}
	return strings.Join(parts, " · ")
}

// gameOf is the room's game as the lobby registered it.
func (g *gameScreen) gameOf() (lobby.Game, bool) {
	if g.env.lobby == nil { // a screen drawn without a lobby, in tests
		return lobby.Game{}, false
	}
	return g.env.lobby.Game(g.room.Game)
}

// banner is the notice line: trouble with the game service first, then
// the table's countdowns (seats away, clocks run out), then the game's
// own news, then a guest's seat word.
func (g *gameScreen) banner(w int) string {
	t := g.env.theme
	var news string
	if g.board != nil {
		news = g.board.Banner(t, g.seats())
	}
	switch table := g.tableText(w); {
	case g.notice != "":
		return t.Banner.Render("⚠ " + noticeText(t.L, g.notice))
	case g.rematchText() != "":
		return g.rematchText()
	case table != "" && !g.over():
		return t.Bad.Render(table)
	case news != "":
		return news
	}
	return t.Dim.Render(g.seatWordText())
}

// menuView is the move menu, or why there is none. A board asks for it
// twice a frame (to measure it, then to place it), and most frames are
// drawn for keys that leave it as it was: the menu keeps its last two
// drawings while it stays the same (menu.drawn).
func (g *gameScreen) menuView(w, h int) string {
	t := g.env.theme
	m := &g.menu
	k := menuKey{w: w, h: h, styles: t.Styles, lang: t.L, pending: g.pending, armed: g.armed != nil,
		group: m.group, item: m.item, filter: m.filter}
	d := &m.drawn
	if d[0].text != "" && d[0].key == k {
		return d[0].text
	}
	if d[1].text != "" && d[1].key == k {
		return d[1].text
	}
	text := g.drawMenu(w, h)
	d[0], d[1] = menuDrawing{k, text}, d[0]
	return text
}

// drawMenu draws menuView.
func (g *gameScreen) drawMenu(w, h int) string {
	t := g.env.theme
	if len(g.menu.groups) == 0 && g.board != nil {
		return t.Title.Render(t.L.T("session.menu.title")) + "\n" + t.Dim.Render(idleText(g.board.Idle(g.seats()), w, h-1))
	}
	return g.menu.view(t, w, h, g.armed != nil)
}

// idleText fits a board's idle text to the menu's w columns and the h
// lines under its title: a line too wide is wrapped at its spaces, as
// the rest of the screen wraps long text, where the column would cut it
// with "…" at every frame (a done seat read half its sentence). Only
// when even h lines are short is the last one cut. Text that fits is
// returned as it is.
func idleText(s string, w, h int) string {
	fits := strings.Count(s, "\n") < h || h < 1
	for l := range strings.SplitSeq(s, "\n") {
		fits = fits && kit.Width(l) <= w
	}
	if fits || w < 1 {
		return s
	}
	// The wrap is kept for every screen: a done seat's menu is drawn
	// again at every update until the phase ends, in the same few words
	// at every table.
	return idleWraps.Get(idleKey{s, w, h}, func() string { return wrapIdle(s, w, h) })
}

var idleWraps = kit.NewShared[idleKey, string](1024)

type idleKey struct {
	text string
	w, h int
}

// wrapIdle is idleText for text that does not fit.
func wrapIdle(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines)+2)
	for _, l := range lines {
		if kit.Width(l) <= w {
			out = append(out, l)
			continue
		}
		for _, part := range strings.Split(kit.Wrap(strings.TrimRight(l, " "), w), "\n") {
			out = append(out, strings.TrimRight(part, " "))
		}
	}
	if h >= 1 {
		out = atMost(out, w, h)
	}
	return strings.Join(out, "\n")
}

// fittedLogTail draws the last h lines of a log of n entries under a
// title, every line cut or padded to w as kit.FitLines fits them, written
// once rather than drawn and fitted again (the log pane, at every update
// of every screen). It asks for the newest entries only, back to the
// first that does not fit. entry gives entry i wrapped (its lines joined
// by newlines), and whether its lines are exactly w wide already: those
// are copied unmeasured.
func fittedLogTail(t kit.Theme, n int, entry func(i int) (string, bool), w, h int) string {
	if h < 1 {
		return kit.FitLines([]string{""}, w)
	}
	// The entries shown are a pane's lines at most: on the stack, not a
	// slice of their own at every update (a tenth of its CPU).
	var shownIn [64]string
	var fitsIn [64]bool
	title, shown, fits := logTailParts(t, n, entry, h, shownIn[:0], fitsIn[:0])
	size := len(title) + max(w, 0) // the title is padded; entries are wrapped to w
	for _, e := range shown {
		size += 1 + len(e)
	}
	var b strings.Builder
	b.Grow(size)
	kit.WriteLine(&b, title, w)
	for j := len(shown) - 1; j >= 0; j-- {
		if fits != nil && fits[j] {
			b.WriteByte('\n')
			b.WriteString(shown[j]) // its first lines, or all of it
			continue
		}
		for line := range strings.SplitSeq(shown[j], "\n") {
			b.WriteByte('\n')
			kit.WriteLine(&b, line, w)
		}
	}
	return b.String()
}

// logTailParts are fittedLogTail's title and entries, newest first
// (shown[j] is entry n-1-j, or its first lines), and whether each is
// fitted as entry says, appended to shown and fits as given; fits is nil
// where shown is not entries but the line saying there are none.
func logTailParts(t kit.Theme, n int, entry func(i int) (string, bool), h int, shown []string, fits []bool) (string, []string, []bool) {
	// Newest entries last, each whole: an entry that no longer fits is
	// dropped rather than shown from its middle.
	lines := 0
	for i := n - 1; i >= 0; i-- {
		e, fit := entry(i)
		k := strings.Count(e, "\n") + 1
		if lines+k > h-1 {
			if lines == 0 && h > 1 { // the newest alone: its first lines
				shown = append(shown, strings.Join(strings.SplitN(e, "\n", h)[:h-1], "\n"))
				fits = append(fits, fit)
			}
			break
		}
		shown, fits, lines = append(shown, e), append(fits, fit), lines+k
	}
	if len(shown) == 0 {
		shown, fits = append(shown, t.Dim.Render(t.L.T("session.log.empty"))), nil
	}
	return logTitle(t), shown, fits
}

// logTitle is the log pane's title in t.
func logTitle(t kit.Theme) string {
	return themed(t, "log", func() string {
		return t.Title.Render(t.L.T("session.log.pane")) + t.Dim.Render("  "+t.L.T("session.log.paneHint"))
	})
}

// themed is the drawing named what that depends on the theme and the
// language alone (a pane's title), made by draw once for every screen
// rather than at every update of each.
func themed(t kit.Theme, what string, draw func() string) string {
	return themedTexts.Get(themeKey{t.Styles, t.L.Tag(), what}, draw)
}

var themedTexts = kit.NewShared[themeKey, string](256) // themes × languages × a few names

type themeKey struct {
	styles *kit.Styles
	lang   lang.Tag
	what   string
}

// waitingView is the waiting room: the code to share and the seats.
func (g *gameScreen) waitingView(w, h int) string {
	t := g.env.theme
	p := t.L
	taken := 0
	for _, s := range g.room.Seats {
		if !s.Free {
			taken++
		}
	}
	head := p.T("session.wait.private", "Taken", taken, "Seats", len(g.room.Seats))
	if g.room.Public {
		head = p.T("session.wait.public", "Taken", taken, "Seats", len(g.room.Seats))
	}
	lines := []string{t.Title.Render(p.T("session.wait.title")) + "  " + head}
	if g.room.Practice && g.room.Seed != nil {
		practice := strings.TrimRight(kit.Wrap(p.T("session.wait.practice", "Seed", *g.room.Seed), w), " ")
		lines = append(lines, t.Dim.Render(practice))
	}
	if g.room.Over {
		lines[0] = t.Title.Render(p.T("session.wait.closed")) + "  " + endedText(p, g.room.Ended)
	}
	switch {
	case g.room.Public:
		lines = append(lines, "", g.shareLines(p.T("session.wait.shareCode", "Code", t.Accent.Render(g.room.Code)), g.room.Code, false, w), "")
	case g.invite != "":
		lines = append(lines, "", g.shareLines(p.T("session.wait.shareInvite", "Invite", t.Accent.Render(g.invite)), g.invite, true, w), "")
	default:
		lines = append(lines, "", "")
	}
	lines = append(lines, g.seatLines()...)
	// The sentences wrap at w: translations run longer than English.
	say := func(s string) { lines = append(lines, strings.Split(strings.TrimRight(kit.Wrap(s, w), " "), "\n")...) }
	lines = append(lines, "")
	say(p.T("session.wait.starts"))
	switch {
	case g.room.HostAway && g.room.HostSeat == g.seat && g.seat >= 0:
		say(p.T("session.wait.standIn"))
	case g.room.HostAway && g.room.HostSeat >= 0:
		say(p.T("session.wait.standsIn", "Name", g.seats().Name(g.room.HostSeat)))
	case g.room.IsHost(g.env.player.ID):
		say(p.T("session.wait.host"))
	}
	if g.seatWord != "" {
		back := "ssh -t … join " + g.code // the server's address unknown
		if cmd := g.env.joinCommand(g.code); cmd != "" {
			back = cmd
		}
		lines = append(lines, "")
		say(p.T("session.wait.guest", "Grace", p.Duration(time.Duration(g.room.GraceSeconds)*time.Second)))
		lines = append(lines, "  "+back+" "+t.Accent.Render(g.seatWord))
	}
	if g.room.ClockSeconds > 0 {
		say(p.T("session.wait.clock", "Time", p.Duration(time.Duration(g.room.ClockSeconds)*time.Second)))
	}
	if g.spectator() {
		say(p.N("session.wait.watching", g.room.Spectators))
	}
	if g.chat.open {
		// The chat below, with four lines at least: the seats give way.
		ch := max(4, h-len(lines)-1)
		lines = append(lines[:max(0, min(len(lines), h-ch-1))], "")
		return strings.Join(lines, "\n") + "\n" + g.chat.view(t, g.seats(), true, w, ch)
	}
	return strings.Join(lines, "\n")
}

// seatLines are the waiting room's seats: who sits in each, and how.
func (g *gameScreen) seatLines() []string {
	t := g.env.theme
	p := t.L
	var lines []string
	for i, s := range g.room.Seats {
		who := s.Name
		state := p.T("session.wait.connected")
		switch {
		case s.Free:
			who, state = t.Dim.Render(p.T("session.wait.free")), ""
		case s.Bot != "":
			state = p.T("session.wait.bot")
		case !s.Connected:
			state = t.Bad.Render(p.T("session.wait.away"))
		}
		if i == g.seat {
			who += " " + p.T("session.wait.you")
		}
		// The names' column is 24 cells wide in every script.
		lines = append(lines, fmt.Sprintf(" %d  %s%s %s", i+1, who, strings.Repeat(" ", max(0, 24-kit.Width(who))), state))
	}
	return lines
}

// shareLines say how others join: the command to paste, wrapped to w
// rather than cut, and the lobby's way (by the invite, or the code).
func (g *gameScreen) shareLines(say, invite string, byInvite bool, w int) string {
	t := g.env.theme
	cmd := g.env.joinCommand(invite)
	how := t.L.T("session.wait.byCode")
	if byInvite {
		how = t.L.T("session.wait.byInvite")
	}
	if cmd == "" {
		return say + " (" + how + ")."
	}
	return say + ":\n" + lipgloss.NewStyle().Width(w).Render("  "+t.Accent.Render(cmd)) +
		"\n" + t.Dim.Render(t.L.T("session.wait.orLobby", "How", how))
}

// scoresBody is the end of the game: the game's scores, what the game did
// to the players' ratings or records, then the log.
func (g *gameScreen) scoresBody(w, h int) string {
	// The record comes under the scores and the board draws in what is
	// left: a board that fills its height (Furnace's final cards) would
	// push the ratings off the screen.
	rec := recordText(g.env.theme, g.room, g.seat, w)
	bh := h
	if rec != "" {
		bh = max(1, h-lipgloss.Height(rec)-1)
	}
	board := g.board.Scores(g.frame(w, bh))
	if rec != "" {
		board += "\n\n" + rec
	}
	rest := h - lipgloss.Height(board) - 1
	if rest < 3 {
		return board
	}
	return board + "\n\n" + g.logOrChat(w, rest-1)
}
