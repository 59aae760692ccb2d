package session

import (
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/lobby"
)

// The table's countdowns, as the game screen shows them: a seat whose
// player is away (when the others may hand it to a bot, their votes, when
// it goes to a bot anyway), the clocks of the seats acting, and who has
// the host's powers while the host is away. Every time comes from the
// room's update and is counted down against the session's own clock, so
// the screen ticks once a second while something counts, and not at all
// otherwise.

// counting reports whether the screen shows a time that changes: a seat
// away, or a clock running.
func (g *gameScreen) counting() bool {
	if g.room.Over {
		return false
	}
	for _, s := range g.room.Seats {
		if !s.Connected && !s.AwaySince.IsZero() || !s.Deadline.IsZero() {
			return true
		}
	}
	return false
}

// tick redraws the screen each second while something counts.
func (g *gameScreen) tick() tea.Cmd {
	if g.ticking || !g.counting() {
		return nil
	}
	g.ticking = true
	done := g.done
	return tea.Every(time.Second, func(time.Time) tea.Msg { return tickMsg{done: done} })
}

// now is the session's clock.
func (g *gameScreen) now() time.Time {
	if g.env.now == nil {
		return time.Now()
	}
	return g.env.now()
}

// tableText is the line about the seats: clocks run out, then each away
// seat with its countdown, then who stands in for an away host; worded in
// full when it fits in w, else without the host, else shorter. "" when
// there is nothing.
func (g *gameScreen) tableText(w int) string {
	host, line := g.hostText(), ""
	for _, short := range []bool{false, true} {
		parts := g.tableParts(short)
		if len(parts) == 0 {
			return ""
		}
		tries := [][]string{parts}
		if host != "" {
			tries = [][]string{append(slices.Clone(parts), host), parts}
		}
		for _, try := range tries {
			if line = strings.Join(try, " · "); lipgloss.Width(line) <= w {
				return line
			}
		}
	}
	return line // the screen cuts it, with a mark
}

// hostText says who has the host's powers while the host is away.
func (g *gameScreen) hostText() string {
	switch {
	case !g.room.HostAway || g.room.HostSeat < 0:
		return ""
	case g.room.HostSeat == g.seat:
		return g.env.theme.L.T("session.table.youHost")
	}
	return g.env.theme.L.T("session.table.host", "Name", g.seats().Name(g.room.HostSeat))
}

func (g *gameScreen) tableParts(short bool) []string {
	now := g.now()
	seats, p := g.seats(), g.env.theme.L
	var parts []string
	for i, s := range g.room.Seats {
		if s.OutOfTime {
			switch {
			case i == g.seat:
				parts = append(parts, "⏱ "+p.T("session.table.yourTimeOut"))
			case short:
				parts = append(parts, "⏱ "+p.T("session.table.botsTurn", "Name", seats.Name(i)))
			default:
				parts = append(parts, "⏱ "+p.T("session.table.timeOut", "Name", seats.Name(i)))
			}
		}
	}
	for i, s := range g.room.Seats {
		if s.Connected || s.AwaySince.IsZero() {
			continue
		}
		parts = append(parts, "⏸ "+g.awaySeat(i, s, now, short))
	}
	return parts
}

// awaySeat words one away seat's countdown.
func (g *gameScreen) awaySeat(i int, s lobby.SeatInfo, now time.Time, short bool) string {
	name, p := g.seats().Name(i), g.env.theme.L
	away := since(p, now.Sub(s.AwaySince))
	if s.VotesFrom.IsZero() {
		// Not under way, or a game with no bots: nothing counts down.
		if short {
			return p.T("session.away.short", "Name", name, "Away", away)
		}
		return p.T("session.away.waiting", "Name", name, "Away", away)
	}
	if now.Before(s.VotesFrom) {
		left := lobby.ClockText(s.VotesFrom.Sub(now))
		if short {
			return p.T("session.away.voteInShort", "Name", name, "Left", left)
		}
		return p.T("session.away.voteIn", "Name", name, "Left", left)
	}
	botIn := lobby.ClockText(s.BotAt.Sub(now))
	auto := p.T("session.away.automatic", "Left", botIn)
	if !now.Before(s.BotAt) {
		auto = p.T("session.away.botNow")
	}
	votes := p.N("session.away.votes", len(s.Votes), "Needed", s.VotesNeeded)
	switch {
	case g.spectator() && short:
		// A spectator has no vote: how long the seat has been away, and
		// when a bot takes it.
		return p.T("session.away.watchShort", "Name", name, "Away", away, "Left", botIn)
	case g.spectator():
		return p.T("session.away.watch", "Name", name, "Away", away, "Votes", votes, "Auto", auto)
	case short:
		return p.T("session.away.voteShort", "Name", name, "Votes", len(s.Votes), "Needed", s.VotesNeeded, "Left", botIn)
	case slices.Contains(s.Votes, g.seat):
		return p.T("session.away.voted", "Name", name, "Votes", votes, "Auto", auto)
	}
	return p.T("session.away.vote", "Name", name, "Votes", votes, "Auto", auto)
}

// clockText is the header's clock: the viewer's own time for the turn,
// or the acting seats' when the viewer does not act. "" with no clock,
// and for a time past that nobody waits for (clock.go in lobby: the turn
// stays the seat's, so ⏱ 0:00 would be no fact).
func (g *gameScreen) clockText() string {
	now := g.now()
	// Every frame asks (the header's key): the seats are read in place,
	// not copied.
	running := func(s *lobby.SeatInfo) bool { return !s.Deadline.IsZero() && (s.OutOfTime || now.Before(s.Deadline)) }
	if g.seat >= 0 && g.seat < len(g.room.Seats) {
		if s := &g.room.Seats[g.seat]; running(s) {
			return "⏱ " + lobby.ClockText(s.Deadline.Sub(now))
		}
	}
	first, who, n := time.Time{}, -1, 0
	for i := range g.room.Seats {
		s := &g.room.Seats[i]
		if !running(s) {
			continue
		}
		n++
		if who < 0 || s.Deadline.Before(first) {
			first, who = s.Deadline, i
		}
	}
	switch {
	case n == 0:
		return ""
	case n == 1:
		return "⏱ " + g.seats().Name(who) + " " + lobby.ClockText(first.Sub(now))
	}
	return "⏱ " + lobby.ClockText(first.Sub(now))
}

// seatWordText tells a guest how to come back to their seat.
func (g *gameScreen) seatWordText() string {
	if g.seatWord == "" {
		return ""
	}
	return g.env.theme.L.T("session.table.seatWord", "Word", g.seatWord, "Code", g.code)
}
