package line

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/kit"
)

// table is a room, as the line mode sits at it: the latest update, and
// what has been said of it already, so each event is said once.
type table struct {
	conn   *lobby.Conn
	room   lobby.RoomInfo
	seat   int
	board  kit.Board // nil until the game starts
	events []*lobby.LogEntry
	seen   map[*lobby.LogEntry]bool // the log entries said already
	chat   map[string]bool          // the chat lines said already
	moves  []move                   // the seat's legal moves, numbered from 1
	// listed are the moves as the player was last shown them numbered:
	// the numbers they type are of that list (chooseNumber).
	listed  []move
	acting  bool   // the seat had moves at the last update
	stage   string // the board's kit.Staged at the last update
	started bool   // an update has been taken
	seated  string // the seats as last said, before the start
	away    []bool // by seat, whether its player was away at the last update
	notice  string
	over    bool
	// rematchSaid is set once the rematch's room has been announced.
	rematchSaid bool
	// armed is a lossy move waiting for yes.
	armed *move
}

// move is one legal move as the menu words it.
type move struct {
	label   string // "Blueprint 1: Obelisk: Take Obelisk"
	data    json.RawMessage
	confirm bool
}

func newTable(c *lobby.Conn) *table {
	return &table{conn: c, seat: c.Seat(), seen: map[*lobby.LogEntry]bool{}, chat: map[string]bool{}}
}

func (t *table) spectator() bool { return t.seat < 0 }

func (t *table) seats(s *sess) kit.Seats { return seatsOf(t.room, t.seat, s.p) }

// update takes a room update and says what happened since the last.
func (t *table) update(s *sess, u lobby.Update) {
	first := !t.started
	t.started = true
	turn := lobby.TurnBegan(t.room.Round, t.room.Acting, u.Room.Round, u.Room.Acting)
	t.room, t.seat, t.events = u.Room, u.Seat, u.Events
	t.board = nil
	if u.Value != nil {
		if b, err := s.decode(t.room.Game, u.Value); err == nil {
			t.board = b
		} else {
			s.out.event(err.Error())
		}
	}
	// A seat that goes on acting into a new turn (its last market turn,
	// then the work phase) is told, as one that starts acting is.
	if st, ok := t.board.(kit.Staged); ok {
		turn = turn || st.Stage() != t.stage
		t.stage = st.Stage()
	}
	seats := t.seats(s)
	t.menu(s, seats)
	if first {
		t.arrive(s, u)
	}
	if !t.room.Started && !t.room.Over {
		if who := t.seating(s); who != t.seated {
			t.seated = who
			s.out.event(who)
		}
	}
	// The log: each new entry once, worded for this player.
	fresh := make(map[*lobby.LogEntry]bool, len(t.events))
	for _, e := range t.events {
		fresh[e] = true
		if !t.seen[e] && !first {
			s.out.event(session.LogLine(s.theme, seats, t.room.Game, e))
		}
	}
	t.seen = fresh
	for _, l := range u.Chat {
		if !t.chat[l.ID] {
			t.chat[l.ID] = true
			if !first {
				s.out.event(s.p.T("line.chat", "Name", l.Name, "Text", l.Text))
			}
		}
	}
	t.sayAway(s, seats)
	if u.Notice != t.notice {
		t.notice = u.Notice
		if u.Notice != "" {
			s.out.event(session.NoticeText(s.p, u.Notice))
		}
	}
	acting := len(t.moves) > 0
	// On arrival the summary has just said where the game stands and how
	// many moves there are.
	if acting && !first && (!t.acting || turn) {
		s.out.event(t.yourTurn(s, seats))
	}
	if !acting {
		t.armed = nil
	}
	t.acting = acting
	if (t.room.Over || t.board != nil && t.board.Over()) && !t.over {
		t.over = true
		t.end(s, seats)
	}
	if r := t.room.Rematch; r != nil && r.Code != "" && !t.rematchSaid {
		t.rematchSaid = true
		s.out.event(s.p.T("line.table.rematch_ready", "Code", r.Code))
	}
}

// arrive says where the player sits, on the first update.
func (t *table) arrive(s *sess, u lobby.Update) {
	game := s.gameTitle(t.room.Game)
	if t.spectator() {
		s.out.event(s.p.T("line.table.watching", "Code", t.room.Code, "Game", game))
	} else {
		s.out.event(s.p.T("line.table.seated", "Code", t.room.Code, "Game", game, "Seat", t.seat+1))
	}
	if u.Invite != "" {
		s.out.event(s.p.T("line.table.invite", "Invite", u.Invite))
	}
	if u.SeatWord != "" {
		s.out.event(s.p.T("line.table.seat_word", "Word", u.SeatWord))
	}
	if t.room.Started {
		s.out.event(t.summary(s, t.seats(s))...)
		if len(t.events) > 0 {
			s.out.event(s.p.T("line.table.log_hint"))
		}
	}
	s.out.event(s.p.T("line.table.hint"))
}

// seating says who sits where while the room waits for its players.
func (t *table) seating(s *sess) string {
	var names []string
	free := 0
	for i, seat := range t.room.Seats {
		switch {
		case seat.Free:
			free++
		case i == t.seat:
			names = append(names, s.p.T("line.you"))
		case seat.Bot != "" && seat.Name == "":
			names = append(names, s.p.T("line.bot_named", "Bot", seat.Bot))
		default:
			names = append(names, seat.Name)
		}
	}
	return s.p.N("line.table.waiting", free, "Who", strings.Join(names, ", "))
}

// menu numbers the seat's legal moves, as the menu words and groups them.
func (t *table) menu(s *sess, seats kit.Seats) {
	t.moves = t.moves[:0]
	if t.board == nil || t.spectator() || t.room.Over {
		return
	}
	for _, g := range t.board.Menu(seats) {
		for _, mv := range g.Moves {
			label := mv.Label
			if g.Title != "" && !strings.Contains(mv.Label, g.Title) {
				label = g.Title + ": " + mv.Label
			}
			t.moves = append(t.moves, move{label: label, data: mv.Move, confirm: mv.Confirm || mv.Loses != ""})
		}
	}
	if t.armed != nil && !slices.ContainsFunc(t.moves, func(m move) bool { return bytes.Equal(m.data, t.armed.data) }) {
		t.armed = nil
	}
}

// yourTurn says the seat may act: where the game stands, whose turn the
// header's own words say, and how many moves it has.
func (t *table) yourTurn(s *sess, seats kit.Seats) string {
	return s.p.N("line.table.your_turn", len(t.moves), "Where", sentence(clean(t.board.Header(s.theme, seats)))) + t.clock(s)
}

// clock says the seat's time left for its turn, if the room has a clock.
func (t *table) clock(s *sess) string {
	if t.seat < 0 || t.seat >= len(t.room.Seats) {
		return ""
	}
	d := t.room.Seats[t.seat].Deadline
	if d.IsZero() {
		return ""
	}
	left := max(0, time.Until(d)).Round(time.Second)
	return " " + s.p.T("line.table.time_left", "Time", s.p.Duration(left))
}

// summary is look's answer: where the game stands, who sits, what the
// seat may do.
func (t *table) summary(s *sess, seats kit.Seats) []string {
	game := s.gameTitle(t.room.Game)
	lines := []string{s.p.T("line.table.room", "Code", t.room.Code, "Game", game)}
	if t.board == nil {
		return append(lines, t.seating(s))
	}
	lines = append(lines, sentence(clean(t.board.Header(s.theme, seats)))+".")
	if b := clean(t.board.Banner(s.theme, seats)); b != "" {
		lines = append(lines, sentence(b)+".")
	}
	var who []string
	for i := range t.room.Seats {
		who = append(who, t.seatWords(s, seats, i))
	}
	rivals := t.rivals(s)
	for _, r := range rivals {
		who = append(who, r.Name)
	}
	lines = append(lines, s.p.T("line.table.players", "Who", strings.Join(who, "; ")))
	if h := t.holdings(s, seats, t.seat); h != "" {
		lines = append(lines, h)
	}
	for _, r := range rivals {
		lines = append(lines, clean(r.Holdings))
	}
	switch {
	case t.over:
	case len(t.moves) > 0:
		lines = append(lines, s.p.N("line.table.moves_hint", len(t.moves))+t.clock(s))
	case !t.spectator():
		lines = append(lines, clean(t.board.Idle(seats)))
	}
	return lines
}

// seatWords says one seat: its name, and whether a bot plays it or its
// player is away, and their time.
func (t *table) seatWords(s *sess, seats kit.Seats, i int) string {
	seat := t.room.Seats[i]
	name := seats.Name(i)
	if seats.Me(i) {
		name = s.p.T("line.you")
	}
	var notes []string
	if !seat.AwaySince.IsZero() && seat.Bot == "" {
		notes = append(notes, s.p.T("line.table.away"))
	}
	if !seat.Deadline.IsZero() {
		notes = append(notes, s.p.T("line.table.clock", "Time", s.p.Duration(max(0, time.Until(seat.Deadline)).Round(time.Second))))
	}
	if len(notes) > 0 {
		name += " (" + strings.Join(notes, ", ") + ")"
	}
	return name
}

// end says the game is over: who won, the scores, and what may follow.
func (t *table) end(s *sess, seats kit.Seats) {
	if t.room.Ended != "" {
		s.out.event(s.p.T("line.table.ended", "Why", session.EndedText(s.p, t.room.Ended)))
	}
	if r := t.room.Result; r != nil {
		var parts []string
		for i, score := range r.Scores {
			name := seats.Name(i)
			if seats.Me(i) {
				name = s.p.T("line.you")
			}
			place := 0
			if i < len(r.Ranks) {
				place = r.Ranks[i]
			}
			parts = append(parts, s.p.N("line.table.score", score, "Name", name, "Place", place))
		}
		s.out.event(s.p.T("line.table.over", "Scores", strings.Join(parts, "; ")))
		switch {
		case slices.Contains(r.Winners, t.seat):
			s.out.event(s.p.T("line.table.you_won"))
		case len(r.Winners) == 0 && r.Opponent != nil:
			// A solo game the game's own opponent won: its score is
			// in no seat's.
			s.out.event(s.p.T("line.table.opponent_won", "Name", session.OpponentOf(s.p, s.cfg.Lobby, t.room), "Score", *r.Opponent))
		case len(r.Winners) > 0:
			var names []string
			for _, w := range r.Winners {
				names = append(names, seats.Name(w))
			}
			s.out.event(s.p.T("line.table.won", "Who", strings.Join(names, ", ")))
		}
	} else {
		s.out.event(s.p.T("line.table.over_plain"))
	}
	if !t.spectator() {
		s.out.event(s.p.T("line.table.after"))
	}
}

// command runs a command typed at the table.
func (t *table) command(s *sess, text, name, rest string) error {
	armed := t.armed
	t.armed = nil
	seats := t.seats(s)
	switch name {
	case "help", "keys", "?":
		s.out.answer(s.p.T("line.table.help1"), s.p.T("line.table.help2"), s.p.T("line.table.help3"),
			s.p.T("line.table.help4"), s.p.T("line.table.help5"), s.p.T("line.table.help6"))
	case "look", "l":
		s.out.answer(t.summary(s, seats)...)
	case "moves", "m":
		t.listMoves(s, rest)
	case "hand", "market", "board":
		t.cards(s, seats, name, rest)
	case "log":
		t.log(s, seats, rest)
	case "hint", "h":
		t.hint(s)
	case "card":
		t.card(s, seats, rest)
	case "rules":
		t.rules(s, rest)
	case "say":
		t.say(s, rest)
	case "undo":
		t.play(s, move{label: s.p.T("session.game.undoLabel"), data: engine.UndoMove()})
	case "yes", "y":
		if armed == nil {
			s.out.answer(s.p.T("line.table.nothing_to_confirm"))
			return nil
		}
		t.play(s, *armed)
	case "rematch":
		t.rematch(s)
	case "bot":
		t.bot(s, seats, rest)
	case "vote":
		t.vote(s, seats, rest)
	case "leave":
		s.closeTable()
		s.out.answer(s.p.T("line.table.left"))
		s.welcome()
	case "quit", "exit", "bye":
		s.out.answer(s.p.T("line.bye"))
		return errQuit
	default:
		t.choose(s, text)
	}
	return nil
}

// listMoves numbers the seat's legal moves, those whose words hold
// filter's if it is given.
func (t *table) listMoves(s *sess, filter string) {
	if len(t.moves) == 0 {
		t.noMoves(s)
		return
	}
	var lines []string
	for i, m := range t.moves {
		if filter == "" || matches(m.label, filter) {
			lines = append(lines, strconv.Itoa(i+1)+". "+m.label)
		}
	}
	if len(lines) == 0 {
		s.out.answer(s.p.T("line.table.no_match", "Words", filter))
		return
	}
	s.out.answer(s.p.N("line.table.moves", len(lines)))
	t.listed = slices.Clone(t.moves)
	if len(lines) > maxPage {
		more := len(lines) - maxPage
		lines = append(lines[:maxPage], s.p.N("line.table.moves_more", more))
	}
	s.out.answer(lines...)
}

// noMoves says why the seat has nothing to play.
func (t *table) noMoves(s *sess) {
	switch {
	case t.spectator():
		s.out.answer(s.p.T("line.table.spectating"))
	case t.board == nil:
		s.out.answer(t.seating(s))
	case t.over:
		s.out.answer(s.p.T("line.table.after"))
	default:
		s.out.answer(clean(t.board.Idle(t.seats(s))))
	}
}

// matches reports whether every word of words is in label, in any case.
func matches(label, words string) bool {
	l := strings.ToLower(label)
	for _, w := range strings.Fields(strings.ToLower(words)) {
		if !strings.Contains(l, w) {
			return false
		}
	}
	return true
}

// choose plays the move text names: its number, or enough of its words
// to be the only one.
func (t *table) choose(s *sess, text string) {
	if n, err := strconv.Atoi(text); err == nil {
		t.chooseNumber(s, n)
		return
	}
	var found []int
	for i, m := range t.moves {
		if matches(m.label, text) {
			found = append(found, i)
		}
	}
	switch {
	case len(found) == 1:
		t.offer(s, t.moves[found[0]])
	case len(found) > 1:
		s.out.answer(s.p.N("line.table.several", len(found)))
		t.listed = slices.Clone(t.moves)
		for j, i := range found {
			if j == 10 {
				s.out.answer(s.p.N("line.more", len(found)-j))
				break
			}
			s.out.answer(strconv.Itoa(i+1) + ". " + t.moves[i].label)
		}
	case len(t.moves) > 0:
		s.out.answer(s.p.T("line.table.no_match", "Words", text))
	default:
		s.out.answer(s.p.T("line.unknown", "Command", strings.Fields(text)[0]))
	}
}

// chooseNumber plays move n of the list the player was last shown (of
// the moves now if none was): the moves are numbered afresh after every
// move, and a number read from an older list must play the move it named
// there or nothing, never the one that took its number since.
func (t *table) chooseNumber(s *sess, n int) {
	list := t.listed
	if list == nil {
		list = t.moves
	}
	switch {
	case len(t.moves) == 0:
		t.noMoves(s)
		return
	case n < 1 || n > len(list):
		s.out.answer(s.p.N("line.table.no_number", len(t.moves), "Number", n))
		return
	}
	m := list[n-1]
	i := kit.Reoffered(len(t.moves), func(i int) (string, []byte) { return t.moves[i].label, t.moves[i].data }, m.label, m.data)
	if i < 0 {
		s.out.answer(s.p.T("line.table.gone", "Move", m.label))
		return
	}
	t.offer(s, t.moves[i])
}

// offer plays m, or, for a move a stray line must not play, asks first.
func (t *table) offer(s *sess, m move) {
	if m.confirm {
		t.armed = &m
		s.out.answer(s.p.T("line.table.confirm", "Move", m.label))
		return
	}
	t.play(s, m)
}

// play sends m to the room and says what became of it. The update that
// shows it comes on the room's channel, and is said as it is taken.
func (t *table) play(s *sess, m move) {
	if t.spectator() {
		s.out.answer(s.p.T("line.table.spectating"))
		return
	}
	ctx, cancel := s.call()
	defer cancel()
	if err := t.conn.Move(ctx, m.data); err != nil {
		s.out.answer(s.refusal(t.room.Game, err))
		return
	}
	s.out.answer(s.p.T("session.game.played", "Move", m.label))
}

// cards lists one part of the table: the seat's hand, the market, or a
// seat's board (board NAME; the seat's own without one).
func (t *table) cards(s *sess, seats kit.Seats, part, name string) {
	if t.board == nil {
		s.out.answer(t.seating(s))
		return
	}
	seat := t.seat
	if part == kit.PartBoard {
		if r, ok := t.rival(s, name); ok { // asked only for a board: hand and market are the seat's
			lines := []string{clean(r.Holdings)}
			for _, c := range r.Cards {
				lines = append(lines, c.Name+": "+c.Where)
			}
			s.out.answer(lines...)
			return
		}
	}
	if part == "board" && name != "" {
		seat = -2
		for i := range t.room.Seats {
			if strings.EqualFold(seats.Name(i), name) || strings.HasPrefix(strings.ToLower(seats.Name(i)), strings.ToLower(name)) {
				seat = i
				break
			}
		}
		if seat == -2 {
			s.out.answer(s.p.T("line.table.no_seat", "Name", name))
			return
		}
	}
	var lines []string
	for _, c := range t.board.Cards(seats) {
		switch {
		case c.Part != part:
		case part == kit.PartBoard && c.Seat != seat:
		default:
			lines = append(lines, c.Name+": "+c.Where)
		}
	}
	if part == kit.PartBoard && seat < 0 {
		s.out.answer(s.p.T("line.table.whose_board"))
		return
	}
	if h := t.holdings(s, seats, seat); part == kit.PartBoard && h != "" {
		lines = append([]string{h}, lines...)
	}
	if len(lines) == 0 {
		none := map[string]string{kit.PartHand: s.p.T("line.table.none_hand"), kit.PartMarket: s.p.T("line.table.none_market")}[part]
		if none == "" {
			none = s.p.T("line.table.none_board")
		}
		s.out.answer(none)
		return
	}
	if len(lines) > maxPage {
		lines = append(lines[:maxPage], s.p.N("line.more", len(lines)-maxPage))
	}
	s.out.answer(lines...)
}

// holdings says what seat holds that no card shows, if the game tells.
func (t *table) holdings(s *sess, seats kit.Seats, seat int) string {
	if told, ok := t.board.(kit.Told); ok && seat >= 0 {
		return clean(told.Holdings(s.theme, seats, seat))
	}
	return ""
}

// rivals are the players the game has beyond its seats (The Machine).
func (t *table) rivals(s *sess) []kit.Rival {
	if u, ok := t.board.(kit.Unseated); ok {
		return u.Unseated(s.theme)
	}
	return nil
}

// rival is the player beyond the seats that name names, all its words
// found in that player's name ("machine": The Machine).
func (t *table) rival(s *sess, name string) (kit.Rival, bool) {
	if strings.TrimSpace(name) == "" {
		return kit.Rival{}, false
	}
	for _, r := range t.rivals(s) {
		if matches(r.Name, name) {
			return r, true
		}
	}
	return kit.Rival{}, false
}

// hint says the search bot's best moves for the seat, best first, each
// numbered as moves numbers it, so the number plays it. The room refuses
// a rated game, and marks the game as one where a hint was asked.
func (t *table) hint(s *sess) {
	if t.spectator() || len(t.moves) == 0 {
		t.noMoves(s)
		return
	}
	ctx, cancel := s.call()
	defer cancel()
	hints, err := t.conn.Hint(ctx)
	if err != nil {
		s.out.answer(s.refusal(t.room.Game, err))
		return
	}
	lines := []string{s.p.T("line.table.hints")}
	t.listed = slices.Clone(t.moves) // the numbers said are of these
	for _, h := range hints {
		worth := s.p.T("session.hint.worth", "Worth", s.p.Signed(h.Worth, 1))
		i := slices.IndexFunc(t.moves, func(m move) bool { return bytes.Equal(m.data, h.Move) })
		if i < 0 {
			continue // a position gone by the time it was answered
		}
		lines = append(lines, strconv.Itoa(i+1)+". "+t.moves[i].label+", "+worth)
	}
	s.out.answer(lines...)
}

// log says the last n lines of the game log (10 by default).
func (t *table) log(s *sess, seats kit.Seats, arg string) {
	n := 10
	if v, err := strconv.Atoi(arg); err == nil && v > 0 {
		n = min(v, maxPage)
	}
	if len(t.events) == 0 {
		s.out.answer(s.p.T("line.table.log_empty"))
		return
	}
	for _, e := range t.events[max(0, len(t.events)-n):] {
		s.out.answer(session.LogLine(s.theme, seats, t.room.Game, e))
	}
}

// card says a card's full text: the first the table shows whose name
// holds what is typed.
func (t *table) card(s *sess, seats kit.Seats, name string) {
	if t.board == nil || name == "" {
		s.out.answer(s.p.T("line.table.which_card"))
		return
	}
	cards := t.board.Cards(seats)
	i := slices.IndexFunc(cards, func(c kit.CardRef) bool { return strings.EqualFold(c.Name, name) })
	if i < 0 {
		i = slices.IndexFunc(cards, func(c kit.CardRef) bool { return matches(c.Name, name) })
	}
	if i < 0 {
		s.out.answer(s.p.T("line.table.no_card", "Name", name))
		return
	}
	lines := strings.Split(t.board.CardText(s.theme, cards[i], Width-2), "\n")
	var out []string
	for _, l := range lines {
		if l = clean(l); l != "" && hasLetter(l) {
			out = append(out, l)
		}
	}
	s.out.answer(out[:min(len(out), maxPage)]...)
}

// rules lists the rules' pages, or says one.
func (t *table) rules(s *sess, arg string) {
	g, ok := s.cfg.Games[t.room.Game]
	if !ok {
		return
	}
	pages := g.Rules(s.p)
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > len(pages) {
		for i, p := range pages {
			s.out.answer(strconv.Itoa(i+1) + ". " + p.Title)
		}
		s.out.answer(s.p.T("line.table.rules_hint"))
		return
	}
	p := pages[n-1]
	lines := []string{p.Title}
	for _, para := range strings.Split(p.Text, "\n\n") {
		if para = clean(para); para != "" {
			lines = append(lines, para)
		}
	}
	s.out.answer(lines...)
}

// say says text in the room's chat.
func (t *table) say(s *sess, text string) {
	if text == "" {
		s.out.answer(s.p.T("line.say_what"))
		return
	}
	ctx, cancel := s.call()
	defer cancel()
	if err := t.conn.Say(ctx, text); err != nil {
		s.out.answer(s.refusal(t.room.Game, err))
	}
	// The line comes back with the room's chat, and is said then.
}

// rematch accepts a new game at the same table, or offers it.
func (t *table) rematch(s *sess) {
	if !t.over || t.spectator() {
		s.out.answer(s.p.T("line.table.no_rematch"))
		return
	}
	ctx, cancel := s.call()
	defer cancel()
	info, err := s.cfg.Lobby.Rematch(ctx, t.room.Code, s.cfg.Player)
	if err != nil {
		s.out.answer(s.refusal(t.room.Game, err))
		return
	}
	if info.Rematch != nil && info.Rematch.Code != "" {
		code := info.Rematch.Code
		if err := s.sit(code, false); err != nil {
			s.out.answer(s.refusal(t.room.Game, err))
		}
		return
	}
	s.out.answer(s.p.T("line.table.rematch_offered"))
}

// sayAway says who went away and who came back, once the game is under
// way: an away seat may be handed to a bot by the table's votes.
func (t *table) sayAway(s *sess, seats kit.Seats) {
	was := t.away
	t.away = make([]bool, len(t.room.Seats))
	for i, seat := range t.room.Seats {
		t.away[i] = t.room.Started && !t.room.Over && !seat.AwaySince.IsZero() && seat.Bot == "" && !seat.Free
		switch {
		case i >= len(was) || seats.Me(i):
		case t.away[i] && !was[i]:
			s.out.event(s.p.T("line.table.went_away", "Name", seats.Name(i)))
		case !t.away[i] && was[i] && seat.Connected:
			s.out.event(s.p.T("line.table.came_back", "Name", seats.Name(i)))
		}
	}
}

// seatNamed finds the seat a player typed: a name (or its start), or a
// seat's number.
func (t *table) seatNamed(seats kit.Seats, name string) int {
	if n, err := strconv.Atoi(name); err == nil && n >= 1 && n <= len(t.room.Seats) {
		return n - 1
	}
	for i := range t.room.Seats {
		if name != "" && strings.HasPrefix(strings.ToLower(seats.Name(i)), strings.ToLower(name)) {
			return i
		}
	}
	return -1
}

// bot seats a bot in a free seat, as the host may: "bot 2", "bot 2
// greedy".
func (t *table) bot(s *sess, seats kit.Seats, args string) {
	f := strings.Fields(args)
	seat := -1
	if len(f) > 0 {
		seat = t.seatNamed(seats, f[0])
	} else if i := slices.IndexFunc(t.room.Seats, func(x lobby.SeatInfo) bool { return x.Free }); i >= 0 {
		seat = i
	}
	if seat < 0 {
		s.out.answer(s.p.T("line.table.bot_which"))
		return
	}
	g, _ := s.cfg.Lobby.Game(t.room.Game)
	name := g.DefaultBot()
	if len(f) > 1 {
		name = f[1]
	}
	if !t.room.Seats[seat].Free {
		t.vote(s, seats, strconv.Itoa(seat+1)) // an away player's seat: a vote
		return
	}
	ctx, cancel := s.call()
	defer cancel()
	if err := s.cfg.Lobby.AddBot(ctx, t.room.Code, s.cfg.Player, seat, name); err != nil {
		s.out.answer(s.refusal(t.room.Game, err))
		return
	}
	s.out.answer(s.p.T("session.bots.seated", "Bot", name, "Seat", seat+1))
}

// vote casts the player's vote to hand an away player's seat to a bot.
func (t *table) vote(s *sess, seats kit.Seats, name string) {
	seat := t.seatNamed(seats, name)
	if seat < 0 {
		s.out.answer(s.p.T("line.table.no_seat", "Name", name))
		return
	}
	ctx, cancel := s.call()
	defer cancel()
	res, err := s.cfg.Lobby.Vote(ctx, t.room.Code, s.cfg.Player, seat)
	switch {
	case err != nil:
		s.out.answer(s.refusal(t.room.Game, err))
	case res.HandedOver:
		s.out.answer(s.p.T("session.bots.handedOver", "Bot", res.Bot, "Name", seats.Name(seat)))
	default:
		s.out.answer(s.p.T("session.bots.voted", "Votes", res.Votes, "Needed", res.Needed))
	}
}

// hasLetter reports whether a line says something in words, rather than
// being drawn of symbols (a card's frame).
func hasLetter(l string) bool {
	return strings.IndexFunc(l, func(r rune) bool { return r >= '0' && r <= '9' || unicode.IsLetter(r) }) >= 0
}

// decode reads a view through its game's screens.
func (s *sess) decode(game string, view any) (kit.Board, error) {
	g, ok := s.cfg.Games[game]
	if !ok {
		return nil, errors.New(s.p.T("session.room.cannotShow", "Game", game))
	}
	return g.Decode(view)
}
