package session

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// gameScreen is one room: the waiting room before the game starts, the
// board while it is played (for a seat or a spectator), the scores after.
// It knows no game: the room's Game decodes each view into a Board, which
// draws itself and offers the seat's moves.
type gameScreen struct {
	env   *env
	code  string // the room's code, as the header shows it
	typed string // what opens it: the code, or a private room's invite
	watch bool

	conn    *lobby.Conn   // nil while connecting
	unwatch func() bool   // stops the session's end from closing conn
	done    chan struct{} // closed when the screen leaves the room

	// named is the header's "room CODE" as last worded, and its code.
	named  [2]string
	room   lobby.RoomInfo
	invite string // a private room's invite, for a seat or the host to share
	seat   int
	table  kit.Seats // SeatsOf(room, seat), for seats
	board  kit.Board // nil until the game starts
	log    []string
	events []*lobby.LogEntry
	// words keeps the log's lines worded for the viewer.
	words logWords
	// logPane is the log pane as last drawn, by its size: a key that
	// moves the menu redraws the board, and the log is the costliest
	// part of it. Apply clears it.
	logPane kit.Kept[[2]int]
	// drawings keeps the header and the help bar; apply clears it.
	drawings drawings
	notice   string
	version  int

	menu      menu
	filtering bool
	pending   bool // a move is on its way to the room
	// unseen is set while the move sent was taken but the view that
	// answers it has not come yet: keys that play still wait (sending.go).
	unseen bool
	// hintAsked is said when h asked for the hint on its way, 0 when
	// none is (hint.go).
	hintAsked int
	armed     json.RawMessage // a costly move waiting for its second enter
	// sending is the label of the move on its way, and sentVersion the
	// room's version when it went; held are the playing keys pressed
	// meanwhile (sending.go).
	sending     string
	sentVersion int
	held        []heldKey
	status      string
	statusBad   bool
	// said counts what the status line was told: an answer to an older
	// question knows by it whether anything newer was said since.
	said int
	// statusGone, when set, says the status no longer holds: it was about
	// a state of the table or the menu that has since changed.
	statusGone func(*gameScreen) bool
	// noteRound is set while the status is a note of a move played
	// ("played: …"), to the round it was played in, and noteVersion to
	// the room's version then: the note goes with that round, and gives
	// way to the count of new chat lines.
	noteRound, noteVersion int

	bound boundMethods
	// laid is the board's Grid of the frame being drawn, here rather
	// than made on the heap at every frame.
	laid kit.Grid

	overlay overlay // what covers the board, nil for none
	ticking bool
	// following is set once the room's updates are followed (wait).
	following bool

	// seatWord is a guest's word for taking the seat back (countdown.go).
	seatWord string
	chat     *chatPane // the room's chat (gamechat.go)
	followed bool      // the screen has moved on to the rematch (rematch.go)
}

// Messages of the game screen. Each carries the connection it is about, so
// a message from a room the session already left is ignored.
type (
	joinedMsg struct {
		conn *lobby.Conn
		err  error
		// done is the screen's that asked: a quick second enter opens a
		// new screen before the first join answers, and that answer is
		// not the new screen's to take.
		done chan struct{}
		// unwatch stops the session's end from closing conn, once the
		// screen has.
		unwatch func() bool
	}
	updateMsg struct {
		conn *lobby.Conn
		u    lobby.Update
	}
	moveDoneMsg struct {
		conn    *lobby.Conn
		label   string
		round   int // the room's round when the move was sent
		version int // and its version
		err     error
	}
	hostDoneMsg struct {
		what string
		err  error
		gone func(*gameScreen) bool // when what no longer holds
	}
	tickMsg struct{ done chan struct{} }
)

func newConnecting(e *env, typed string, watch bool) *gameScreen {
	g := &gameScreen{env: e, code: codeOf(typed), typed: typed, watch: watch, seat: -1, table: SeatsOf(lobby.RoomInfo{}, -1), done: make(chan struct{}), chat: newChatPane(e)}
	g.bound = boundMethods{tableKey: g.tableKey, howToLeave: g.howToLeave, log: g.logOrChat, menu: g.menuView}
	return g
}

// boundMethods are the screen's methods that every key or frame hands
// on as values, bound once: a method value is a closure made anew each
// time it is taken.
type boundMethods struct {
	tableKey   func(tea.KeyMsg) tea.Cmd
	howToLeave func()
	log, menu  func(w, h int) string
}

// codeOf is the room code in what a player typed, without a private
// room's secret or a guest's seat word, to show on screen.
func codeOf(typed string) string {
	typed, _ = lobby.SplitSeatWord(typed)
	if code, _, ok := lobby.ParseInvite(typed); ok {
		return code
	}
	return lobby.NormalizeCode(typed)
}

// open joins (or watches) the room. The connection is closed when the
// screen leaves the room or the session's context ends, whichever comes
// first, even if the program has stopped reading messages.
func (g *gameScreen) open() tea.Cmd {
	e, code, watch, done := g.env, g.typed, g.watch, g.done
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, moveTimeout)
		defer cancel()
		var c *lobby.Conn
		var err error
		if watch {
			c, err = e.lobby.Watch(ctx, code, e.player)
		} else {
			c, err = e.lobby.Join(ctx, code, e.player)
		}
		if err != nil {
			return joinedMsg{err: err, done: done}
		}
		c.SkipJSON() // apply reads the view's value
		// The session's end closes it, with no goroutine waiting for that
		// (a goroutine costs every session its stack).
		return joinedMsg{conn: c, done: done, unwatch: context.AfterFunc(e.ctx, c.Close)}
	}
}

// wait delivers the room's next update. It ends when the screen leaves the
// room or the session ends, so no goroutine outlives the session. With
// Config.Post the room's updates are followed instead (follow.go), and
// nothing waits.
func (g *gameScreen) wait() tea.Cmd {
	c, done, ctx := g.conn, g.done, g.env.ctx
	if post := g.env.post; post != nil {
		if !g.following {
			g.following = true
			follow(c, post)
		}
		return nil
	}
	return func() tea.Msg {
		select {
		case u := <-c.Updates():
			return updateMsg{conn: c, u: u}
		case <-done:
			return nil
		case <-ctx.Done():
			return nil
		}
	}
}

// updated takes a room update: the board and the status, a rematch to
// follow, then the bell and the window title.
func (g *gameScreen) updated(u lobby.Update) tea.Cmd {
	// The first update is what the player sees on arriving: no bell.
	was := g.acting() || g.room.Code == ""
	first := g.room.Code == ""
	g.apply(u)
	g.staleStatus(was)
	if cmd := g.followRematch(first); cmd != nil {
		return cmd
	}
	g.seatAlert(was)
	return tea.Batch(g.wait(), g.tick(), g.release())
}

func (g *gameScreen) close() {
	select {
	case <-g.done:
		return
	default:
	}
	close(g.done)
	if g.conn != nil {
		g.unwatch()
		g.conn.Close()
	}
}

func (g *gameScreen) spectator() bool { return g.seat < 0 }

// seats names the table for the board, from this viewer's side: worked
// out when the room or the seat changes, as a frame asks for it often.
func (g *gameScreen) seats() kit.Seats {
	s := g.table
	s.L = g.env.theme.L
	return s
}

// SeatName is seat i of room r named in p's language (kit.Seats.Name):
// "greedy bot 3" for a bot's own seat, "alice (bot)" for a player's seat
// a bot plays.
func SeatName(p *lang.Printer, r lobby.RoomInfo, i int) string {
	s := SeatsOf(r, engine.Spectator)
	s.L = p
	return s.Name(i)
}

// SeatsOf names room r's seats for viewer's screens: a bot's own seat
// by no name, for kit.Seats.Name to word in the reader's language.
func SeatsOf(r lobby.RoomInfo, viewer int) kit.Seats {
	s := kit.Seats{Names: make([]string, len(r.Seats)), Bots: make([]string, len(r.Seats)), Viewer: viewer}
	for i, seat := range r.Seats {
		s.Names[i], s.Bots[i] = seat.Name, seat.Bot
		if seat.BotSeat {
			s.Names[i] = "" // Seats.Name words it
		}
	}
	return s
}

// seatsKept is SeatsOf(r, viewer), or s where it names the same seats
// already: an update mostly leaves the seats as they were, and naming
// them anew was two slices at every update of every screen.
func seatsKept(r lobby.RoomInfo, viewer int, s kit.Seats) kit.Seats {
	if s.Viewer != viewer || len(s.Names) != len(r.Seats) || len(s.Bots) != len(r.Seats) {
		return SeatsOf(r, viewer)
	}
	for i, seat := range r.Seats {
		name := seat.Name
		if seat.BotSeat {
			name = "" // as SeatsOf names it
		}
		if s.Names[i] != name || s.Bots[i] != seat.Bot {
			return SeatsOf(r, viewer)
		}
	}
	return s
}

func (g *gameScreen) over() bool {
	return g.room.Over || g.board != nil && g.board.Over()
}

func (g *gameScreen) update(msg tea.Msg) (screen, tea.Cmd) {
	switch msg := msg.(type) {
	case joinedMsg:
		if msg.done != g.done { // another screen's, since left
			if msg.conn != nil {
				msg.unwatch()
				msg.conn.Close()
			}
			return g, nil
		}
		if msg.err != nil {
			status := errText(g.env.theme, g.room.Game, msg.err)
			return g, func() tea.Msg { return toLobby{status: status} }
		}
		select {
		case <-g.done: // left before the join finished
			msg.unwatch()
			msg.conn.Close()
			return g, nil
		default:
		}
		g.conn, g.unwatch, g.seat = msg.conn, msg.unwatch, msg.conn.Seat()
		g.table = SeatsOf(g.room, g.seat)
		return g, g.wait()
	case updateMsg:
		if msg.conn != g.conn {
			return g, nil
		}
		return g, g.updated(msg.u)
	case moveDoneMsg:
		if msg.conn != g.conn {
			return g, nil
		}
		return g, g.moveDone(msg)
	case hintMsg:
		g.hinted(msg)
	case hostDoneMsg:
		if msg.err != nil {
			g.setStatus(errText(g.env.theme, g.room.Game, msg.err), true)
		} else {
			g.setStatusUntil(msg.what, false, msg.gone)
			g.dropGoneStatus() // the update saying so may have come first
		}
	case chatSentMsg:
		if msg.pane == g.chat {
			return g, g.chat.sent(msg.text, msg.err)
		}
	case rematchMsg:
		if msg.done == g.done {
			g.rematchDone(msg)
		}
	case tickMsg:
		if msg.done == g.done {
			g.ticking = false
			return g, g.tick()
		}
	case tea.WindowSizeMsg:
		if g.overlay != nil {
			g.overlay.resize(g.env.bodySize())
		}
		g.chat.resize()
	case tea.KeyMsg:
		cmd := g.key(msg)
		g.dropGoneStatus()
		return g, cmd
	}
	return g, nil
}

// apply takes in a room update: the view replaces the old one whole.
func (g *gameScreen) apply(u lobby.Update) {
	was := g.acting()
	g.room, g.seat, g.notice, g.version, g.invite = u.Room, u.Seat, u.Notice, u.Version, u.Invite
	g.unseen = g.unseen && g.version <= g.sentVersion
	g.events = u.Events
	g.table = seatsKept(g.room, g.seat, g.table)
	g.logPane, g.drawings.header = kit.Kept[[2]int]{}, kit.Kept[drawingKey]{} // the bar's key holds all it shows
	if u.SeatWord != "" && g.seatWord == "" {
		g.seatWord = u.SeatWord
		g.env.words.add(g.code, u.SeatWord)
		g.setStatus(g.seatWordText(), false) // once, at sit-down: the guest must see it
	}
	g.chat.setLines(u.Chat)
	old := g.board
	g.board = nil
	if u.Value != nil {
		b, err := g.env.decode(u.Room.Game, u.Value)
		if err != nil {
			g.setStatus(errText(g.env.theme, g.room.Game, err), true)
		}
		kit.Carry(old, b) // the parts of the board a move left as they were
		g.board = b
	}
	switch {
	case g.spectator() || g.over() || g.board == nil:
		g.menu = menu{}
	case !was && g.acting():
		// A new turn starts with every move on offer: a search typed
		// for the last turn would hide this one's. The menu keeps its
		// place.
		old := g.menu
		old.clearFilter()
		g.menu = newMenu(g.board.Menu(g.seats()), old)
	default:
		g.menu = newMenu(g.board.Menu(g.seats()), g.menu)
	}
	if len(g.menu.groups) == 0 || !was && g.acting() {
		g.filtering = false
	}
	if sel, ok := g.menu.selected(); g.armed != nil && (!ok || !bytes.Equal(sel.Move, g.armed)) {
		// The move waiting for its second enter is gone (the table
		// changed under it): ask again rather than play something else.
		g.armed = nil
		g.setStatus(g.env.theme.L.T("session.game.tableChanged"), false)
	}
}

func (g *gameScreen) setStatus(s string, bad bool) {
	g.setStatusUntil(s, bad, nil)
}

// setStatusUntil says s on the status line until gone reports that it no
// longer holds (nil: until something else is said, or staleStatus).
func (g *gameScreen) setStatusUntil(s string, bad bool, gone func(*gameScreen) bool) {
	g.status, g.statusBad, g.noteRound, g.noteVersion, g.statusGone = s, bad, 0, 0, gone
	g.said++
}

// dropGoneStatus clears a status whose state has changed: a status
// belongs to the state that caused it.
func (g *gameScreen) dropGoneStatus() {
	if g.statusGone != nil && g.statusGone(g) {
		g.setStatus("", false)
	}
}

// staleStatus clears what the status line says once the game has moved
// past it: a note of a move played once the game ended, or a later move
// than its own began another round, and a refusal once the seat's next
// turn begins (was says whether it was acting before this update).
func (g *gameScreen) staleStatus(was bool) {
	switch {
	case g.noteRound != 0 && (g.over() || g.noteRound != g.room.Round && g.version > g.noteVersion+1):
		g.setStatus("", false)
	case g.statusBad && !was && g.acting():
		g.setStatus("", false)
	default:
		g.dropGoneStatus()
	}
}

// key hands a key to the screen's top layer (input.go).
func (g *gameScreen) key(msg tea.KeyMsg) tea.Cmd { return route(g.top(), msg) }

// top is the layer that takes keys now: the chat being typed, an
// overlay, the confirm line of a costly move, the move search; else the
// table, where esc hides the chat or takes down a message, and at the
// bottom says how to leave.
func (g *gameScreen) top() layer {
	switch {
	case g.chat.typing:
		return layer{key: g.chatKey, esc: g.chat.stop}
	case g.overlay != nil:
		return overlayLayer(g.overlay, func(o overlay) { g.overlay = o })
	case g.armed != nil:
		return layer{key: g.confirmKey, esc: g.disarm}
	case g.filtering:
		return layer{key: g.filterKey, esc: g.endSearch}
	case g.chat.open:
		return layer{key: g.tableKey, esc: g.chat.close}
	case g.menu.filter != "":
		return layer{key: g.tableKey, esc: g.menu.clearFilter}
	case g.status != "" && g.statusBad:
		return layer{key: g.tableKey, esc: func() { g.setStatus("", false) }}
	}
	return layer{key: g.bound.tableKey, esc: g.bound.howToLeave}
}

// howToLeave is esc on the table itself: it leaves nothing, and says
// which key does.
func (g *gameScreen) howToLeave() {
	g.setStatusUntil(g.env.theme.L.T("session.game.escLeaves"), false, func(g *gameScreen) bool { return g.overlay != nil })
}

// confirmKey answers the confirm line of a costly move: enter plays it,
// any other key cancels it and does nothing else.
func (g *gameScreen) confirmKey(msg tea.KeyMsg) tea.Cmd {
	if key.Matches(msg, gameKeyMap.Play) {
		return g.play()
	}
	g.disarm()
	return nil
}

// disarm cancels a costly move waiting for its second enter.
func (g *gameScreen) disarm() {
	g.armed = nil
	g.setStatus("", false)
}

// endSearch closes the move search and shows every move.
func (g *gameScreen) endSearch() {
	g.filtering = false
	g.menu.clearFilter()
}

// tableKey is a key on the table itself: the one place where keys turn
// into moves and room actions.
func (g *gameScreen) tableKey(msg tea.KeyMsg) tea.Cmd {
	k := &gameKeyMap // not a copy: a key map is two dozen bindings
	name := nameOf(msg)
	switch {
	case key.Matches(name, k.Help):
		g.openHelp()
	case key.Matches(name, k.Chat):
		return g.chat.start()
	case g.over() && key.Matches(name, k.Rematch):
		return g.rematch()
	case key.Matches(name, k.Rules):
		g.overlay = g.rules()
	case key.Matches(name, k.Bell):
		g.setStatus(g.env.alerts.toggle(g.env.theme.L), false)
		g.seatAlert(true)
		return nil
	case key.Matches(name, k.Leave):
		code := g.code
		return func() tea.Msg { return toLobby{from: code} }
	case key.Matches(name, k.Card):
		g.openCards()
	case key.Matches(name, k.Yours):
		g.openYours()
	case key.Matches(name, k.Log):
		w, h := g.env.bodySize()
		g.overlay = newLogOverlay(g.env.theme, g.logLines(), w, h)
	case key.Matches(name, k.AddBot):
		g.openBots()
	case key.Matches(name, k.End):
		g.askEnd()
	case g.spectator() && g.board != nil && !g.over() && key.Matches(name, k.Hint):
		g.setStatus(g.env.theme.L.T("lobby.spectatorHint"), true)
	case g.spectator() && g.board != nil && !g.over() && (key.Matches(name, k.Play) || key.Matches(name, k.Undo) || key.Matches(name, k.Filter)):
		// A key that plays, from one who cannot: said, not lost, nor
		// left under an older line that answers something else.
		g.setStatus(g.env.theme.L.T("lobby.spectatorMoves"), true)
	case g.conn == nil || g.spectator() || g.board == nil || g.over():
		// Everything below plays moves.
	case key.Matches(name, k.NextGroup):
		g.menu.stepGroup(1)
	case key.Matches(name, k.PrevGroup):
		g.menu.stepGroup(-1)
	case g.menu.jump(name):
	case key.Matches(name, k.Filter):
		g.filtering = true
		g.menu.setFilter("")
	case key.Matches(name, k.Play):
		return g.play()
	case key.Matches(name, k.Undo):
		return g.undo()
	case key.Matches(name, k.Hint):
		return g.hint()
	}
	return nil
}

// moveDone takes the room's answer to the move sent.
func (g *gameScreen) moveDone(msg moveDoneMsg) tea.Cmd {
	g.pending = false
	g.unseen = msg.err == nil && g.version <= g.sentVersion
	switch {
	case msg.err != nil:
		// A move the engine refused reads in the player's language;
		// the keys that waited for it go with it.
		why := errText(g.env.theme, g.room.Game, msg.err)
		if dropped := g.dropHeld(); dropped != "" {
			why += " · " + dropped
		}
		g.setStatus(why, true)
	case !g.over():
		// Said even when the round moved on before the answer came
		// (the answer to Done often comes after the next round's
		// update): the next update takes it down.
		g.setStatus(g.env.theme.L.T("session.game.played", "Move", msg.label), false)
		g.noteRound, g.noteVersion = msg.round, msg.version
	default:
		g.held = nil
		g.setStatus("", false) // the scores say the rest
	}
	return g.release()
}

// openHelp shows the game's keys, and how a turn is played.
func (g *gameScreen) openHelp() {
	p := g.env.theme.L
	set := g.keySet()
	w, h := g.env.bodySize()
	o := newHelpOverlay(g.env.theme, w, h, p.T("session.keys.title"), gameKeySets[set])
	o.rules, o.note, o.game, o.set = g.rules, p.T("session.game.howToPlay"), true, set
	g.overlay = o
}

// askEnd asks the host to confirm ending the game for everyone; anyone
// else is told why they cannot.
func (g *gameScreen) askEnd() {
	p := g.env.theme.L
	switch {
	case !g.room.IsHost(g.env.player.ID):
		g.setStatus(p.T("session.game.hostEnds"), true)
	case g.room.Over:
		g.setStatus(p.T("session.game.alreadyOver"), true)
	default:
		g.overlay = &confirmOverlay{title: p.T("session.game.endTitle"), text: p.T("session.game.endText"),
			yesLabel: p.T("session.game.endYes"), noLabel: p.T("session.game.endNo"), yes: g.endGame()}
	}
}

// filterKey edits the move search; arrows and enter still work. Every
// move is one key away: esc ends the search (top), and so does an arrow
// that has no result to move through (← and → leave the search's one
// group).
func (g *gameScreen) filterKey(msg tea.KeyMsg) tea.Cmd {
	k := &gameKeyMap // not a copy: a key map is two dozen bindings
	switch arrow := msg.Type == tea.KeyLeft || msg.Type == tea.KeyRight; {
	case msg.Type == tea.KeyBackspace:
		if r := []rune(g.menu.filter); len(r) > 0 {
			g.menu.setFilter(string(r[:len(r)-1]))
		}
	case key.Matches(msg, k.Play) && g.menu.unmatched():
		return g.play() // says why, and the search stays open to fix
	case key.Matches(msg, k.Play):
		cmd := g.play()
		g.filtering = false
		return cmd
	case arrow || g.menu.unmatched() && (msg.Type == tea.KeyDown || msg.Type == tea.KeyUp):
		g.filtering = false
		g.menu.clearFilter()
		return g.tableKey(msg)
	case msg.Type != tea.KeyRunes && g.menu.jump(nameOf(msg)): // not j and k: letters of a search
	case msg.Type == tea.KeyRunes:
		g.menu.setFilter(g.menu.filter + string(msg.Runes))
	case msg.Type == tea.KeySpace:
		// Bubble Tea's space key also carries the rune ' ': add it once.
		g.menu.setFilter(g.menu.filter + " ")
	}
	return nil
}

// play sends the selected move to the room.
func (g *gameScreen) play() tea.Cmd {
	mv, ok := g.menu.selected()
	if !ok {
		g.nothingToPlay()
		return nil
	}
	if g.inFlight() {
		grp, _ := g.menu.selectedGroup()
		g.hold(heldKey{mv: mv, group: grp.Title})
		return nil
	}
	if (mv.Confirm || mv.Loses != "") && !bytes.Equal(g.armed, mv.Move) {
		g.armed = mv.Move
		ask := g.env.theme.L.T("session.game.confirm")
		if mv.Loses != "" {
			ask = g.env.theme.L.T("session.game.confirmLoses", "Loses", mv.Loses)
		}
		g.setStatus(ask, false)
		return nil
	}
	g.armed = nil
	g.sent(mv.Label)
	g.menu.clearFilter() // on the move played: the menu keeps its place
	c, ctx, round, version := g.conn, g.env.ctx, g.room.Round, g.version
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, moveTimeout)
		defer cancel()
		return moveDoneMsg{conn: c, label: mv.Label, round: round, version: version, err: c.Move(ctx, mv.Move)}
	}
}

// nothingToPlay says why enter played nothing, until the menu offers a
// move again: a search that matches no move, or no move at all.
func (g *gameScreen) nothingToPlay() {
	filter := g.menu.filter
	why := g.env.theme.L.T("session.game.nothingToPlay")
	if g.menu.unmatched() {
		why = g.env.theme.L.T("session.game.noMatch", "Search", filter)
	}
	g.setStatusUntil(why, true, func(g *gameScreen) bool {
		_, ok := g.menu.selected()
		return ok || g.menu.filter != filter
	})
}

// rules is the rules screen of the room's game.
func (g *gameScreen) rules() overlay {
	w, h := g.env.bodySize()
	title, pages := g.env.rules(g.room.Game)
	return newRulesOverlay(g.env.theme, title, pages, w, h)
}

// openCards shows the card reference at the card the menu is on.
func (g *gameScreen) openCards() {
	if g.board == nil {
		g.setStatus(g.env.theme.L.T("session.game.noCardsYet"), true)
		return
	}
	focus := ""
	if grp, ok := g.menu.selectedGroup(); ok && grp.Card != nil {
		focus = grp.Card.Key
	}
	g.overlay = newCardsOverlay(g.board, g.seats(), focus)
}

// openYours lays the seat's own cards, with what each does, over the
// board, where the game draws them apart (kit.Yours).
func (g *gameScreen) openYours() {
	b, ok := g.board.(kit.Yours)
	p := g.env.theme.L
	switch {
	case g.board == nil:
		g.setStatus(p.T("session.game.noCardsYet"), true)
	case g.spectator():
		g.setStatus(p.T("session.game.spectatorCards"), true)
	case !ok:
		g.setStatus(p.T("session.game.cardsOnBoard"), true)
	default:
		g.overlay = &drawnOverlay{draw: func(t kit.Theme, w, h int) string { return b.Yours(t, g.seats(), w, h) }}
	}
}

// openBots offers the host (or who stands in) every free seat, once per
// bot, and a seated player every away seat whose grace period is over,
// to vote it to the game's default bot.
func (g *gameScreen) openBots() {
	p := g.env.theme.L
	if g.room.Over {
		g.setStatus(p.T("session.game.over"), true)
		return
	}
	game, _ := g.env.lobby.Game(g.room.Game)
	if len(game.Bots.Names) == 0 {
		g.setStatus(p.T("session.game.noBots"), true)
		return
	}
	host, now := g.room.IsHost(g.env.player.ID), g.now()
	var choices []botChoice
	wait := ""
	for i, s := range g.room.Seats {
		switch {
		case s.Free && host:
			for _, b := range game.Bots.Names {
				choices = append(choices, botChoice{seat: i, bot: b, text: p.T("session.bots.free", "Seat", i+1, "Bot", b)})
			}
		case g.spectator() || s.VotesFrom.IsZero() || s.Connected:
		case now.Before(s.VotesFrom):
			wait = p.T("session.bots.voteLater", "Name", s.Name, "Away", lobby.ClockText(now.Sub(s.AwaySince)),
				"Left", lobby.ClockText(s.VotesFrom.Sub(now)))
		default:
			choices = append(choices, botChoice{seat: i, bot: game.DefaultBot(), vote: true,
				text: p.T("session.bots.vote", "Name", s.Name, "Away", lobby.ClockText(now.Sub(s.AwaySince)), "Bot", game.DefaultBot(),
					"Votes", len(s.Votes), "Needed", s.VotesNeeded)})
		}
	}
	away := slices.ContainsFunc(g.room.Seats, func(s lobby.SeatInfo) bool { return !s.Free && !s.Connected })
	switch {
	case len(choices) > 0:
		g.overlay = &botsOverlay{choices: choices, seat: g.addBot}
	case wait != "":
		g.setStatus(wait, true)
	case !host && slices.ContainsFunc(g.room.Seats, func(s lobby.SeatInfo) bool { return s.Free }):
		g.setStatus(p.T("session.bots.hostOnly"), true)
	case g.spectator() && away:
		g.setStatus(p.T("session.bots.spectatorNoVote"), true)
	case away:
		g.setStatus(p.T("session.bots.notStarted"), true)
	default:
		g.setStatus(p.T("session.bots.allHere"), true)
	}
}

// addBot seats the chosen bot, or votes for it in an away player's seat.
func (g *gameScreen) addBot(c botChoice) tea.Cmd {
	e, code, p := g.env, g.code, g.env.theme.L
	name := g.seats().Name(c.seat)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, moveTimeout)
		defer cancel()
		if !c.vote {
			err := e.lobby.AddBot(ctx, code, e.player, c.seat, c.bot)
			return hostDoneMsg{what: p.T("session.bots.seated", "Bot", c.bot, "Seat", c.seat+1), err: err}
		}
		res, err := e.lobby.Vote(ctx, code, e.player, c.seat)
		what := p.T("session.bots.handedOver", "Bot", res.Bot, "Name", name)
		// The note holds while the seat stays as the vote left it.
		gone := func(g *gameScreen) bool { // the player took the seat back
			return c.seat >= len(g.room.Seats) || g.room.Seats[c.seat].Bot == "" && g.room.Seats[c.seat].Connected
		}
		if !res.HandedOver {
			what = p.T("session.bots.voted", "Votes", res.Votes, "Needed", res.Needed)
			gone = func(g *gameScreen) bool { return c.seat >= len(g.room.Seats) || g.room.Seats[c.seat].Connected }
		}
		return hostDoneMsg{what: what, err: err, gone: gone}
	}
}

func (g *gameScreen) endGame() tea.Cmd {
	e, code := g.env, g.code
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, moveTimeout)
		defer cancel()
		return hostDoneMsg{what: e.theme.L.T("session.game.ended"), err: e.lobby.End(ctx, code, e.player)}
	}
}

// since words a duration the way a player reads it, in p's language,
// to the second under a minute and to the minute above: 40s, 2m, 1h5m.
func since(p *lang.Printer, d time.Duration) string {
	if d < time.Minute {
		return p.Duration(max(time.Second, d.Truncate(time.Second)))
	}
	return p.Duration(d.Truncate(time.Minute))
}
