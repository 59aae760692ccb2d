// Package session holds the Bubble Tea models one SSH connection runs: the
// lobby, the game screen, spectating and replays. It knows the engine's
// views and moves and the lobby's rooms, never how either works inside;
// it draws a game through the game's kit.Game (session/kit holds the
// parts a game's screens are made of, so they need no room or store).
package session

import (
	"context"
	"errors"
	"io"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// Start says which screen a session opens on.
type Start struct {
	// Mode is "lobby" (default), "join", "watch" or "replay".
	Mode string
	Code string // room code for join, watch and replay
	// Back, in the lobby, takes a player who sits at a table with others
	// back to it (landing.go): what the server asks for a plain `ssh
	// HOST`.
	Back bool
}

// Config is everything a session needs from the server.
type Config struct {
	Lobby *lobby.Lobby
	// Games are the games' screens by game name (lobby.Game.Name); a room
	// of a game not here can be joined but not drawn.
	Games  map[string]kit.Game
	Player lobby.Player
	Start  Start
	// Theme is "default", "colorblind" or "mono".
	Theme string
	// Lang is the language the session speaks; "" is English.
	Lang lang.Tag
	// OnLang, if set, hears the language the player picks in the lobby
	// (langpick.go), so what the server tells them follows it.
	OnLang func(lang.Tag)
	Width  int
	Height int

	// Context ends with the SSH session; when it does the session leaves
	// its room, so a dropped connection leaks nothing. Nil means never.
	Context context.Context
	// Renderer styles output for the client's terminal (wish's
	// bubbletea.MakeRenderer); nil renders 256 colours.
	Renderer *lipgloss.Renderer
	// Now is the clock for "disconnected 2m"; nil means time.Now.
	Now func() time.Time
	// PublicAddr is where players reach the server ("host:port"), for
	// the invites the screens print; empty when unknown.
	PublicAddr string
	// Terminal takes the escape sequences the session writes beside its
	// frames: the bell when the player's seat comes to act and the window
	// title (alert.go), one Write each, made from the update loop, which
	// waits for it. It must not interleave with the program's own output:
	// the server's frames hold them for the frame the update draws (on
	// Bubble Tea's renderer they go straight to the connection, as the
	// frames do on change). nil writes none.
	Terminal io.Writer
	// NoBell starts the session with the bell and the window title off
	// (B switches them).
	NoBell bool
	// Post hands the program a message from outside it: the server's
	// tea.Program.Send. With it the game screen takes its room's updates
	// as the room pushes them, and no goroutine waits on the room between
	// updates; nil makes a command wait for each.
	Post func(tea.Msg)
}

// moveTimeout bounds how long a move may wait for the room and its store.
const moveTimeout = 10 * time.Second

// env is what every screen shares: the lobby, who is playing, the theme and
// the terminal size. Screens hold a pointer, so a name change or a resize
// is seen by all of them.
type env struct {
	lobby  *lobby.Lobby
	games  map[string]kit.Game
	player lobby.Player
	theme  kit.Theme
	ctx    context.Context
	now    func() time.Time
	post   func(tea.Msg) // Config.Post
	width  int
	height int
	// muted are the names whose chat this session hides, lower-cased
	// (/mute): kept until the connection ends.
	muted map[string]bool
	// publicAddr is where players reach the server (Config.PublicAddr).
	publicAddr string
	alerts     alerts // the bell and the window title (alert.go)
	// words are a guest's seat words, kept for the session's end
	// (seatwords.go).
	words seatWords
	// onLang is Config.OnLang.
	onLang func(lang.Tag)
}

// decode reads a view of a room of game, its value or its JSON, through
// that game's screens.
func (e *env) decode(game string, view any) (kit.Board, error) {
	g, ok := e.games[game]
	if !ok {
		return nil, errors.New(e.theme.L.T("session.room.cannotShow", "Game", game))
	}
	return g.Decode(view)
}

// rules are the rules pages of game and its title.
func (e *env) rules(game string) (string, []kit.RulesPage) {
	title := game
	if g, ok := e.lobby.Game(game); ok {
		title = gameTitle(e.theme.L, g)
	}
	if g, ok := e.games[game]; ok {
		return title, g.Rules(e.theme.L)
	}
	return title, nil
}

// bodySize is the size of a screen's body at the terminal's size: the
// width capped at maxWidth, less the two lines above and two below.
func (e *env) bodySize() (w, h int) { return min(e.width, maxWidth), e.height - 4 }

// screen is one of the session's screens: lobby, game, replay.
type screen interface {
	update(msg tea.Msg) (screen, tea.Cmd)
	// view draws the screen in exactly w×h cells, w and h at least the
	// minimum size.
	view(w, h int) string
	// close releases what the screen holds (its room connection).
	close()
}

// Messages that move between screens.
type (
	// toLobby returns to the lobby, showing status, with the cursor on
	// the room the player comes from (its code; "" for none).
	toLobby struct{ status, from string }
	// toRoom opens a room: join (a seat) or watch.
	toRoom struct {
		code  string
		watch bool
		// status is what the table's status line says on arriving.
		status string
	}
	// toReplay opens the replay of a finished game.
	toReplay struct{ code string }
)

// Model is the session's root model: it owns the current screen, the
// terminal size and quitting. Only one screen lives at a time.
type Model struct {
	env   *env
	cur   screen
	start Start
	note  notice // the server's notice across the top (notice.go)
	// keyWhileSmall is set when a key came while the window was too
	// small to show a screen: the request for a bigger window says that
	// keys do nothing until then.
	keyWhileSmall bool
	// refused is the lobby's final refusal that ended the program.
	refused error
}

// New returns the model for one connection.
func New(cfg Config) tea.Model {
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	e := &env{lobby: cfg.Lobby, games: cfg.Games, player: cfg.Player, theme: kit.NewTheme(cfg.Theme, cfg.Renderer).In(lang.For(cfg.Lang)),
		ctx: ctx, now: now, post: cfg.Post, width: cfg.Width, height: cfg.Height, muted: map[string]bool{}, publicAddr: cfg.PublicAddr,
		alerts: alerts{on: !cfg.NoBell, term: cfg.Terminal}}
	e.onLang = cfg.OnLang
	m := &Model{env: e, start: cfg.Start}
	ls := newLobbyScreen(e, "")
	ls.landing = cfg.Start.Back
	m.cur = ls
	return m
}

// Init opens the starting screen. A session started on a room goes there
// without loading the lobby's lists first: they would be thrown away
// unseen, and reading every room for every player who joins one is most
// of what a thousand players joining cost the server. The lobby loads
// them when the player comes back to it.
func (m *Model) Init() tea.Cmd {
	if cmd := m.startCmd(); cmd != nil {
		return cmd
	}
	return m.cur.(*lobbyScreen).init()
}

// startCmd opens the screen Config.Start asks for.
func (m *Model) startCmd() tea.Cmd {
	code := m.start.Code
	switch m.start.Mode {
	case "join":
		return func() tea.Msg { return toRoom{code: code} }
	case "watch":
		return func() tea.Msg { return toRoom{code: code, watch: true} }
	case "replay":
		return func() tea.Msg { return toReplay{code: code} }
	}
	return nil
}

// Update handles what every screen shares and hands the rest to the screen.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.env.width, m.env.height = msg.Width, msg.Height
		if !m.tooSmall() {
			m.keyWhileSmall = false
		}
	case Notice:
		m.note.set(msg, m.env.now())
		return m, nil
	case tea.KeyMsg:
		m.note.keyPressed(m.env.now())
		if msg.String() == "ctrl+c" {
			m.Close()
			return m, tea.Quit
		}
		if m.tooSmall() {
			// A screen not shown takes no keys (input.go): nothing is
			// played, started or left unseen.
			m.keyWhileSmall = true
			return m, nil
		}
		if burst := splitBurst(msg); burst != nil {
			cmds := make([]tea.Cmd, 0, len(burst))
			for _, k := range burst {
				_, cmd := m.Update(k)
				cmds = append(cmds, cmd)
			}
			return m, tea.Batch(cmds...)
		}
	case quitMsg:
		m.Close()
		return m, tea.Quit
	case toLobby:
		m.cur.close()
		ls := newLobbyScreen(m.env, msg.status)
		ls.from = msg.from
		m.cur = ls
		m.env.alerts.setTitle(baseTitle)
		return m, ls.init()
	case toRoom:
		m.cur.close()
		gs := newConnecting(m.env, msg.code, msg.watch)
		gs.arriving(msg.status)
		m.cur = gs
		return m, gs.open()
	case toReplay:
		m.cur.close()
		rs := newReplayScreen(m.env, msg.code)
		m.cur = rs
		m.env.alerts.setTitle(baseTitle)
		return m, rs.load()
	}
	if err := finalRefusal(msg); err != nil {
		m.refused = err
		m.Close()
		return m, tea.Quit
	}
	next, cmd := m.cur.update(msg)
	m.cur = next
	return m, cmd
}

// finalRefusal is the error of a room the lobby would not open because it
// refuses the player for good (lobby.LimitError.Final), or nil.
func finalRefusal(msg tea.Msg) error {
	var err error
	switch msg := msg.(type) {
	case joinedMsg:
		err = msg.err
	case replayMsg:
		err = msg.err
	}
	if err == nil {
		return nil // most messages: lim below escapes, so it costs an allocation
	}
	var lim *lobby.LimitError
	if errors.As(err, &lim) && lim.Final {
		return lim
	}
	return nil
}

// Refused is the refusal that ended the program, when the lobby refused
// the player for good (lobby.LimitError.Final): the server then ends the
// connection with it.
func (m *Model) Refused() error { return m.refused }

// tooSmall reports whether the window is too small to show a screen.
func (m *Model) tooSmall() bool { return m.env.width < MinWidth || m.env.height < MinHeight }

// View draws the current screen, or asks for a bigger window.
func (m *Model) View() string {
	return string(m.AppendView(make([]byte, 0, 2*m.env.width*m.env.height))) // a frame's cells and their styles
}

// AppendView appends View to dst. The server draws each frame into a
// buffer it reuses: a game screen at its own size, with no notice over
// it, writes its frame there in place, with none of the strings a frame
// is otherwise made of (the most garbage a move makes, at every key of
// every player). Other screens, and a game screen centred or under a
// notice, are drawn as strings and copied.
func (m *Model) AppendView(dst []byte) []byte {
	w, h := m.env.width, m.env.height
	if m.tooSmall() {
		return append(dst, m.note.aboveSmall(w, h, m.env.theme, func(w, left int) string {
			return tooSmall(m.env.theme.L, w, left, [2]int{w, h}, m.keyWhileSmall)
		})...)
	}
	cw := min(w, maxWidth)
	if g, ok := m.cur.(*gameScreen); ok && cw == w && m.note.text == "" {
		return g.appendView(dst, w, h)
	}
	v := m.cur.view(cw, h)
	if cw < w {
		v = center(v, w, h)
	}
	return append(dst, m.note.over(v, w, m.env.theme)...)
}

// Close leaves any room the session is in. Call it when the program ends
// for a reason the model did not see (the server may; it is idempotent).
func (m *Model) Close() { m.cur.close() }

// splitBurst splits keys that arrived together. Over SSH several
// keystrokes typed quickly (or sent by a script) can reach the program in
// one read, and Bubble Tea reports them as one KeyRunes message ("/take"),
// which would match no binding. Bracketed pastes stay whole: they are text.
func splitBurst(k tea.KeyMsg) []tea.KeyMsg {
	if k.Type != tea.KeyRunes || k.Paste || k.Alt || len(k.Runes) < 2 {
		return nil
	}
	keys := make([]tea.KeyMsg, len(k.Runes))
	for i, r := range k.Runes {
		keys[i] = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}
	}
	return keys
}

// quitMsg ends the program after leaving the room.
type quitMsg struct{}
