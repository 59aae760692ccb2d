package session

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// overlay is what covers the board for a while: the keys, the card
// reference, the whole log, the bot picker, the end-of-game question. Each
// is a small model with its own keys; a screen holds at most one, nil
// while the board shows. Drawing one never changes it.
type overlay interface {
	// update takes a key and returns the overlay to show next (nil
	// closes it) and what to do.
	update(k tea.KeyMsg) (overlay, tea.Cmd)
	// resize tells the overlay the size it will be drawn at.
	resize(w, h int)
	view(t kit.Theme, w, h int) string
	// keys are the overlay's keys for the help bar.
	keys() help.KeyMap
}

// helpOverlay lists every key of a screen; any key closes it, but R (or r)
// opens the rules when the screen has them.
type helpOverlay struct {
	title string
	km    help.KeyMap
	note  string
	rules func() overlay // nil where the screen has no rules
	// game says km is the game screen's gameKeySets[set]: the page, its
	// title and note worded from the theme's language, depends then on
	// nothing but set, the theme and the size, and is shared under them
	// fitted to the body (gamePages). Players open it at every turn, and
	// a page's key made from every key's words (pageKey) cost more than
	// the frame.
	game bool
	set  int
	// theme and w×h are the body's as the screen last sized it, and top
	// the first line shown: a page taller than its body (the game's keys
	// and how to play, at 80x24 in Polish) scrolls, a marker saying how
	// much is above and below, rather than losing its end.
	theme kit.Theme
	w, h  int
	top   int
}

// newHelpOverlay is the keys page of a screen drawn by t in a body of
// w×h.
func newHelpOverlay(t kit.Theme, w, h int, title string, km help.KeyMap) *helpOverlay {
	return &helpOverlay{title: title, km: km, theme: t, w: w, h: h}
}

// gamePages are the game screen's key help pages by key set, theme and
// size, fitted, or "" for a page taller than its size (which scrolls):
// a few key sets, themes, languages and terminal sizes.
var gamePages = kit.NewShared[pageOf, string](1024)

// pageOf is the key of a page in gamePages.
type pageOf struct {
	w, h   int
	styles *kit.Styles
	lang   *lang.Printer
	set    int
}

// fittedOverlay is an overlay whose view is exactly w columns by h lines
// (kit.Fit) when fitted says so: the frame copies it unmeasured.
type fittedOverlay interface {
	fitted() bool
}

// fitted implements fittedOverlay: the game's pages are kept fitted.
func (o *helpOverlay) fitted() bool { return o.game }

func (o *helpOverlay) update(k tea.KeyMsg) (overlay, tea.Cmd) {
	if o.rules != nil && key.Matches(k, gameKeyMap.Rules) {
		return o.rules(), nil
	}
	if hidden := o.hidden(); hidden > 0 {
		switch {
		case key.Matches(k, helpScrollKeyMap.Up):
			o.top = max(0, min(o.top, hidden)-o.step(k))
			return o, nil
		case key.Matches(k, helpScrollKeyMap.Down):
			o.top = min(hidden, o.top+o.step(k))
			return o, nil
		}
	}
	return nil, nil
}

// step is how far k scrolls: a line, or a page for pgup and pgdown.
func (o *helpOverlay) step(k tea.KeyMsg) int {
	if k.Type == tea.KeyPgUp || k.Type == tea.KeyPgDown {
		return max(1, o.h-2)
	}
	return 1
}

func (o *helpOverlay) resize(w, h int) { o.w, o.h = w, h }

// keys scroll the page where it is cut; any other key closes it.
func (o *helpOverlay) keys() help.KeyMap {
	if o.hidden() > 0 {
		return helpScrollKeyMap
	}
	return anyKey{}
}

// hidden is how many of the page's lines the body leaves out, with a
// line kept for the marker; 0 when it shows them all.
func (o *helpOverlay) hidden() int {
	if o.theme.L == nil || o.h <= 1 || o.whole(o.theme, o.w, o.h) != "" {
		return 0
	}
	return lipgloss.Height(o.page(o.theme, o.w)) - (o.h - 1)
}

// whole is the page fitted to w×h, "" where it is taller: shared for
// the game's pages (gamePages), which a frame reads without wording the
// page's key.
func (o *helpOverlay) whole(t kit.Theme, w, h int) string {
	draw := func() string {
		page := o.page(t, w)
		if lipgloss.Height(page) > h {
			return ""
		}
		return kit.Fit(page, w, h)
	}
	if o.game {
		return gamePages.Get(pageOf{w: w, h: h, styles: t.Styles, lang: t.L, set: o.set}, draw)
	}
	return draw()
}

func (o *helpOverlay) view(t kit.Theme, w, h int) string {
	if h < 2 {
		if h > 0 {
			return kit.Fit(o.page(t, w), w, h)
		}
		return o.page(t, w)
	}
	if page := o.whole(t, w, h); page != "" {
		return page
	}
	return kit.Fit(scrolled(t, strings.Split(o.page(t, w), "\n"), o.top, h), w, h)
}

// scrolled is h lines of lines from top (as far as it goes), the last a
// marker of the lines above and below.
func scrolled(t kit.Theme, lines []string, top, h int) string {
	top = max(0, min(top, len(lines)-(h-1)))
	shown := slices.Clone(lines[top : top+h-1])
	var marks []string
	if top > 0 {
		marks = append(marks, "↑ "+t.L.N("session.cards.more", top))
	}
	if below := len(lines) - (top + h - 1); below > 0 {
		marks = append(marks, "↓ "+t.L.N("session.cards.more", below))
	}
	return strings.Join(append(shown, t.Dim.Render(strings.Join(marks, " · "))), "\n")
}

// page draws view.
func (o *helpOverlay) page(t kit.Theme, w int) string {
	// The page depends on nothing else, and players open it often: it is
	// drawn once for every session, like the help bars.
	k := pageKey(t, o.km.FullHelp(), w, o.title, "\x01", o.note)
	return helpBars.Get(k, func() string {
		s := keysHelp(t, o.title, o.km, w)
		if o.note != "" {
			s += "\n\n" + t.Dim.Render(lipgloss.NewStyle().Width(w).Render(o.note))
		}
		return s
	})
}

// drawnOverlay is a page the board draws (kit.Yours); any key closes it.
type drawnOverlay struct {
	draw func(t kit.Theme, w, h int) string
}

func (o *drawnOverlay) update(tea.KeyMsg) (overlay, tea.Cmd) { return nil, nil }
func (o *drawnOverlay) resize(int, int)                      {}
func (o *drawnOverlay) keys() help.KeyMap                    { return anyKey{} }
func (o *drawnOverlay) view(t kit.Theme, w, h int) string    { return o.draw(t, w, h) }

// anyKey is the help bar of an overlay that any key closes.
type anyKey struct{}

// Its key is only a name for the help bar (a binding without keys is
// disabled, and the bar would be blank); the overlay closes on any key.
var anyKeyBinding = key.NewBinding(key.WithKeys("any"), key.WithHelp("session.keyname.any", "session.key.close"))

func (anyKey) ShortHelp() []key.Binding  { return []key.Binding{anyKeyBinding} }
func (anyKey) FullHelp() [][]key.Binding { return [][]key.Binding{{anyKeyBinding}} }

// cardsOverlay is the card reference: the selected card's full text above
// the list of every card on the board. The game and replay screens share it.
type cardsOverlay struct {
	cards []kit.CardRef
	sel   int
	text  func(t kit.Theme, c kit.CardRef, w int) string
}

// newCardsOverlay opens the reference at the card with key focus, if any.
func newCardsOverlay(b kit.Board, s kit.Seats, focus string) *cardsOverlay {
	o := &cardsOverlay{cards: b.Cards(s), text: b.CardText}
	for i, c := range o.cards {
		if c.Key == focus {
			o.sel = i
		}
	}
	return o
}

func (o *cardsOverlay) update(k tea.KeyMsg) (overlay, tea.Cmd) {
	km := &overlayKeyMap // not a copy: read only
	switch {
	case key.Matches(k, km.Up):
		o.sel = max(0, o.sel-1)
	case key.Matches(k, km.Down):
		o.sel = min(max(0, len(o.cards)-1), o.sel+1)
	case key.Matches(k, km.Close), key.Matches(k, km.Choose):
		return nil, nil
	}
	return o, nil
}

func (o *cardsOverlay) resize(int, int)   {}
func (o *cardsOverlay) keys() help.KeyMap { return overlayKeyMap }

func (o *cardsOverlay) view(t kit.Theme, w, h int) string {
	w = min(w, 100)
	if len(o.cards) == 0 {
		return t.Title.Render(t.L.T("session.cards.title")) + "\n\n" + t.L.T("session.cards.none")
	}
	sel := min(max(o.sel, 0), len(o.cards)-1)
	top := t.Title.Render(t.L.T("session.cards.title")) + t.Dim.Render(fmt.Sprintf("  %d/%d  ", sel+1, len(o.cards))+t.L.T("session.cards.keys")) +
		"\n\n" + o.text(t, o.cards[sel], w) + "\n"
	rows := h - lipgloss.Height(top)
	if rows < 1 {
		return top
	}
	// A list longer than its rows scrolls with the selection and says
	// how many cards are above and below, each on a row of its own.
	n := len(o.cards)
	start, end := 0, n
	switch {
	case n <= rows || rows < 3:
		end = min(n, rows)
	case sel < rows-1:
		end = rows - 1
	case sel >= n-(rows-1):
		start = n - (rows - 1)
	default:
		start = sel - (rows-2)/2
		end = start + rows - 2
	}
	lines := []string{}
	if start > 0 {
		lines = append(lines, t.Dim.Render("  ↑ "+t.L.N("session.cards.more", start)))
	}
	for i := start; i < end; i++ {
		c := o.cards[i]
		if i == sel {
			lines = append(lines, "▸ "+t.Selected.Render(c.Name)+t.Dim.Render("  "+c.Where))
		} else {
			lines = append(lines, "  "+c.Name+t.Dim.Render("  "+c.Where))
		}
	}
	if end < n {
		lines = append(lines, t.Dim.Render("  ↓ "+t.L.N("session.cards.more", n-end)))
	}
	return top + "\n" + strings.Join(lines, "\n")
}

// logOverlay is the whole game log, newest at the bottom, scrollable.
type logOverlay struct {
	log []string // each line with its speaker coloured
	vp  viewport.Model
}

func newLogOverlay(t kit.Theme, log []string, w, h int) *logOverlay {
	o := &logOverlay{vp: viewport.New(0, 0), log: log}
	o.resize(w, h)
	return o
}

// resize wraps the log to the new width and opens it at the newest entry.
func (o *logOverlay) resize(w, h int) {
	o.vp.Width, o.vp.Height = w, max(1, h-1)
	lines := make([]string, len(o.log))
	for i, l := range o.log {
		lines[i] = kit.Wrap(l, w)
	}
	o.vp.SetContent(strings.Join(lines, "\n"))
	o.vp.GotoBottom()
}

func (o *logOverlay) update(k tea.KeyMsg) (overlay, tea.Cmd) {
	switch {
	case key.Matches(k, overlayKeyMap.Close) || key.Matches(k, overlayKeyMap.Choose):
		return nil, nil
	case k.Type == tea.KeyHome:
		o.vp.GotoTop()
		return o, nil
	case k.Type == tea.KeyEnd:
		o.vp.GotoBottom()
		return o, nil
	}
	var cmd tea.Cmd
	o.vp, cmd = o.vp.Update(k)
	return o, cmd
}

func (o *logOverlay) keys() help.KeyMap { return logKeyMap }

func (o *logOverlay) view(t kit.Theme, _, _ int) string {
	body := o.vp.View()
	if len(o.log) == 0 {
		body = t.Dim.Render(t.L.T("session.log.empty"))
	}
	return t.Title.Render(t.L.T("session.log.title")) + t.Dim.Render("  "+t.L.T("session.log.keys")) + "\n" + body
}

// botChoice is one entry of the host's "seat a bot" picker.
type botChoice struct {
	seat int
	bot  string
	text string
	vote bool // a vote to hand an away player's seat to the bot
}

// botsOverlay is the host's bot picker; enter seats the chosen bot.
type botsOverlay struct {
	choices []botChoice
	sel     int
	seat    func(botChoice) tea.Cmd
}

func (o *botsOverlay) update(k tea.KeyMsg) (overlay, tea.Cmd) {
	km := &overlayKeyMap // not a copy: read only
	switch {
	case key.Matches(k, km.Up):
		o.sel = max(0, o.sel-1)
	case key.Matches(k, km.Down):
		o.sel = min(len(o.choices)-1, o.sel+1)
	case key.Matches(k, km.Choose):
		return nil, o.seat(o.choices[o.sel])
	case key.Matches(k, km.Close):
		return nil, nil
	}
	return o, nil
}

func (o *botsOverlay) resize(int, int)   {}
func (o *botsOverlay) keys() help.KeyMap { return overlayKeyMap }

func (o *botsOverlay) view(t kit.Theme, w, _ int) string {
	lines := []string{t.Title.Render(t.L.T("session.bots.title")), ""}
	for i, c := range o.choices {
		// Each choice whole, wrapped under its text: they run long in
		// some languages.
		for j, l := range kit.WrapHanging("", "", strings.Fields(c.text), " ", max(20, w-2)) {
			switch {
			case i == o.sel && j == 0:
				lines = append(lines, "▸ "+t.Selected.Render(l))
			case i == o.sel:
				lines = append(lines, "  "+t.Selected.Render(l))
			default:
				lines = append(lines, "  "+l)
			}
		}
	}
	return strings.Join(append(lines, "", t.Dim.Render(t.L.T("session.bots.keys"))), "\n")
}

// confirmOverlay asks a yes-or-no question; y does it, any other key not.
type confirmOverlay struct {
	title, text string
	yesLabel    string // "end it"
	noLabel     string // "keep playing"
	yes         tea.Cmd
}

func (o *confirmOverlay) update(k tea.KeyMsg) (overlay, tea.Cmd) {
	if k.String() == "y" {
		return nil, o.yes
	}
	return nil, nil
}

func (o *confirmOverlay) resize(int, int)   {}
func (o *confirmOverlay) keys() help.KeyMap { return confirmKeys{} }

func (o *confirmOverlay) view(t kit.Theme, _, _ int) string {
	return t.Title.Render(o.title) + "\n\n" + o.text + "\n\n" +
		t.Accent.Render("y") + " " + o.yesLabel + "   " + t.Accent.Render(t.L.T("session.keyname.anyOther")) + " " + o.noLabel
}

// confirmKeys is the help bar of a yes-or-no question.
type confirmKeys struct{}

var (
	yesBinding = key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "session.key.yes"))
	noBinding  = key.NewBinding(key.WithKeys(), key.WithHelp("session.keyname.anyOther", "session.key.no"))
)

func (confirmKeys) ShortHelp() []key.Binding  { return []key.Binding{yesBinding, noBinding} }
func (confirmKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{yesBinding, noBinding}} }

// rulesOverlay pages through a game's rules: ←/→ turn the page, ↑/↓
// scroll a page taller than the screen.
type rulesOverlay struct {
	title string // the game's title
	none  string // what shows without pages, in the reader's language
	pages []kit.RulesPage
	page  int
	vp    viewport.Model
}

func newRulesOverlay(t kit.Theme, title string, pages []kit.RulesPage, w, h int) *rulesOverlay {
	o := &rulesOverlay{title: title, none: t.L.T("session.rules.none"), pages: pages, vp: viewport.New(0, 0)}
	o.resize(w, h)
	return o
}

func (o *rulesOverlay) resize(w, h int) {
	o.vp.Width, o.vp.Height = w, max(1, h-2)
	o.show()
}

// show puts the current page in the viewport, wrapped, from its top.
func (o *rulesOverlay) show() {
	text := o.none
	if o.page < len(o.pages) {
		text = o.pages[o.page].Text
	}
	o.vp.SetContent(kit.Wrap(text, o.vp.Width))
	o.vp.GotoTop()
}

func (o *rulesOverlay) update(k tea.KeyMsg) (overlay, tea.Cmd) {
	km := rulesKeyMap
	switch {
	case key.Matches(k, km.Next):
		o.page = min(len(o.pages)-1, o.page+1)
		o.show()
	case key.Matches(k, km.Prev):
		o.page = max(0, o.page-1)
		o.show()
	case key.Matches(k, km.Close):
		return nil, nil
	default:
		var cmd tea.Cmd
		o.vp, cmd = o.vp.Update(k)
		return o, cmd
	}
	return o, nil
}

// keys leave out the scrolling on a page that has nothing to scroll.
func (o *rulesOverlay) keys() help.KeyMap {
	if o.vp.TotalLineCount() <= o.vp.Height {
		return rulesPageKeys{rulesKeyMap}
	}
	return rulesKeyMap
}

func (o *rulesOverlay) view(t kit.Theme, w, _ int) string {
	head := t.Title.Render(t.L.T("session.rules.title")) + "  " + o.title
	if o.page < len(o.pages) {
		head = o.pageHead(t, o.page, o.named(t, w))
	}
	more := ""
	if !o.vp.AtBottom() {
		more = t.Dim.Render(t.L.T("session.rules.more"))
	}
	return head + "\n" + o.vp.View() + "\n" + more
}

// pageHead is page i's header line, with the games' names when named.
func (o *rulesOverlay) pageHead(t kit.Theme, i int, named bool) string {
	page := t.Dim.Render(t.L.T("session.rules.page", "Page", i+1, "Pages", len(o.pages))+" · ") + t.Accent.Render(o.pages[i].Title)
	title := t.Title.Render(t.L.T("session.rules.title"))
	if !named {
		return title + "  " + page
	}
	return title + "  " + o.title + t.Dim.Render(" · ") + page
}

// named reports whether every page's header has room for the games'
// names in w: they give way to the pages' own titles on all pages or on
// none, so the header reads the same as the player turns the pages.
func (o *rulesOverlay) named(t kit.Theme, w int) bool {
	for i := range o.pages {
		if lipgloss.Width(o.pageHead(t, i, true)) > w {
			return false
		}
	}
	return true
}
