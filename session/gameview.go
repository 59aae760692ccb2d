package session

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// view draws the room: header, banner, body, status line and help bar.
func (g *gameScreen) view(w, h int) string {
	t := g.env.theme
	bh := h - 4
	var body string
	switch {
	case g.conn == nil || g.room.Code == "":
		// Connected but no update yet: an empty waiting room would read
		// "0 of 0 seats taken" for a frame.
		body = "joining room " + g.code + "…"
		if g.watch {
			body = "opening room " + g.code + " to watch…"
		}
	case g.overlay != nil:
		body = g.overlay.view(t, w, bh)
	case g.board == nil:
		body = g.waitingView(w, bh) // also a room closed before it started
	case g.over():
		body = g.scoresBody(w, bh)
	default:
		body = g.board.Draw(g.frame(w, bh))
	}
	status := ""
	switch {
	case g.chat.typing:
		status = g.chat.inputView()
	case g.filtering && g.statusBad && g.status != "":
		status = "search moves: " + g.menu.filter + "▏  " + t.Bad.Render("✗ "+g.status) // enter's answer
	case g.filtering:
		status = "search moves: " + g.menu.filter + "▏" + t.Dim.Render("  (esc clears, enter plays)")
	case g.status != "" && g.statusBad:
		status = t.Bad.Render("✗ " + g.status)
	case g.status != "" && (g.noteRound == 0 || g.unreadText() == ""):
		status = t.Dim.Render(g.status)
	case g.unreadText() != "":
		status = t.Accent.Render(g.unreadText()) // before a note of a move played
	}
	km := g.keys()
	switch {
	case g.chat.typing:
		km = g.chatKeys()
	case g.overlay != nil:
		km = g.overlay.keys()
	}
	return kit.Rows(w, []int{1, 1, bh, 1, 1}, g.header(w), g.banner(w), body, status, helpBar(t, km, w))
}

// keys are the screen's keys now: moves for a seat in play, the rest for
// spectators, the waiting room and a finished game.
func (g *gameScreen) keys() help.KeyMap {
	if g.over() && !g.spectator() {
		return gameKeySets.over
	}
	if g.board == nil && !g.room.Over {
		return waitingKeys{gameKeyMap}
	}
	if g.spectator() || g.board == nil || g.over() {
		return gameKeySets.watch
	}
	if g.menu.offersUndo() {
		return gameKeySets.undo
	}
	return gameKeySets.play
}

// gameKeySets are the screen's key maps, made into help.KeyMaps once:
// each frame asks for one, and boxing the key map copies every binding.
var gameKeySets = struct{ play, undo, watch, over help.KeyMap }{
	gameKeyMap, undoKeys{gameKeyMap}, watchKeys{gameKeyMap}, overKeys{gameKeyMap},
}

// frame is what the board draws into: its size, the seats, and the menu
// and log widgets for it to place.
func (g *gameScreen) frame(w, h int) kit.Frame {
	f := kit.Frame{Theme: g.env.theme, Seats: g.seats(), Width: w, Height: h, Ended: g.room.Ended,
		Log: g.logOrChat}
	if !g.spectator() {
		f.Menu = g.menuView
		if grp, ok := g.menu.selectedGroup(); ok {
			f.Focus = grp.Card
		}
	}
	return f
}

// header names the room and says what is happening in the game, with the
// turn's clock last; the name of the server gives way when w is short.
func (g *gameScreen) header(w int) string {
	t := g.env.theme
	parts := []string{t.Title.Render("smokestack"), "room " + g.code}
	if g.spectator() && g.conn != nil {
		if g.invite != "" {
			// Came in with a private room's invite: the code alone would
			// not let them back in.
			parts[1] = "room " + g.invite
		}
		parts = append(parts, "watching")
	}
	if g.room.Practice {
		parts = append(parts, "practice")
	}
	clock := ""
	if g.board == nil && g.room.Code != "" && !g.room.Over {
		parts = append(parts, g.setupText())
	}
	if g.board != nil {
		parts = append(parts, g.board.Header(t, g.seats()))
		if c := g.clockText(); c != "" && !g.over() {
			clock = t.Accent.Render(c)
			parts = append(parts, clock)
		}
	}
	if lipgloss.Width(strings.Join(parts, " · ")) > w {
		parts = parts[1:]
	}
	if lipgloss.Width(strings.Join(parts, " · ")) > w && parts[0] != "room "+g.code {
		parts[0] = "room " + g.code // the invite gives way to the game's own news
	}
	if over := lipgloss.Width(strings.Join(parts, " · ")) - w; over > 0 && clock != "" && len(parts) > 2 {
		// The clock is last and must show: the game's news before it
		// gives way, with a marker ("working: you, bob, ca…").
		news := parts[len(parts)-2]
		parts[len(parts)-2] = ansi.Truncate(news, max(1, kit.Width(news)-over), "…")
	}
	return strings.Join(parts, " · ")
}

// setupText names, before the game starts, what is to be played: the
// game, its seats, the options that are not the game's default, the clock.
func (g *gameScreen) setupText() string {
	seats := fmt.Sprintf("%d seats", len(g.room.Seats))
	if len(g.room.Seats) == 1 {
		seats = "solo"
	}
	parts := []string{g.room.Game, seats}
	if game, ok := g.gameOf(); ok {
		parts[0] = game.Rules.Title()
		parts = append(parts, optionWords(game, g.room)...)
	}
	if g.room.ClockSeconds > 0 {
		parts = append(parts, "⏱ "+lobby.ShortDuration(time.Duration(g.room.ClockSeconds)*time.Second)+" a turn")
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
		return t.Banner.Render("⚠ " + g.notice)
	case g.rematchText() != "":
		return g.rematchText()
	case table != "" && !g.over():
		return t.Bad.Render(table)
	case news != "":
		return news
	}
	return t.Dim.Render(g.seatWordText())
}

// menuView is the move menu, or why there is none.
func (g *gameScreen) menuView(w, h int) string {
	t := g.env.theme
	if len(g.menu.groups) == 0 && g.board != nil {
		return t.Title.Render("MOVES") + "\n" + t.Dim.Render(g.board.Idle(g.seats()))
	}
	if g.pending {
		return t.Title.Render("MOVES") + "\n" + t.Dim.Render("sending…")
	}
	return g.menu.view(t, w, h, g.armed != nil)
}

// logTail draws the last h lines of log (logWords' lines, each speaker in
// their colour), wrapped to w, under a title.
func logTail(t kit.Theme, s kit.Seats, log []string, w, h int) string {
	return logTailWith(t, s, log, w, h, nil)
}

// logTailWith is logTail taking each entry's wrapped lines from wraps,
// which keeps them from one update to the next.
func logTailWith(t kit.Theme, s kit.Seats, log []string, w, h int, wraps *logWraps) string {
	if h < 1 {
		return ""
	}
	wrap := func(entry string) []string {
		return strings.Split(kit.Wrap(entry, w), "\n")
	}
	if wraps != nil {
		wrap = wraps.start(t, s, w, wrap)
		defer wraps.done()
	}
	lines := []string{t.Title.Render("LOG") + t.Dim.Render("  (g: whole log)")}
	// Newest entries last, each whole: an entry that no longer fits is
	// dropped rather than shown from its middle.
	var entries []string
	for i := len(log) - 1; i >= 0; i-- {
		wrapped := wrap(log[i])
		if len(entries)+len(wrapped) > h-1 {
			if len(entries) == 0 {
				entries = wrapped[:max(0, h-1)]
			}
			break
		}
		entries = append(wrapped, entries...)
	}
	if len(entries) == 0 {
		entries = []string{t.Dim.Render("nothing has happened yet")}
	}
	return strings.Join(append(lines, entries...), "\n")
}

// waitingView is the waiting room: the code to share and the seats.
func (g *gameScreen) waitingView(w, h int) string {
	t := g.env.theme
	vis := "private"
	if g.room.Public {
		vis = "public"
	}
	taken := 0
	for _, s := range g.room.Seats {
		if !s.Free {
			taken++
		}
	}
	lines := []string{t.Title.Render("WAITING ROOM") + fmt.Sprintf("  %s room · %d of %d seats taken", vis, taken, len(g.room.Seats))}
	if g.room.Practice && g.room.Seed != nil {
		lines = append(lines, t.Dim.Render(fmt.Sprintf("practice · seed %d chosen · counts for no records or ratings", *g.room.Seed)))
	}
	if g.room.Over {
		lines[0] = t.Title.Render("ROOM CLOSED") + "  " + g.room.Ended
	}
	switch {
	case g.room.Public:
		lines = append(lines, "", g.shareLines("Share the code "+t.Accent.Render(g.room.Code)+" so others can join", g.room.Code, "code", w), "")
	case g.invite != "":
		lines = append(lines, "", g.shareLines("Share the invite "+t.Accent.Render(g.invite)+" so friends can join", g.invite, "invite", w), "")
	default:
		lines = append(lines, "", "")
	}
	for i, s := range g.room.Seats {
		who := s.Name
		state := "connected"
		switch {
		case s.Free:
			who, state = t.Dim.Render("free"), ""
		case s.Bot != "":
			state = "bot"
		case !s.Connected:
			state = t.Bad.Render("away")
		}
		if i == g.seat {
			who += " (you)"
		}
		lines = append(lines, fmt.Sprintf(" %d  %-24s %s", i+1, who, state))
	}
	lines = append(lines, "", "The game starts when every seat is taken.")
	switch {
	case g.room.HostAway && g.room.HostSeat == g.seat && g.seat >= 0:
		lines = append(lines, "The host is away, so you stand in: b seats bots, E closes the room.")
	case g.room.HostAway && g.room.HostSeat >= 0:
		lines = append(lines, fmt.Sprintf("The host is away: %s stands in.", g.seats().Name(g.room.HostSeat)))
	case g.room.IsHost(g.env.player.ID):
		lines = append(lines, "You are the host: b seats a bot in a free seat, E closes the room.")
	}
	if g.seatWord != "" {
		back := "ssh -t … join " + g.code // the server's address unknown
		if cmd := g.env.joinCommand(g.code); cmd != "" {
			back = cmd
		}
		lines = append(lines, "", "You are a guest: if you drop, come back within "+lobby.ShortDuration(time.Duration(g.room.GraceSeconds)*time.Second)+
			" from here with", "  "+back+" "+t.Accent.Render(g.seatWord))
	}
	if g.room.ClockSeconds > 0 {
		lines = append(lines, fmt.Sprintf("Each turn has %s on the clock; when it runs out the bot plays that turn.",
			lobby.ShortDuration(time.Duration(g.room.ClockSeconds)*time.Second)))
	}
	if g.spectator() {
		lines = append(lines, fmt.Sprintf("You are watching (%d watching).", g.room.Spectators))
	}
	if g.chat.open {
		// The chat below, with four lines at least: the seats give way.
		ch := max(4, h-len(lines)-1)
		lines = append(lines[:max(0, min(len(lines), h-ch-1))], "")
		return strings.Join(lines, "\n") + "\n" + g.chat.view(t, g.seats(), true, w, ch)
	}
	return strings.Join(lines, "\n")
}

// shareLines say how others join: the command to paste, wrapped to w
// rather than cut, and the lobby's way.
func (g *gameScreen) shareLines(say, invite, what string, w int) string {
	t := g.env.theme
	cmd := g.env.joinCommand(invite)
	if cmd == "" {
		return say + " (in the lobby: c, then the " + what + ")."
	}
	return say + ":\n" + lipgloss.NewStyle().Width(w).Render("  "+t.Accent.Render(cmd)) +
		"\n" + t.Dim.Render("or in the lobby: c, then the "+what+".")
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
