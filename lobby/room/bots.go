package room

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/smokestack/smokestack/engine"
)

var errSpectator = Refuse("spectators cannot play moves", "lobby.spectatorMoves")

// botRetry is how long a bot waits after its move could not be stored.
const botRetry = time.Second

// errMovedOn is a bot's move that lost the race to the store: the game
// changed under it, and the bot thinks again rather than play a move
// chosen for a position that is gone.
var errMovedOn = errors.New("the game moved on")

// botTimer is a room's one timer, set after every change to the room's
// next piece of work (room.scheduleBot): a bot's move, a seat's clock
// running out (clock.go), an away seat going to a bot (votes.go); and the
// bots it has made. The room's lock guards it.
type botTimer struct {
	stop     func() bool // stops the pending wake-up; nil when none
	at       time.Time   // when it goes off
	gen      int         // numbers wake-ups, so a stale one does nothing
	thinking bool        // a bot chooses a move outside the room's lock
	// ready is when the bot that may act moves; zero while none may.
	ready time.Time
	// handoverRetry is, after a handover failed to store, when to try
	// again.
	handoverRetry time.Time
	bots          map[int]seatBot
}

// seatBot is the bot made for a seat.
type seatBot struct {
	name string
	play engine.Bot
}

// Set has fire called at at, on the timers after gives, unless a
// wake-up as soon is pending already; fire is told the wake-up's number
// for fired. Without ok nothing is due: the pending wake-up is stopped.
// While a bot thinks nothing is set: the room sets it after the move.
func (t *botTimer) set(at time.Time, ok bool, now time.Time, after func(time.Duration, func()) func() bool, fire func(gen int)) {
	switch {
	case t.thinking:
		return
	case !ok:
		t.cancel()
		return
	case t.stop != nil && !t.at.After(at):
		return // already due as soon
	}
	t.cancel()
	t.gen++
	gen := t.gen
	t.at = at
	t.stop = after(at.Sub(now), func() { fire(gen) })
}

// cancel stops the pending wake-up. One that fired already and waits for
// the room's lock finds its number stale (fired) and does nothing.
func (t *botTimer) cancel() {
	if t.stop != nil {
		t.stop()
		t.stop = nil
	}
	t.gen++
}

// fired reports whether the wake-up numbered gen is the one due, and
// notes it gone off: false for a stale one, or while a bot thinks.
func (t *botTimer) fired(gen int) bool {
	if gen != t.gen || t.thinking {
		return false
	}
	t.stop = nil
	return true
}

// readyAt is when the bot that may act now moves: delay after it first
// could, the same however often the room asks until it has moved
// (moved).
func (t *botTimer) readyAt(now time.Time, delay time.Duration) time.Time {
	if t.ready.IsZero() {
		t.ready = now.Add(delay)
	}
	return t.ready
}

// moved notes that no bot waits to move now: the next waits its own
// pause.
func (t *botTimer) moved() { t.ready = time.Time{} }

// player returns the bot called name for seat, made once per seat and
// bot by g, seeded from seed so a bot game replays the same way.
func (t *botTimer) player(g Game, seat int, name string, seed uint64) (engine.Bot, error) {
	if b, ok := t.bots[seat]; ok && b.name == name {
		return b.play, nil
	}
	if err := CheckBot(g, name); err != nil {
		return nil, err
	}
	f, err := g.Bots.New(name, seed+uint64(seat)+1)
	if err != nil {
		return nil, err
	}
	if t.bots == nil {
		t.bots = map[int]seatBot{}
	}
	t.bots[seat] = seatBot{name, f}
	return f, nil
}

// forget drops the bot made for seat: a person took the seat back.
func (t *botTimer) forget(seat int) { delete(t.bots, seat) }

// Later is the later of a and b.
func Later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// CheckBot refuses a bot name g does not offer, or any bot for a game
// without bots.
func CheckBot(g Game, name string) error {
	if g.Bots.New == nil {
		return noBots(g.Rules.Title())
	}
	if !g.HasBot(name) {
		return Refuse(fmt.Sprintf("%s has no bot %q: choose %s", g.Rules.Title(), name, strings.Join(g.Bots.Names, " or ")), "lobby.noSuchBot",
			engine.Str("Game", g.Rules.Title()), engine.Str("Bot", fmt.Sprintf("%q", name)), engine.Str("Bots", strings.Join(g.Bots.Names, ", ")))
	}
	return nil
}

// BotName is the name a bot of kind bot is seated under in seat.
func BotName(bot string, seat int) string { return fmt.Sprintf("%s bot %d", bot, seat+1) }
