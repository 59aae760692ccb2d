package session

import (
	"encoding/json"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/lobby"
)

// Hooks for the tests in package session_test, which play real games
// through the screens (a game's screens import this package, so those
// tests cannot live inside it).

// NoticeHold is how long a notice stays before a key takes it down.
const NoticeHold = noticeHold

// Size is the terminal size the model draws for.
func Size(m tea.Model) (w, h int) {
	e := m.(*Model).env
	return e.width, e.height
}

// GameProbe reads the game screen's state.
type GameProbe struct{ g *gameScreen }

// ProbeGame returns the model's game screen, if it shows one.
func ProbeGame(m tea.Model) (GameProbe, bool) {
	g, ok := m.(*Model).cur.(*gameScreen)
	return GameProbe{g}, ok
}

// Started reports whether the game has begun (a board is shown).
func (p GameProbe) Started() bool { return p.g.board != nil }

// Over reports whether the game has ended.
func (p GameProbe) Over() bool { return p.g.over() }

// Moves counts the moves the menu offers.
func (p GameProbe) Moves() int {
	n := 0
	for _, grp := range p.g.menu.groups {
		n += len(grp.Moves)
	}
	return n
}

// Pending reports whether a move is on its way to the room.
func (p GameProbe) Pending() bool { return p.g.pending }

// Status is the status line and whether it reports a failure.
func (p GameProbe) Status() (string, bool) { return p.g.status, p.g.statusBad }

// Version counts the moves the screen has seen played.
func (p GameProbe) Version() int { return p.g.version }

// Filter is the move search, while one is typed.
func (p GameProbe) Filter() (bool, string) { return p.g.filtering, p.g.menu.filter }

// Selected is the move the menu is on, as the room would receive it.
func (p GameProbe) Selected() (json.RawMessage, bool) {
	mv, ok := p.g.menu.selected()
	return mv.Move, ok
}

// SelectedLabel is the words of the move the menu is on.
func (p GameProbe) SelectedLabel() string {
	mv, _ := p.g.menu.selected()
	return mv.Label
}

// Ticking reports whether the screen has a timer set to redraw it.
func (p GameProbe) Ticking() bool { return p.g.ticking }

// Groups are the titles of the menu's groups, in order.
func (p GameProbe) Groups() []string {
	var out []string
	for _, grp := range p.g.menu.groups {
		out = append(out, grp.Title)
	}
	return out
}

// Seat puts model m in room code on connection c, as if it had joined.
func Seat(m tea.Model, code string, c *lobby.Conn) {
	m.Update(toRoom{code: code})
	g := m.(*Model).cur.(*gameScreen)
	m.Update(joinedMsg{conn: c, done: g.done, unwatch: func() bool { return true }})
}

// Updated is the message of the room's update u arriving on c.
func Updated(c *lobby.Conn, u lobby.Update) tea.Msg { return updateMsg{conn: c, u: u} }

// Group is the title of the menu's selected group, "" when none.
func (p GameProbe) Group() string {
	g, _ := p.g.menu.selectedGroup()
	return g.Title
}

// Held counts the playing keys waiting for the move in flight.
func (p GameProbe) Held() int { return len(p.g.held) }

// Armed reports whether a costly move waits for its second enter.
func (p GameProbe) Armed() bool { return p.g.armed != nil }

// Hinting says whether a hint is on its way from the room.
func (p GameProbe) Hinting() bool { return p.g.hintAsked != 0 }

// Overlay says whether an overlay covers the table.
func (p GameProbe) Overlay() bool { return p.g.overlay != nil }

// ToRoom is the message that opens room code's screen, as the lobby's
// enter sends it.
func ToRoom(code string) tea.Msg { return toRoom{code: code} }

// Idle is what the board says the seat waits for, as the menu shows it
// when it has no moves; false while the menu has some.
func (p GameProbe) Idle() (string, bool) {
	if p.g.board == nil || len(p.g.menu.groups) > 0 {
		return "", false
	}
	return p.g.board.Idle(p.g.seats()), true
}
