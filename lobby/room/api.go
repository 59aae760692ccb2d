package room

import (
	"context"

	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/lobby/store"
)

// What the lobby asks of a room it holds, each call taking the locks it
// needs (roomlocks.go) and no more.

// Open makes the room of game g that the store's m and moves describe,
// replayed, with its seats' presence and its chat read: nobody else
// knows the room yet. An error is the game not replaying on this server.
func Open(ctx context.Context, env *Env, g Game, m store.Meta, moves []store.Record) (*Room, error) {
	r := New(env, g, m)
	if err := r.rebuild(m, moves); err != nil {
		return nil, err
	}
	if err := r.readPresence(ctx); err != nil {
		// Not fatal: the next change or renewal round brings it.
		env.Fault("seat presence", err, "code", m.Code)
	}
	lines, err := env.Store.Chat(ctx, m.Code, chat.Recent)
	if err != nil {
		env.Fault("read chat", err, "code", m.Code) // the next line said brings it
	}
	h := r.lock()
	h.chat = lines
	// A game whose recording was lost (its instance died) is recorded now.
	h.recordLater()
	h.unlock()
	return r, nil
}

// Code is the room's code.
func (r *Room) Code() string { return r.code }

// Game is the game the room plays.
func (r *Room) Game() Game { return r.game }

// Meta is the room's metadata as it is now.
func (r *Room) Meta() store.Meta {
	h := r.lock()
	defer h.unlock()
	return h.meta
}

// Info describes the room as its sessions see it.
func (r *Room) Info() RoomInfo {
	h := r.lock()
	defer h.unlock()
	return h.info()
}

// Connected reports whether any session here is in the room.
func (r *Room) Connected() bool { return r.connected() }

// Broadcast pushes the room as it is to its sessions.
func (r *Room) Broadcast() {
	h := r.lock()
	defer h.unlock()
	h.broadcast()
}

// AdmitWord is the room's metadata as a lookup by p with a seat word is
// to judge it (seatword.go).
func (r *Room) AdmitWord(word string, p Player) store.Meta {
	h := r.lock()
	defer h.unlock()
	return h.admitWord(word, p)
}

// Join seats p (or takes back their seat, with word a guest's seat
// word) and connects them.
func (r *Room) Join(ctx context.Context, p Player, word string) (*Conn, error) {
	return r.join(ctx, p, word)
}

// Watch connects p as a spectator; share marks one shown the invite.
func (r *Room) Watch(p Player, share bool) *Conn { return r.watch(p, share) }

// AddBot seats bot in seat, on by's word as the host.
func (r *Room) AddBot(ctx context.Context, by Player, seat int, bot string) error {
	return r.addBot(ctx, by, seat, bot)
}

// End stops the game for good: by the host, or with by nil an operator.
func (r *Room) End(ctx context.Context, by *Player, why string) error { return r.end(ctx, by, why) }

// Vote casts by's vote to hand seat to the game's bot.
func (r *Room) Vote(ctx context.Context, by Player, seat int) (VoteResult, error) {
	return r.vote(ctx, by, seat)
}

// Rematch accepts a rematch of the finished game for p.
func (r *Room) Rematch(ctx context.Context, p Player) (RoomInfo, error) { return r.rematch(ctx, p) }

// RefreshSoon has the room catch up with a change made elsewhere.
func (r *Room) RefreshSoon(ctx context.Context) { r.refreshSoon(ctx) }

// ReadChatSoon has the room read its chat, which another instance wrote.
func (r *Room) ReadChatSoon(ctx context.Context) {
	r.chatReads.Kick(func() { r.readChat(ctx) })
}

// ReadPresenceSoon has the room read which seats the other instances
// hold, as one of them changed its claim.
func (r *Room) ReadPresenceSoon(ctx context.Context) {
	r.seatReads.Kick(func() {
		if err := r.readPresence(ctx); err != nil {
			r.env.Fault("seat presence", err, "code", r.code)
		}
	})
}

// SharePresence writes the room's claim on the seats held here if they
// changed since it was last written (withdraws it, leaving), and reports
// false when that is still to be done: the store failed.
func (r *Room) SharePresence(ctx context.Context, p store.Presence, leaving bool) bool {
	return r.sharePresence(ctx, p, leaving)
}

// SeePresence works out again who holds the room's seats, from the claims
// last read and the instances' newest heartbeats (Env.Heartbeats).
func (r *Room) SeePresence() { r.seePresence() }

// ReclaimPresence has the room's claim on the seats held here written at
// the next SharePresence, as the store lost it.
func (r *Room) ReclaimPresence() { r.reclaimPresence() }

// Shown is how many stored moves the room's table applied, and the notice
// its sessions are shown: what a test describes a room by.
func (r *Room) Shown() (moves int, notice string) {
	h := r.lock()
	defer h.unlock()
	return h.table.moves, h.shownNotice()
}
