package session

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/session/kit"
)

// chatPane is a chat as a screen shows it: a room's (players' and
// spectators' channels) beside the game, or the lobby's under its lists.
// The screen places its lines where the game log would go and its input
// on the status line. While the player types, every key is the pane's:
// none reaches the game.
type chatPane struct {
	env    *env
	open   bool
	typing bool
	input  *textinput.Model // made when first needed (in)
	lines  []store.ChatLine
	// seen is the ID of the newest line shown while the pane was open,
	// or there when the screen opened, for the count of new ones while
	// it is closed; primed is set once the first lines came.
	seen   string
	primed bool
	// hideSpectators hides the spectators' channel (a player's choice).
	hideSpectators bool
	// scroll is how many of the newest messages the view is scrolled up
	// past.
	scroll int
	// sending is set while a message is on its way; queued are those
	// typed meanwhile, sent in turn so they keep their order.
	sending bool
	queued  []string
	// send sends a message (the screen's): set by key.
	send func(text string) tea.Cmd
	// note is the pane's own news under its lines: a refusal, a mute;
	// the status line is the input while the player types.
	note    string
	noteBad bool
	// readOnly marks a replay's chat: read, never typed in.
	readOnly bool
}

// chatSentMsg reports what became of a message sent from pane.
type chatSentMsg struct {
	pane *chatPane
	text string
	err  error
}

func newChatPane(e *env) *chatPane { return &chatPane{env: e} }

// in is the pane's text input, made the first time the pane opens: most
// players never type in a chat, and an input, with its styles and keys,
// is 5 KB a session.
func (c *chatPane) in() *textinput.Model {
	if c.input == nil {
		t := c.env.theme
		in := textinput.New()
		in.Prompt = t.L.T("session.chat.prompt") + " "
		in.Placeholder = t.L.T("session.chat.placeholder")
		in.CharLimit = chat.MaxLength
		in.PromptStyle, in.TextStyle, in.PlaceholderStyle = t.Accent.Style, t.Style(), t.Dim.Style
		in.Cursor.Style = t.Style().Reverse(true)
		in.Cursor.SetMode(cursor.CursorStatic) // no blinking: nothing redraws for it
		in.KeyMap.Paste.SetEnabled(false)      // ctrl+v would read the server's clipboard, not the player's
		c.input = &in
	}
	return c.input
}

// start opens the pane and puts the player in it.
func (c *chatPane) start() tea.Cmd {
	c.open, c.typing, c.scroll = true, true, 0
	c.markSeen()
	in := c.in()
	c.resize()
	return in.Focus()
}

// stop leaves typing; the pane stays open.
func (c *chatPane) stop() {
	c.typing = false
	if c.input != nil {
		c.input.Blur()
	}
}

// close hides the pane.
func (c *chatPane) close() {
	c.stop()
	c.open = false
}

// resize fits the input to the status line.
func (c *chatPane) resize() {
	if c.input == nil {
		return // sized when it is made
	}
	w, _ := c.env.bodySize()
	c.input.Width = max(10, w-lipgloss.Width(c.input.Prompt)-1)
}

// setLines takes in the chat as the room (or the lobby) now has it.
func (c *chatPane) setLines(lines []store.ChatLine) {
	c.lines = lines
	if c.open || !c.primed {
		c.markSeen()
	}
	c.primed = true
}

func (c *chatPane) markSeen() {
	if n := len(c.lines); n > 0 {
		c.seen = c.lines[n-1].ID
	}
}

// unread counts the lines said since the pane was last open, that it
// would show, by others.
func (c *chatPane) unread(me string) int {
	i := slices.IndexFunc(c.lines, func(l store.ChatLine) bool { return l.ID == c.seen })
	n := 0
	for _, l := range c.lines[i+1:] {
		if c.shows(l) && l.Name != me {
			n++
		}
	}
	return n
}

// shows reports whether the pane shows line: not from a muted name, nor
// from the spectators' channel while it is hidden.
func (c *chatPane) shows(l store.ChatLine) bool {
	return !c.env.muted[strings.ToLower(l.Name)] && !(c.hideSpectators && l.Channel == store.ChatSpectators)
}

// key handles a key while the player types. send sends a message and
// returns the command that does. With spectators set, the pane offers to
// hide the spectators' channel.
func (c *chatPane) key(msg tea.KeyMsg, spectators bool, send func(text string) tea.Cmd) tea.Cmd {
	k := chatKeyMap
	switch {
	case key.Matches(msg, k.Stop):
		c.stop()
	case key.Matches(msg, k.Older):
		c.scroll = min(c.scroll+1, max(0, c.count()-1))
	case key.Matches(msg, k.Newer):
		c.scroll = max(0, c.scroll-1)
	case key.Matches(msg, k.Spectators):
		if spectators {
			c.hideSpectators = !c.hideSpectators
			note := c.env.theme.L.T("session.chat.spectatorsShown")
			if c.hideSpectators {
				note = c.env.theme.L.T("session.chat.spectatorsHidden")
			}
			c.setNote(note, false)
		}
	case key.Matches(msg, k.Send):
		return c.enter(send)
	default:
		var cmd tea.Cmd
		in := c.in()
		*in, cmd = in.Update(msg)
		return cmd
	}
	return nil
}

// count is how many messages the pane shows.
func (c *chatPane) count() int {
	n := 0
	for _, l := range c.lines {
		if c.shows(l) {
			n++
		}
	}
	return n
}

func (c *chatPane) setNote(s string, bad bool) { c.note, c.noteBad = s, bad }

// enter sends what was typed, or runs a command.
func (c *chatPane) enter(send func(string) tea.Cmd) tea.Cmd {
	text := strings.TrimSpace(c.in().Value())
	cmd, arg, _ := strings.Cut(text, " ")
	arg = strings.TrimSpace(arg)
	switch {
	case text == "":
		return nil
	case cmd == "/mute" || cmd == "/unmute":
		c.in().Reset()
		c.setNote(c.mute(cmd == "/mute", arg), false)
		return nil
	case cmd == "/me" || strings.HasPrefix(text, "//"):
		text = strings.TrimPrefix(text, "/") // "//x" says "/x"; "/me x" stays
		if cmd == "/me" {
			text = "/" + text
		}
	case strings.HasPrefix(text, "/"):
		c.setNote(c.env.theme.L.T("session.chat.noCommand", "Command", cmd), true)
		return nil
	}
	c.in().Reset()
	c.scroll, c.send = 0, send
	if c.sending {
		c.queued = append(c.queued, text)
		return nil
	}
	c.sending = true
	return send(text)
}

// sent takes in what became of a message, and sends the next one typed
// meanwhile. A refused message comes back to the input, to mend or send
// again later, unless something else is being typed; the ones queued
// after it are dropped with it.
func (c *chatPane) sent(text string, err error) tea.Cmd {
	c.sending = false
	if err != nil {
		c.setNote(errText(c.env.theme, "", err), true)
		if in := c.in(); in.Value() == "" {
			in.SetValue(text)
			in.CursorEnd()
		}
		c.queued = nil
		return nil
	}
	c.setNote("", false)
	if len(c.queued) == 0 {
		return nil
	}
	next := c.queued[0]
	c.queued, c.sending = c.queued[1:], true
	return c.send(next)
}

// mute mutes or unmutes name for the rest of the session, and says so.
func (c *chatPane) mute(on bool, name string) string {
	m, p := c.env.muted, c.env.theme.L
	if name == "" {
		if len(m) == 0 {
			return p.T("session.chat.nobodyMuted")
		}
		var names []string
		for n := range m {
			names = append(names, n)
		}
		slices.Sort(names)
		return p.T("session.chat.muted", "Names", strings.Join(names, ", "))
	}
	low := strings.ToLower(name)
	if on {
		m[low] = true
		return p.T("session.chat.mutes", "Name", name)
	}
	if !m[low] {
		return p.T("session.chat.notMuted", "Name", name)
	}
	delete(m, low)
	return p.T("session.chat.unmuted", "Name", name)
}

// inputView is the status line while the player types.
func (c *chatPane) inputView() string { return c.in().View() }

// view draws the pane in w×h: a title with what the keys do, then the
// newest lines that fit, wrapped, each speaker in their seat's colour.
func (c *chatPane) view(t kit.Theme, s kit.Seats, room bool, w, h int) string {
	if h < 1 {
		return ""
	}
	var shown []string
	hidden := 0
	for _, l := range c.lines {
		if !c.shows(l) {
			hidden++
			continue
		}
		shown = append(shown, lipgloss.NewStyle().Width(w).Render(chatLineText(t, s, l, room)))
	}
	p := t.L
	title := t.Title.Render(p.T("session.chat.title"))
	var hints []string
	switch {
	case c.readOnly:
		hints = append(hints, p.T("session.chat.hintHide"))
	case c.typing:
		hints = append(hints, p.T("session.chat.hintStop"))
	default:
		hints = append(hints, p.T("session.chat.hintType"), p.T("session.chat.hintEscHide"))
	}
	if room && c.hideSpectators {
		hints = append(hints, p.T("session.chat.hiddenSpectators"))
	}
	if hidden > 0 && !(room && c.hideSpectators) {
		hints = append(hints, p.N("session.chat.mutedCount", hidden))
	}
	later := min(c.scroll, max(0, len(shown)-1))
	body := strings.Join(shown[:len(shown)-later], "\n")
	switch {
	case !c.primed && !c.readOnly:
		body = t.Dim.Render(p.T("session.chat.loading"))
	case len(shown) == 0:
		body = t.Dim.Render(p.T("session.chat.empty"))
		if !c.typing && !c.readOnly {
			body = t.Dim.Render(p.T("session.chat.emptyTalk"))
		}
	}
	rows := h - 1
	note := ""
	if c.note != "" && rows > 1 {
		note = t.Dim.Render(c.note)
		if c.noteBad {
			note = t.Bad.Render("✗ " + c.note)
		}
		note = lipgloss.NewStyle().Width(w).Render(note)
		rows -= lipgloss.Height(note)
		note = "\n" + note
	}
	vp := viewport.New(w, max(0, rows))
	vp.SetContent(body)
	vp.GotoBottom()
	switch {
	case vp.YOffset > 0 && c.typing:
		hints = append(hints, "↑ "+p.T("session.chat.older"))
	case vp.YOffset > 0:
		hints = append(hints, p.T("session.chat.olderAbove"))
	}
	if later > 0 {
		hints = append(hints, "↓ "+p.N("session.chat.newer", later))
	}
	title += t.Dim.Render("  " + strings.Join(hints, " · "))
	if h == 1 {
		return title
	}
	return title + "\n" + vp.View() + note
}

// chatLineText words one line: "♥ bob: hi", "* ♥ bob waves", a spectator
// as "(watching) carol: hi", the lobby's as "alice: hi".
func chatLineText(t kit.Theme, s kit.Seats, l store.ChatLine, room bool) string {
	who := l.Name
	switch {
	case !room:
	case l.Channel == store.ChatSpectators || l.Seat == engine.Spectator:
		who = t.Dim.Render(t.L.T("session.chat.watching")+" ") + l.Name
	default:
		who = t.SeatStyle(l.Seat).Render(s.Glyph(l.Seat) + " " + l.Name)
	}
	if l.Me {
		return "* " + who + " " + l.Text
	}
	return who + ": " + l.Text
}
