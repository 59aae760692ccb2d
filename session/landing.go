package session

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/lobby"
)

// Coming back. A player who connects to the lobby (a plain `ssh HOST`)
// while sitting at a table with other people, in a game under way, is
// taken back to it: straight to the table of a game whose move waits for
// them, told so on the status line; else the lobby opens with the cursor
// on their first such game in YOUR GAMES. Nobody waits at a solo table,
// so a solo game stays in YOUR GAMES as it was. Only the session's first
// lobby screen does this, when the server asks (Start.Back, for a plain
// `ssh HOST`): a player who leaves a table for the lobby stays there.

// land takes the session's first lobby screen to where its player sits,
// once the lists are read: a command to go to the table, or nil when the
// screen stays, maybe with its cursor moved.
func (l *lobbyScreen) land() tea.Cmd {
	if !l.landing {
		return nil
	}
	l.landing = false
	me := l.env.player.ID
	var mine []lobby.RoomInfo // the games under way where others sit with me
	for _, r := range l.lists[listMine] {
		if r.Started && !r.Over && othersAt(r, r.SeatOf(me)) {
			mine = append(mine, r)
		}
	}
	for _, r := range mine {
		if r.YourMove(me) {
			code, status := r.Code, l.env.theme.L.T("session.landing.yourMove", "Code", r.Code)
			return func() tea.Msg { return toRoom{code: code, status: status} }
		}
	}
	if len(mine) > 0 {
		r := mine[0]
		l.focus, l.sel[listMine] = listMine, slices.IndexFunc(l.lists[listMine], func(x lobby.RoomInfo) bool { return x.Code == r.Code })
		l.setStatus(l.env.theme.L.T("session.landing.seated", "Code", r.Code), false)
	}
	return nil
}

// othersAt reports whether anyone, a person or a bot, sits in room r
// besides seat: someone waits for seat's moves.
func othersAt(r lobby.RoomInfo, seat int) bool {
	for i, s := range r.Seats {
		if i != seat && !s.Free {
			return true
		}
	}
	return false
}

// cameFrom puts the cursor on the room the player just left, in the
// first list that shows it, once the lists are read.
func (l *lobbyScreen) cameFrom() {
	code := l.from
	l.from = ""
	if code == "" {
		return
	}
	for _, i := range [...]int{listMine, listPlay, listOpen} {
		if j := slices.IndexFunc(l.lists[i], func(r lobby.RoomInfo) bool { return r.Code == code }); j >= 0 {
			l.focus, l.sel[i] = i, j
			return
		}
	}
}

// arriving says status on the status line as the table opens: the
// landing's "your move is waiting", which holds until the seat's move
// has passed.
func (g *gameScreen) arriving(status string) {
	g.setStatusUntil(status, false, func(g *gameScreen) bool { return g.room.Code != "" && !g.acting() })
}

// notMine is the games in play, and their cells, without those me sits
// in: those are me's to play, under YOUR GAMES, not to watch. The shared
// lists are copied only when one is left out.
func notMine(me string, play []lobby.RoomInfo, cells []roomCells) ([]lobby.RoomInfo, []roomCells) {
	if !slices.ContainsFunc(play, func(r lobby.RoomInfo) bool { return r.SeatOf(me) >= 0 }) {
		return play, cells
	}
	var keep []lobby.RoomInfo
	var kept []roomCells
	for j, r := range play {
		if r.SeatOf(me) < 0 {
			keep, kept = append(keep, r), append(kept, cells[j])
		}
	}
	return keep, kept
}
