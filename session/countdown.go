package session

import (
	"fmt"
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
		return "you are host"
	}
	return g.seats().Name(g.room.HostSeat) + " is host"
}

func (g *gameScreen) tableParts(short bool) []string {
	now := g.now()
	seats := g.seats()
	var parts []string
	for i, s := range g.room.Seats {
		if s.OutOfTime {
			switch {
			case i == g.seat:
				parts = append(parts, "⏱ your time ran out: the bot plays this turn")
			case short:
				parts = append(parts, "⏱ "+seats.Name(i)+": bot's turn")
			default:
				parts = append(parts, "⏱ "+seats.Name(i)+"'s time ran out: the bot plays the turn")
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
	name := g.seats().Name(i)
	if s.VotesFrom.IsZero() {
		// Not under way, or a game with no bots: nothing counts down.
		if short {
			return name + " away " + since(now.Sub(s.AwaySince))
		}
		return fmt.Sprintf("waiting for %s (disconnected %s)", name, since(now.Sub(s.AwaySince)))
	}
	if now.Before(s.VotesFrom) {
		left := lobby.ClockText(s.VotesFrom.Sub(now))
		if short {
			return name + " away, bot vote in " + left
		}
		return name + " away: a bot may take the seat in " + left
	}
	auto := "automatic in " + lobby.ClockText(s.BotAt.Sub(now))
	if !now.Before(s.BotAt) {
		auto = "going to a bot now"
	}
	votes := fmt.Sprintf("%d of %d votes", len(s.Votes), s.VotesNeeded)
	switch {
	case g.spectator() && short:
		// A spectator has no vote: how long the seat has been away, and
		// when a bot takes it.
		return fmt.Sprintf("%s away %s, bot in %s", name, since(now.Sub(s.AwaySince)), lobby.ClockText(s.BotAt.Sub(now)))
	case g.spectator():
		return fmt.Sprintf("%s away %s: a bot takes the seat (%s, %s)", name, since(now.Sub(s.AwaySince)), votes, auto)
	case short:
		return fmt.Sprintf("%s: b for a bot %d/%d, %s", name, len(s.Votes), s.VotesNeeded, lobby.ClockText(s.BotAt.Sub(now)))
	case slices.Contains(s.Votes, g.seat):
		return fmt.Sprintf("%s away: you voted for a bot (%s, %s)", name, votes, auto)
	}
	return fmt.Sprintf("%s away: b to hand the seat to a bot (%s, %s)", name, votes, auto)
}

// clockText is the header's clock: the viewer's own time for the turn,
// or the acting seats' when the viewer does not act. "" with no clock,
// and for a time past that nobody waits for (clock.go in lobby: the turn
// stays the seat's, so ⏱ 0:00 would be no fact).
func (g *gameScreen) clockText() string {
	now := g.now()
	running := func(s lobby.SeatInfo) bool { return !s.Deadline.IsZero() && (s.OutOfTime || now.Before(s.Deadline)) }
	if g.seat >= 0 && g.seat < len(g.room.Seats) {
		if s := g.room.Seats[g.seat]; running(s) {
			return "⏱ " + lobby.ClockText(s.Deadline.Sub(now))
		}
	}
	first, who, n := time.Time{}, -1, 0
	for i, s := range g.room.Seats {
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
	return fmt.Sprintf("your seat word: %s · join %s %s to come back", g.seatWord, g.code, g.seatWord)
}
