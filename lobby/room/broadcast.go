package room

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/lobby/store"
)

// broadcast pushes every connection its seat's current view, and sets the
// room's timer. Under the memory's lock, each connection has one writer
// and the newest update always wins.
func (r held) broadcast() { r.broadcastMove(noMover, time.Time{}) }

// noMover is a broadcast's mover when it shows no new move.
const noMover = -2

// broadcastMove is broadcast for a move seat played, stored at stored:
// the other seats' and the spectators' updates carry when (Update.Stored).
func (r held) broadcastMove(seat int, stored time.Time) {
	views := map[int]*seatView{}
	info := r.info()
	invite := ""
	if !r.meta.Public {
		invite = r.meta.Invite()
	}
	events := r.log.entries()
	for c := range r.conns {
		v := views[c.seat]
		if v == nil {
			v = &seatView{}
			var err error
			if v.value, err = r.table.viewValue(c.seat); err != nil {
				r.env.Log.Error("view", "code", r.code, "seat", c.seat, "err", err)
			}
			views[c.seat] = v
		}
		u := Update{Room: info, Seat: c.seat, Value: v.value, Notice: r.shownNotice(), Version: r.table.moves, Chat: r.recentChat(), Events: events}
		if seat != noMover && c.seat != seat {
			u.Stored = stored
		}
		if !c.valueOnly {
			u.View = v.asJSON(r, c.seat)
		}
		if c.seat >= 0 || c.invited || c.player.ID != "" && c.player.ID == r.meta.Host {
			u.Invite = invite
		}
		if c.player.Guest && c.seat >= 0 && c.seat < len(r.meta.Seats) {
			u.SeatWord = r.meta.Seats[c.seat].Word
		}
		r.push(c, u)
	}
	r.scheduleBot()
	r.recordLater()
}

// seatView is one seat's view in a broadcast: the game's value, made
// once for every connection of the seat, and its JSON, made once too but
// only when a connection reads it (Conn.SkipJSON).
type seatView struct {
	value any
	json  json.RawMessage
	made  bool // json is made, or failed
}

// asJSON is the seat's view as JSON, as Ruleset.View makes it; nil before
// the game starts.
func (v *seatView) asJSON(r held, seat int) json.RawMessage {
	if !v.made && v.value != nil {
		v.made = true
		var err error
		if v.json, err = json.Marshal(v.value); err != nil {
			r.env.Log.Error("view", "code", r.code, "seat", seat, "err", err)
		}
	}
	return v.json
}

// info describes the room as its sessions see it.
func (r held) info() RoomInfo {
	info := InfoOf(r.meta, r.conns, r.table.status)
	info.Recording = !r.recorded && r.toRecord()
	if r.outcome != nil {
		info.Ratings = players.SeatRatings(r.outcome, r.meta.Seats)
		if r.outcome.Solo != nil {
			solo := r.outcome.Solo.Record
			info.Solo = &solo
		}
	}
	now := r.env.Now()
	for seat := range info.Seats {
		s := &info.Seats[seat]
		if d, ok := r.clock.deadline(seat, &r.meta); ok {
			s.Deadline, s.OutOfTime = d, r.outOfTime(seat, now)
		}
		if s.Free || s.Bot != "" {
			continue
		}
		s.Connected = s.Connected || r.seen.elsewhere[seat]
		if !s.Connected {
			s.AwaySince = r.awaySince(seat)
		}
	}
	r.votes().addTo(&info, r.hostWatching())
	return info
}

// scheduleBot sets the room's one timer for its next piece of work: a bot
// move, after the configured pause when people are at the table so they
// can follow, at once when only bots remain; a seat's clock running out;
// an away seat going to a bot. Every change to the room comes through
// here (broadcast).
func (r held) scheduleBot() {
	if r.timer.thinking {
		return // botMoved schedules again when the bot has moved
	}
	now := r.env.Now()
	at, ok := r.nextWake(now)
	r.timer.set(at, ok, now, r.env.AfterFunc, r.botTurn)
}

// nextWake is when the room next has something to do.
func (r held) nextWake(now time.Time) (at time.Time, ok bool) {
	take := func(t time.Time) {
		if !ok || t.Before(at) {
			at, ok = t, true
		}
	}
	if r.table.state == nil || r.meta.Over || r.botSeat(now) < 0 {
		r.timer.moved()
	} else {
		delay := r.env.BotDelay
		if !slices.ContainsFunc(r.meta.Seats, func(s store.Seat) bool { return s.Bot == "" && s.Player != "" }) {
			delay = 0
		}
		if r.notice != "" {
			delay = max(delay, botRetry)
		}
		take(r.timer.readyAt(now, delay))
	}
	if d, has := r.clock.next(&r.meta, now); has {
		take(d) // to show everyone the seat ran out; its bot moves after the pause
	}
	if h, seat := r.votes().next(len(r.conns) > 0); seat >= 0 {
		take(Later(h, r.timer.handoverRetry))
	}
	return at, ok
}

// botSeat returns the first acting seat a bot plays now, or -1: a bot's
// seat, or a person's whose time for the turn ran out.
func (r held) botSeat(now time.Time) int {
	for _, seat := range r.table.status.Acting {
		if r.botPlays(seat, now) {
			return seat
		}
	}
	return -1
}

// botPlays reports whether a bot plays seat's moves now.
func (r held) botPlays(seat int, now time.Time) bool {
	return seat >= 0 && seat < len(r.meta.Seats) && (r.meta.Seats[seat].Bot != "" || r.outOfTime(seat, now))
}

// sharePresence writes this instance's claim on the room when the seats
// held here changed, and takes in the other instances' claims that come
// back with it. Leaving withdraws the claim. The store is asked outside
// the memory's lock, so a slow store delays no move. It reports false
// when the claim is still to be written: the store failed.
func (r *Room) sharePresence(ctx context.Context, p store.Presence, leaving bool) bool {
	now := r.env.presenceNow()
	h := r.lock()
	c, ok := h.seen.claim(leaving, now)
	h.unlock()
	if !ok {
		return true
	}
	sp, err := p.ClaimSeats(ctx, r.code, c.held, c.last, now)
	if err != nil {
		r.env.Fault("seat presence not shared", err, "code", r.code)
		return false // still dirty: the next round tries again
	}
	h = r.lock()
	defer h.unlock()
	h.seen.wrote(c)
	h.takePresence(c.ticket, sp)
	return true
}

// readPresence asks the store what the other instances claim, when there
// are other instances, outside the memory's lock.
func (r *Room) readPresence(ctx context.Context) error {
	if r.env.Presence == nil {
		return nil
	}
	h := r.lock()
	ticket := h.seen.ask()
	h.unlock()
	sp, err := r.env.Presence.SeatPresence(ctx, r.code)
	if err != nil {
		return err
	}
	h = r.lock()
	defer h.unlock()
	h.takePresence(ticket, sp)
	return nil
}

// takePresence adopts the other instances' claims as read by the read
// numbered ticket, and pushes new views if they changed what the room
// shows.
func (r held) takePresence(ticket int, sp store.SharedPresence) {
	if r.seen.take(ticket, sp, r.env.heartbeats(), r.env.PresenceTTL) && len(r.conns) > 0 {
		r.broadcast()
	}
}

// seePresence sees the claims last read through the instances' newest
// heartbeats, and pushes new views if an instance's death or return
// changed what the room shows.
func (r *Room) seePresence() {
	h := r.lock()
	defer h.unlock()
	if h.seen.see(r.env.heartbeats(), r.env.PresenceTTL) && len(h.conns) > 0 {
		h.broadcast()
	}
}

// reclaimPresence has the room's claim written again: the store lost it.
func (r *Room) reclaimPresence() {
	h := r.lock()
	defer h.unlock()
	h.seen.reclaim()
}

// readChat reads the room's newest chat from the store and pushes it to
// the room's sessions. Reads run outside the room's lock; of two that
// overlap, the later one asked wins.
func (r *Room) readChat(ctx context.Context) {
	h := r.lock()
	h.chatAsked++
	asked := h.chatAsked
	h.unlock()
	lines, err := r.env.Store.Chat(ctx, r.code, chat.Recent)
	if err != nil {
		r.env.Fault("read chat", err, "code", r.code)
		return
	}
	h = r.lock()
	defer h.unlock()
	if asked <= h.chatTaken {
		return
	}
	h.chatTaken, h.chat = asked, lines
	h.broadcast()
}

// recentChat is the chat an update carries. It shares the room's slice,
// clipped so the room's later appends never reach it; the room never
// changes a line it holds.
func (r held) recentChat() []store.ChatLine { return slices.Clip(r.chat) }

// toRecord reports whether the room's game is over and counts in its
// players' records, so an outcome will follow.
func (r held) toRecord() bool {
	m := r.meta
	if !players.Counts(m) {
		return false
	}
	people := 0
	for _, s := range m.Seats {
		if s.Player != "" && !players.IsGuest(s.Player) {
			people++
		}
	}
	return people >= 2 || people == 1 && len(m.Seats) == 1 && r.game.SoloOpponent != nil
}

// recordLater records the room in the background once its game is over,
// and then pushes the rating changes to its sessions; the store is
// written outside the memory's lock.
func (r held) recordLater() {
	if r.recording || r.recorded || !r.toRecord() {
		return
	}
	r.recording = true
	meta := r.meta
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		o, err := r.env.Record(ctx, meta)
		h := r.Room.lock()
		defer h.unlock()
		h.recording = false
		if err != nil {
			h.env.Fault("record game", err, "code", meta.Code)
			time.AfterFunc(recordRetry, func() {
				h := r.Room.lock()
				defer h.unlock()
				h.recordLater()
			})
			return
		}
		h.recorded, h.outcome = true, o
		h.broadcast()
	}()
}
