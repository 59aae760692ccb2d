package session

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/engine/factories"
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
	case g.overlay != noOverlay:
		body = g.overlayView(w, bh)
	case g.game == nil && g.over():
		body = g.waitingView(w, bh) // ended before it started
	case g.game == nil:
		body = g.waitingView(w, bh)
	case g.over():
		body = g.scoresBody(w, bh)
	case g.spectator():
		body = g.spectatorBody(w, bh)
	default:
		body = g.boardBody(w, bh)
	}
	status := ""
	switch {
	case g.filtering:
		status = "search moves: " + g.menu.filter + "▏" + t.Dim.Render("  (esc clears, enter plays)")
	case g.status != "" && g.statusBad:
		status = t.Bad.Render("✗ " + g.status)
	case g.status != "":
		status = t.Dim.Render(g.status)
	}
	var km help.KeyMap = gameKeyMap
	if g.spectator() || g.game == nil || g.over() {
		km = watchKeys{gameKeyMap}
	}
	if g.overlay != noOverlay {
		km = overlayKeyMap
	}
	return strings.Join([]string{
		fit(g.header(), w, 1),
		fit(g.banner(), w, 1),
		fit(body, w, bh),
		fit(status, w, 1),
		fit(helpBar(t, km, w), w, 1),
	}, "\n")
}

// header names the room and says what is happening in the game.
func (g *gameScreen) header() string {
	t := g.env.theme
	parts := []string{t.Title.Render("smokestack"), "room " + g.code}
	if g.spectator() && g.conn != nil {
		parts = append(parts, "watching")
	}
	v := g.game
	if v == nil {
		return strings.Join(parts, " · ")
	}
	if v.Phase == factories.GameOver {
		return strings.Join(append(parts, fmt.Sprintf("round %d", v.Round), "game over"), " · ")
	}
	round := fmt.Sprintf("round %d", v.Round)
	if v.FinalRound > 0 {
		round += fmt.Sprintf(" of %d", v.FinalRound)
	}
	parts = append(parts, round)
	names := g.names()
	switch v.Phase {
	case factories.MarketPhase:
		turn := playerName(names, v.Turn) + "'s turn"
		if v.Turn == g.seat {
			turn = t.Accent.Render("your turn")
		}
		parts = append(parts, "market phase", turn)
	case factories.WorkPhase:
		var waiting []string
		for _, p := range v.Players {
			if !p.Done && p.Seat != g.seat {
				waiting = append(waiting, playerName(names, p.Seat))
			}
		}
		s := "work phase"
		if !g.spectator() && !v.You().Done {
			s += " · " + t.Accent.Render("you are working")
		}
		if len(waiting) > 0 {
			s += " · working: " + strings.Join(waiting, ", ")
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " · ")
}

// banner is the notice line: trouble with the game service first, then
// seats whose players have gone, then the end of the game coming.
func (g *gameScreen) banner() string {
	t := g.env.theme
	switch {
	case g.notice != "":
		return t.Banner.Render("⚠ " + g.notice)
	case g.awayText() != "":
		return t.Bad.Render("⏸ " + g.awayText())
	case g.game != nil && g.game.EndCause != "" && g.game.Phase != factories.GameOver:
		return t.Accent.Render("the end is near: " + g.game.EndCause)
	}
	return ""
}

// boardBody is the seated player's board: marketplace and their own area on
// the left, the other seats, the move menu and the log on the right (in a
// third column on wide terminals).
func (g *gameScreen) boardBody(w, h int) string {
	t, v, names := g.env.theme, g.game, g.names()
	if w >= 150 {
		lw := w * 40 / 100
		mw := (w - lw - 2) / 2
		rw := w - lw - mw - 2
		left := g.withPreview(marketView(t, v, lw)+"\n\n"+youView(t, v, names, lw), lw, h)
		mid := othersView(t, v, names, mw, h)
		logH := max(3, h/3)
		right := fit(g.menuView(rw, h-logH-1), rw, h-logH-1) + "\n\n" + g.logTail(rw, logH-1)
		return columns(h, []int{lw, mw, rw}, left, mid, right)
	}
	lw := w * 52 / 100
	rw := w - lw - 1
	left := g.withPreview(marketView(t, v, lw)+"\n"+youView(t, v, names, lw), lw, h)
	others := othersView(t, v, names, rw, h/2)
	oh := min(lipgloss.Height(others), h/2)
	logH := 2
	if h >= 30 {
		logH = max(3, h/5)
	}
	menuH := max(2, h-oh-logH-2)
	right := fit(others, rw, oh) + "\n\n" + fit(g.menuView(rw, menuH), rw, menuH) + "\n" + g.logTail(rw, logH)
	return columns(h, []int{lw, rw}, left, right)
}

// withPreview adds the full text of the card the menu is on below block,
// when the column has room for it.
func (g *gameScreen) withPreview(block string, w, h int) string {
	grp, ok := g.menu.selectedGroup()
	if !ok || !grp.card.ok {
		return block
	}
	preview := cardText(g.env.theme, grp.card, w)
	preview = preview[:strings.LastIndex(preview, "\n")] // not "on the board"
	if lipgloss.Height(block)+lipgloss.Height(preview)+1 > h {
		return block
	}
	return block + "\n\n" + preview
}

// spectatorBody is the public board.
func (g *gameScreen) spectatorBody(w, h int) string {
	return publicBody(g.env.theme, g.game, g.names(), g.log, w, h)
}

// publicBody is the board as a spectator sees it: marketplace and log on
// the left, every seat on the right. Replays draw it too.
func publicBody(t Theme, v *factories.View, names, log []string, w, h int) string {
	lw := w * 48 / 100
	rw := w - lw - 1
	market := marketView(t, v, lw)
	left := market + "\n\n" + logTail(t, log, lw, max(2, h-lipgloss.Height(market)-2))
	return columns(h, []int{lw, rw}, left, othersView(t, v, names, rw, h))
}

// menuView is the move menu, or why there is none.
func (g *gameScreen) menuView(w, h int) string {
	t := g.env.theme
	if len(g.menu.groups) == 0 && g.game != nil {
		why := "nothing to do right now"
		switch {
		case g.game.Phase == factories.MarketPhase && g.game.Turn != g.seat:
			why = "waiting for " + playerName(g.names(), g.game.Turn) + " to choose"
		case g.game.Phase == factories.WorkPhase && g.game.You().Done:
			why = "you are done: waiting for the others to finish working"
		}
		return t.Title.Render("MOVES") + "\n" + t.Dim.Render(why)
	}
	if g.pending {
		return t.Title.Render("MOVES") + "\n" + t.Dim.Render("sending…")
	}
	return g.menu.view(t, w, h)
}

// logTail is the last h lines of the game log.
func (g *gameScreen) logTail(w, h int) string { return logTail(g.env.theme, g.log, w, h) }

// logTail draws the last h lines of log, wrapped to w, under a title.
func logTail(t Theme, log []string, w, h int) string {
	if h < 1 {
		return ""
	}
	lines := []string{t.Title.Render("LOG") + t.Dim.Render("  (g: whole log)")}
	// Newest entries last, each whole: an entry that no longer fits is
	// dropped rather than shown from its middle.
	var entries []string
	for i := len(log) - 1; i >= 0; i-- {
		wrapped := strings.Split(lipgloss.NewStyle().Width(w).Render(log[i]), "\n")
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
	if g.room.Over {
		lines[0] = t.Title.Render("ROOM CLOSED") + "  " + g.room.Ended
	}
	lines = append(lines, "", "Share the code "+t.Accent.Render(g.room.Code)+" so others can join (lobby: c, or ssh -t … join "+g.room.Code+").", "")
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
	if g.room.IsHost(g.env.player.ID) {
		lines = append(lines, "You are the host: b seats a bot in a free seat, E closes the room.")
	}
	if g.spectator() {
		lines = append(lines, fmt.Sprintf("You are watching (%d watching).", g.room.Spectators))
	}
	return strings.Join(lines, "\n")
}

// scoresBody is the end of the game: scores with a bar chart, then the log.
func (g *gameScreen) scoresBody(w, h int) string {
	board := scoresView(g.env.theme, g.game, g.names(), g.seat, g.room.Ended, w)
	rest := h - lipgloss.Height(board) - 1
	if rest < 3 {
		return board
	}
	return board + "\n\n" + g.logTail(w, rest-1)
}

// scoresView draws final scores as a bar chart and names the winner.
func scoresView(t Theme, v *factories.View, names []string, viewer int, ended string, w int) string {
	lines := []string{t.Title.Render("GAME OVER")}
	if ended != "" {
		lines[0] += "  " + ended
	} else if v != nil && v.EndCause != "" {
		lines[0] += "  " + v.EndCause
	}
	if v == nil || len(v.Scores) == 0 {
		return strings.Join(append(lines, "", "no scores: the game stopped early"), "\n")
	}
	scores := slices.Clone(v.Scores)
	slices.SortStableFunc(scores, func(a, b factories.Score) int { return a.Rank - b.Rank })
	best := 1
	nameW := 6
	for _, s := range scores {
		best = max(best, s.Total)
		nameW = max(nameW, len([]rune(scoreName(names, s, viewer))))
	}
	nameW = min(nameW, 20)
	var winners []string
	for _, s := range scores {
		if s.Winner {
			winners = append(winners, scoreName(names, s, viewer))
		}
	}
	verb := "wins"
	if len(winners) > 1 {
		verb = "share the win"
	} else if len(winners) == 1 && winners[0] == "You" {
		verb = "win"
	}
	lines = append(lines, t.Good.Render("★ "+strings.Join(winners, " and ")+" "+verb+"!"), "")
	long := w >= 100 // room for the tie-breakers
	detail := func(s factories.Score) string {
		d := fmt.Sprintf("%3d  goods %d + prestige %d", s.Total, s.Goods, s.Prestige)
		if !s.Machine && long {
			d += fmt.Sprintf("  (metal %d, energy %d, hand %d)", s.Metal, s.Energy, s.Hand)
		}
		return d
	}
	detailW := 0
	for _, s := range scores {
		detailW = max(detailW, len(detail(s)))
	}
	barW := max(10, min(60, w-nameW-detailW-6))
	for _, s := range scores {
		n := s.Total * barW / best
		bar := t.Bar.Render(strings.Repeat("█", n)) + strings.Repeat("·", barW-n)
		name := scoreName(names, s, viewer)
		lines = append(lines, fmt.Sprintf("%d. %-*s %s %s", s.Rank, nameW, trimTo(name, nameW), bar, detail(s)))
	}
	return strings.Join(lines, "\n")
}

func scoreName(names []string, s factories.Score, viewer int) string {
	if s.Machine {
		return "The Machine"
	}
	if s.Seat == viewer {
		return "You"
	}
	return playerName(names, s.Seat)
}

func trimTo(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// overlayView draws whatever covers the board.
func (g *gameScreen) overlayView(w, h int) string {
	t := g.env.theme
	switch g.overlay {
	case helpOverlayOn:
		var km help.KeyMap = gameKeyMap
		if g.spectator() {
			km = watchKeys{gameKeyMap}
		}
		return helpOverlay(t, "KEYS", km, w) + "\n\n" + t.Dim.Render(
			"Pick a card or action with ←/→ (tab), a move for it with ↑/↓, and play it with enter.\n"+
				"Only legal moves are listed. / searches every move by name.")
	case cardOverlayOn:
		return cardOverlay(t, g.cards, g.cardSel, min(w, 100), h)
	case logOverlayOn:
		g.logView.Width, g.logView.Height = w, h-1
		return t.Title.Render("GAME LOG") + t.Dim.Render("  ↑/↓ scroll · esc close") + "\n" + g.logView.View()
	case botOverlayOn:
		lines := []string{t.Title.Render("SEAT A BOT"), ""}
		for i, c := range g.bots {
			if i == g.botSel {
				lines = append(lines, "▸ "+t.Selected.Render(c.text))
			} else {
				lines = append(lines, "  "+c.text)
			}
		}
		return strings.Join(append(lines, "", t.Dim.Render("enter seats the bot · esc cancels")), "\n")
	case endOverlayOn:
		return t.Title.Render("END THE GAME?") + "\n\nThe game stops for everyone and cannot be resumed.\n\n" +
			t.Accent.Render("y") + " end it   " + t.Accent.Render("any other key") + " keep playing"
	}
	return ""
}
