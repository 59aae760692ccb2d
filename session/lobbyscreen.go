package session

import (
	"context"
	"github.com/charmbracelet/x/ansi"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/session/kit"
)

// lobbyScreen lists the open public rooms and the player's own games, and
// creates, joins and watches rooms.
type lobbyScreen struct {
	env   *env
	lists [listCount][]lobby.RoomInfo // open seats, games in play, the player's games (roomlist.go)
	rows  listed                      // the lists worded for drawing
	focus int                         // the list the keys move in
	sel   [listCount]int
	ready bool // the lists have been read once
	// landing is set on the session's first lobby screen until its lists
	// are read: it takes a returning player to their seat (landing.go).
	landing bool
	// from is the room the player just left, until the lists are read:
	// the cursor starts on it (landing.go).
	from string
	live liveLists

	status    string
	statusBad bool
	showHelp  bool
	// heading is the first line as last drawn (head).
	heading struct {
		name, text string
		w          int
	}

	form   *roomForm
	prompt *prompt
	rules  *rulesOverlay // the games' rules, while open

	// The lobby's chat (lobbychat.go): the pane, the feed it follows
	// once opened, and done, closed when the screen closes.
	chat     *chatPane
	feed     *chat.Feed
	chatTold *poster // with Config.Post: what the feed tells of new lines
	done     chan struct{}
}

// prompt is a one-line question: a room code or a new name.
type prompt struct {
	kind  string // "join", "watch", "name"
	input textinput.Model
}

type (
	roomsMsg struct {
		lists [listCount][]lobby.RoomInfo
		rows  listed
		err   error
	}
	createdMsg struct {
		code string
		err  error
	}
	renamedMsg struct {
		name string
		err  error
	}
)

func newLobbyScreen(e *env, status string) *lobbyScreen {
	return &lobbyScreen{env: e, status: status, statusBad: status != "", chat: newChatPane(e), done: make(chan struct{})}
}

func (l *lobbyScreen) init() tea.Cmd { return tea.Batch(l.refresh(), l.follow(), l.followChat()) }

func (l *lobbyScreen) close() {
	l.closeChat()
	if l.live.stop != nil {
		l.live.stop()
	}
}

// refresh reads the room lists. The public rooms come from a read begun
// now or later, shared with the other lobby screens asking meanwhile.
func (l *lobbyScreen) refresh() tea.Cmd {
	e, me := l.env, l.env.player.ID
	now := time.Now()
	l.live.loading, l.live.dirty, l.live.last = true, false, now
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, moveTimeout)
		defer cancel()
		rooms, err := e.lobby.PublicRooms(ctx, now)
		if err != nil {
			return roomsMsg{err: err}
		}
		hist, err := e.lobby.History(ctx, me)
		if err != nil {
			return roomsMsg{err: err}
		}
		var open, done []lobby.RoomInfo
		for _, r := range hist {
			if r.Over {
				done = append(done, r)
			} else {
				open = append(open, r)
			}
		}
		p := e.theme.L
		lists, rows := wordLists(e.lobby, p, me, sharedPublic(e.lobby, p, rooms), append(open, done...))
		lists[listPlay], rows.cells[listPlay] = notMine(me, lists[listPlay], rows.cells[listPlay])
		return roomsMsg{lists: lists, rows: rows}
	}
}

// resultText words a finished game's result for player's list: "you won
// with 31", "won by bob with 28", "lost 24 to 27" (to the game's own
// opponent), or "finished" when the game stopped early; in p's language.
func resultText(p *lang.Printer, r lobby.RoomInfo, player string) string {
	res := r.Result
	if res == nil || len(res.Scores) == 0 {
		return p.T("session.list.finished")
	}
	me := r.SeatOf(player)
	switch {
	case res.Won(me):
		if len(res.Winners) > 1 {
			return p.T("session.list.sharedWin", "Score", res.Scores[me])
		}
		return p.T("session.list.won", "Score", res.Scores[me])
	case len(res.Winners) == 0 && res.Opponent != nil && me >= 0:
		return p.T("session.list.lost", "Score", res.Scores[me], "Opponent", *res.Opponent)
	case len(res.Winners) > 0:
		w := res.Winners[0]
		return p.T("session.list.wonBy", "Name", SeatName(p, r, w), "Score", res.Scores[w])
	}
	return p.T("session.list.finished")
}

func (l *lobbyScreen) update(msg tea.Msg) (screen, tea.Cmd) {
	if cmd, ok := l.chatUpdate(msg); ok {
		return l, cmd
	}
	if cmd, ok := l.liveUpdate(msg); ok {
		return l, cmd
	}
	switch msg := msg.(type) {
	case roomsMsg:
		if msg.err != nil {
			l.live.loading = false
			l.setStatus(errText(l.env.theme, "", msg.err), true)
			return l, nil
		}
		cmd := l.loaded(msg.lists, msg.rows)
		l.cameFrom()
		if land := l.land(); land != nil {
			return l, land
		}
		return l, cmd
	case createdMsg:
		if msg.err != nil {
			l.setStatus(errText(l.env.theme, "", msg.err), true)
			return l, nil
		}
		code := msg.code
		return l, func() tea.Msg { return toRoom{code: code} }
	case renamedMsg:
		if msg.err != nil {
			l.setStatus(errText(l.env.theme, "", msg.err), true)
			return l, nil
		}
		l.env.player.Name = msg.name
		l.setStatus(l.env.theme.L.T("session.lobby.renamed", "Name", msg.name), false)
	case tea.WindowSizeMsg:
		if l.rules != nil {
			l.rules.resize(l.env.bodySize())
		}
		l.chat.resize()
	case tea.KeyMsg:
		if !l.covered() && key.Matches(msg, l.keys().Lang) {
			return l.pickLang(), nil
		}
		return l, l.key(msg)
	}
	return l, nil
}

func (l *lobbyScreen) setStatus(s string, bad bool) { l.status, l.statusBad = s, bad }

// key hands a key to the screen's top layer (input.go).
func (l *lobbyScreen) key(msg tea.KeyMsg) tea.Cmd { return route(l.top(), msg) }

// top is the layer that takes keys now: the chat's input, the form, a
// prompt, the rules, the key page; else the lists, where esc hides the
// chat, and at the bottom says how to leave.
func (l *lobbyScreen) top() layer {
	switch {
	case l.chat.typing:
		return layer{key: func(k tea.KeyMsg) tea.Cmd { return l.chat.key(k, false, l.sayLobby) }, esc: l.chat.stop}
	case l.form != nil:
		return layer{key: l.formKey, esc: l.closeForm}
	case l.prompt != nil:
		return layer{key: l.promptKey, esc: func() { l.prompt = nil }}
	case l.rules != nil:
		return overlayLayer(l.rules, func(o overlay) {
			if o == nil {
				l.rules = nil
			}
		})
	case l.showHelp:
		return layer{key: func(k tea.KeyMsg) tea.Cmd {
			l.showHelp = false // any key closes the page; R opens the rules
			if key.Matches(k, lobbyKeyMap.Rules) {
				l.openRules()
			}
			return nil
		}, esc: func() { l.showHelp = false }}
	case l.chat.open:
		return layer{key: l.listKey, esc: l.chat.close}
	}
	return layer{key: l.listKey, esc: func() { l.setStatus(l.env.theme.L.T("session.lobby.escLeaves"), false) }}
}

// listKey is a key pressed over the lists.
func (l *lobbyScreen) listKey(msg tea.KeyMsg) tea.Cmd {
	k := l.keys()
	switch {
	case key.Matches(msg, k.Quit):
		return func() tea.Msg { return quitMsg{} }
	case key.Matches(msg, k.Chat):
		return l.chat.start()
	case key.Matches(msg, k.Help):
		l.showHelp = true
	case key.Matches(msg, k.Rules):
		l.openRules()
	case key.Matches(msg, k.Bell):
		l.setStatus(l.env.alerts.toggle(l.env.theme.L), false)
		return nil
	case key.Matches(msg, k.Up):
		l.step(-1)
	case key.Matches(msg, k.Down):
		l.step(1)
	case key.Matches(msg, k.Switch):
		step := 1
		if msg.String() == "shift+tab" {
			step = listCount - 1
		}
		l.focus = (l.focus + step) % listCount
	case key.Matches(msg, k.Refresh):
		l.setStatus("", false)
		return l.refresh()
	case key.Matches(msg, k.Open):
		return l.open()
	case key.Matches(msg, k.Watch):
		if r, ok := l.selected(); ok {
			return func() tea.Msg { return toRoom{code: r.Code, watch: true} }
		}
		l.prompt = newPrompt("watch", l.env.theme.L.T("session.lobby.watchWhat"))
		l.setStatus("", false) // what it said was about the lists
	case key.Matches(msg, k.New):
		l.form = newRoomForm(l.env.lobby.Games(), l.env.theme.L)
		l.setStatus("", false)
	case key.Matches(msg, k.Solo):
		return l.quickSolo()
	case key.Matches(msg, k.Join):
		l.prompt = newPrompt("join", l.env.theme.L.T("session.lobby.joinWhat"))
		l.setStatus("", false)
	case key.Matches(msg, k.Name):
		l.prompt = newPrompt("name", l.env.theme.L.T("session.lobby.nameWhat"))
		l.setStatus("", false)
		l.prompt.input.SetValue(l.env.player.Name)
		l.prompt.input.CursorEnd()
	}
	return nil
}

// open opens the selected room: its replay when the game is over, else
// its table, watched when it is a game in play without the player.
func (l *lobbyScreen) open() tea.Cmd {
	r, ok := l.selected()
	if !ok {
		l.setStatus(l.env.theme.L.T("session.lobby.noneSelected", "Hint", l.createHint()), true)
		return nil
	}
	if r.Over {
		return func() tea.Msg { return toReplay{code: r.Code} }
	}
	watch := l.focus == listPlay && r.SeatOf(l.env.player.ID) < 0
	return func() tea.Msg { return toRoom{code: r.Code, watch: watch} }
}

func (l *lobbyScreen) list() []lobby.RoomInfo { return l.lists[l.focus] }

// step moves the selection one room down (1) or up (-1). The lists stand
// one above another, so past a list's last room ↓ goes on to the first
// room of the next list that has any, and ↑ past its first back to the
// last room of the one above; at the top and the bottom it stays.
func (l *lobbyScreen) step(by int) {
	if i := l.sel[l.focus] + by; i >= 0 && i < len(l.list()) {
		l.sel[l.focus] = i
		return
	}
	for f := l.focus + by; f >= 0 && f < listCount; f += by {
		if n := len(l.lists[f]); n > 0 {
			l.focus = f
			l.sel[f] = 0
			if by < 0 {
				l.sel[f] = n - 1
			}
			return
		}
	}
}

func (l *lobbyScreen) selected() (lobby.RoomInfo, bool) { return l.selectedIn(l.focus) }

// selectedIn is the room selected in list i.
func (l *lobbyScreen) selectedIn(i int) (lobby.RoomInfo, bool) {
	list, sel := l.lists[i], l.sel[i]
	if sel < 0 || sel >= len(list) {
		return lobby.RoomInfo{}, false
	}
	return list[sel], true
}

func newPrompt(kind, placeholder string) *prompt {
	in := textinput.New()
	in.Placeholder = placeholder
	// An invite with dashes and spaces and a guest's seat word, or the
	// whole line to share pasted, with a long host name.
	in.CharLimit = 200
	in.Prompt = "> "
	in.Focus()
	return &prompt{kind: kind, input: in}
}

func (l *lobbyScreen) promptKey(msg tea.KeyMsg) tea.Cmd {
	switch msg.Type {
	case tea.KeyEnter:
		p := l.prompt
		l.prompt = nil
		val := strings.TrimSpace(p.input.Value())
		switch p.kind {
		case "name":
			return l.rename(val)
		case "join", "watch":
			invite, word := lobby.SplitSeatWord(pastedInvite(val))
			code := lobby.NormalizeCode(invite)
			if code == "" {
				l.setStatus(l.env.theme.L.T("session.lobby.typeCode"), true)
				return nil
			}
			if word != "" {
				code += " " + word // a guest coming back to their seat
			}
			watch := p.kind == "watch"
			return func() tea.Msg { return toRoom{code: code, watch: watch} }
		}
		return nil
	}
	var cmd tea.Cmd
	l.prompt.input, cmd = l.prompt.input.Update(msg)
	return cmd
}

// rename keeps the player's new name with their profile.
func (l *lobbyScreen) rename(name string) tea.Cmd {
	e := l.env
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, moveTimeout)
		defer cancel()
		name, err := e.lobby.Rename(ctx, e.player, name)
		return renamedMsg{name: name, err: err}
	}
}

// create opens a room with o and joins it.
func (l *lobbyScreen) create(o lobby.CreateOptions) tea.Cmd {
	e := l.env
	l.setStatus(l.env.theme.L.T("session.lobby.creating"), false)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, moveTimeout)
		defer cancel()
		m, err := e.lobby.Create(ctx, e.player, o)
		return createdMsg{code: m.Code, err: err}
	}
}

func (l *lobbyScreen) view(w, h int) string {
	t := l.env.theme
	head := l.head(w)
	note, nh := "", 1
	if l.env.player.Guest {
		note, nh = statusLines(t.Bad.Render(t.L.T("session.lobby.guest")), w)
	}
	status, sh := l.statusView(w)
	bh := h - 2 - nh - sh
	var body string
	var km help.KeyMap = l.keys()
	switch {
	case l.form != nil:
		body = l.form.view(t, w)
		km = formKeyMap
		if l.form.help {
			km = anyKey{}
		}
	case l.prompt != nil:
		km = promptKeyMap // while typing, q is a letter
		title := map[string]string{"join": t.L.T("session.lobby.joinTitle"), "watch": t.L.T("session.lobby.watchTitle"),
			"name": t.L.T("session.lobby.nameTitle")}[l.prompt.kind]
		body = t.Title.Render(title) + "\n\n" + l.prompt.input.View() + "\n\n" + t.Dim.Render(t.L.T("session.lobby.promptKeys"))
		if l.prompt.kind == "name" {
			rules := t.L.T("session.lobby.nameRules", "Min", players.MinNameLength, "Max", players.MaxNameLength)
			body += "\n" + t.Dim.Render(strings.TrimRight(kit.Wrap(rules, w), " "))
		}
	case l.rules != nil:
		body = l.rules.view(t, w, bh)
		km = l.rules.keys()
	case l.showHelp:
		body = lobbyKeysPage(t, l.keys(), w)
		km = anyKey{}
	case l.chat.open:
		body = l.withChat(w, bh)
	default:
		body = l.listsView(w, bh)
	}
	if l.chat.typing {
		km = lobbyChatKeys{chatKeyMap}
	}
	return strings.Join([]string{kit.Fit(head, w, 1), kit.Fit(note, w, nh), kit.Fit(body, w, bh), kit.Fit(status, w, sh), kit.Fit(helpBar(t, km, w), w, 1)}, "\n")
}

// statusView is the status line (the chat's input while typing) fitted
// to w, and its height.
func (l *lobbyScreen) statusView(w int) (string, int) {
	t := l.env.theme
	status := ""
	if l.status != "" {
		status = t.Dim.Render(l.status)
		if l.statusBad {
			status = t.Bad.Render("✗ " + l.status)
		}
	}
	switch {
	case l.chat.typing:
		return l.chat.inputView(), 1
	case status == "" && l.chatUnread() != "":
		status = t.Accent.Render(l.chatUnread())
	}
	return statusLines(status, w)
}

// head is the lobby's first line in width w: the server, its games and
// who is signed in. Its words are kept while the player's name and the
// width stay, not worded again at every frame.
func (l *lobbyScreen) head(w int) string {
	if l.heading.name == l.env.player.Name && l.heading.w == w && l.heading.text != "" {
		return l.heading.text
	}
	t := l.env.theme
	var titles []string
	for _, g := range l.env.lobby.Games() {
		titles = append(titles, gameTitle(t.L, g))
	}
	signedIn := "   " + t.L.T("session.lobby.signedIn", "Name", t.Accent.Render(l.env.player.Name))
	head := t.Title.Render("smokestack") + t.Dim.Render("  "+t.L.T("session.lobby.overSSH", "Games", kit.And(t.L, titles))) + signedIn
	if ansi.StringWidth(head) > w {
		head = t.Title.Render("smokestack") + signedIn // the player's name matters more than the games'
	}
	l.heading.name, l.heading.w, l.heading.text = l.env.player.Name, w, head
	return head
}

// lobbyKeysPage is the lobby's ? page for keys k, w wide. It depends on
// nothing else, so it is drawn once for every session, like the help
// bars: a crowd that opens it would otherwise lay it out again at every
// frame of every session. Its head starts with a byte no overlay's title
// holds, so the page never takes a key overlay's place.
func lobbyKeysPage(t kit.Theme, k lobbyKeys, w int) string {
	// The line under the keys says where the rules are.
	note := t.L.T("session.lobby.rulesNote")
	return helpBars.Get(pageKey(t, k.FullHelp(), w, "\x02", note), func() string {
		return keysHelp(t, t.L.T("session.keys.title"), k, w) + "\n" + t.Dim.Render(note)
	})
}

// roomKind words a room's game for the lists: "factories 3p", "factories
// solo hard", "furnace 2p 3-rounds": the game, the seats and every option
// that is not its default, in p's language.
func roomKind(lb *lobby.Lobby, p *lang.Printer, r lobby.RoomInfo) string {
	kind := GameKind(p, r.Game, len(r.Seats))
	if g, ok := lb.Game(r.Game); ok {
		kind = strings.Join(append([]string{kind}, optionWords(p, g, r)...), " ")
	}
	return kind
}

// GameKind words a game of seats for lists, in p's language: the game
// by its short name (games.GAME.short, else its name) and its seats,
// "factories 3p", "fabryki 4 os.", "factories solo".
func GameKind(p *lang.Printer, game string, seats int) string {
	n := p.T("session.list.seats", "Seats", seats)
	if seats == 1 {
		n = p.T("session.list.solo")
	}
	return p.Or("games."+game+".short", game) + " " + n
}

// optionWords words every option of the room r of game g that is not
// its default, in the order the game lists them.
func optionWords(p *lang.Printer, g lobby.Game, r lobby.RoomInfo) []string {
	values, err := engine.ReadOptions(g.Rules.Options(), len(r.Seats), r.Options)
	if err != nil {
		return nil
	}
	var words []string
	for _, o := range g.Rules.Options() {
		if v, ok := values[o.Name]; ok && v != o.DefaultValue() {
			words = append(words, optionWord(p, g.Name(), o.Name, v))
		}
	}
	return words
}

// optionWord words an option's value for the lists: a switch by its name
// ("capitalists", "no capitalists"), a number with its name ("3-rounds"),
// any other value as it is ("hard"); each in p's language.
func optionWord(p *lang.Printer, game, name, value string) string {
	label := optionLabel(p, game, name)
	switch {
	case value == "on":
		return label
	case value == "off":
		return p.T("session.list.optionOff", "Name", label)
	case strings.Trim(value, "0123456789") == "":
		return p.T("session.list.optionNumber", "Value", value, "Name", label)
	}
	return optionValue(p, game, name, value)
}

// openRules shows every game's rules, one game after the other.
func (l *lobbyScreen) openRules() {
	var pages []kit.RulesPage
	var titles []string
	for _, g := range l.env.lobby.Games() {
		title, ps := l.env.rules(g.Name())
		titles = append(titles, title)
		for _, p := range ps {
			pages = append(pages, kit.RulesPage{Title: title + ": " + p.Title, Text: p.Text})
		}
	}
	w, h := l.env.bodySize()
	l.rules = newRulesOverlay(l.env.theme, strings.Join(titles, " · "), pages, w, h)
}

// soloGame is the first game here that has one-seat games.
func (l *lobbyScreen) soloGame() (lobby.Game, bool) {
	for _, g := range l.env.lobby.Games() {
		if lo, _ := g.Rules.Seats(); lo == 1 {
			return g, true
		}
	}
	return lobby.Game{}, false
}

// quickSolo starts a one-seat game of the first game that has them.
func (l *lobbyScreen) quickSolo() tea.Cmd {
	if g, ok := l.soloGame(); ok {
		return l.create(lobby.CreateOptions{Game: g.Name(), Seats: 1})
	}
	l.setStatus(l.env.theme.L.T("session.lobby.noSolo"), true)
	return nil
}

// keys are the lobby's keys, without the quick solo where no game has
// one-seat games.
func (l *lobbyScreen) keys() lobbyKeys {
	k := lobbyKeyMap
	_, solo := l.soloGame()
	k.Solo.SetEnabled(solo)
	return k
}

// createHint says how to start a game, in the lists' empty lines and
// status.
func (l *lobbyScreen) createHint() string {
	if _, solo := l.soloGame(); solo {
		return l.env.theme.L.T("session.lobby.createOrSolo")
	}
	return l.env.theme.L.T("session.lobby.create")
}
