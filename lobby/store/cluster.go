package store

import (
	"context"
	"time"
)

// Cluster is what server instances sharing a store need of it: who holds
// which seats, what changed elsewhere, failed lookups counted across
// instances, operators' requests to every instance, and leases for the
// work one instance does for all. A store serving one instance alone has
// no Cluster (Store.Cluster is nil): the lobby then knows presence from
// its own sessions, counts failed lookups itself and holds every lease.
type Cluster interface {
	Presence
	Changes
	Misses
	Instances
	Leases // lease.go
}

// Changes delivers a RoomChange for every room this instance follows
// that changed elsewhere, so it catches up and pushes the new view to its
// sessions, and for any room whose listing changed (created, reseated,
// finished, deleted), so lists are read again; a SeatsChange when the
// seats another instance holds in it changed; a ChatChange for a chat
// that changed; a ListsChange when news may have been missed. An
// instance follows only the rooms it holds, so its work grows with its
// own players' rooms, not with every move of the service.
type Changes interface {
	Changes(ctx context.Context) <-chan Change
	// Follow has Changes deliver room code's changes from now on; each
	// kind of its news is delivered once soon after, as news may have
	// been missed before.
	Follow(code string)
	// Unfollow stops them.
	Unfollow(code string)
}

// Change is one piece of news from the other instances.
type Change struct {
	Kind ChangeKind
	// Code is the room the news is of; for a ChatChange "" is the
	// lobby's chat, and a ListsChange has none.
	Code string
}

// ChangeKind is what a Change is news of.
type ChangeKind uint8

// The kinds of news.
const (
	// RoomChange: room Code changed, its game or its listing.
	RoomChange ChangeKind = iota + 1
	// ChatChange: someone spoke in room Code's chat (the lobby's for "").
	ChatChange
	// ListsChange: news may have been lost (a channel was resubscribed),
	// so every list is read again.
	ListsChange
	// SeatsChange: the seats another instance holds in room Code changed
	// (a claim made, changed or withdrawn), so its presence is read
	// again. A move is a RoomChange alone: it changes no one's seat.
	SeatsChange
)

// Presence is who holds a room's seats across the instances. The
// players of one room may sit on different instances, so whether a seat is
// held, and since when it has been empty, has to be known to all of them:
// otherwise a host could hand to a bot the seat of someone playing through
// another instance. Liveness is per instance, not per seat: each instance
// says it is alive on its heartbeat, one write whatever it holds, and
// writes its claim on a room's seats only when the seats its sessions hold
// there change. A claim counts while its instance is alive, so the seats
// of an instance that died show as away once its heartbeats have stopped
// for the TTL, without anyone cleaning up, and away since its last
// heartbeat, the same on every instance.
type Presence interface {
	// Heartbeat records this instance alive at now and returns when each
	// instance sharing the store last was. lost reports that the store
	// had no record of this instance although it beat before: the store
	// lost its data (a Redis restarted empty), claims included, so they
	// are to be written again.
	Heartbeat(ctx context.Context, now time.Time) (beats Heartbeats, lost bool, err error)
	// ClaimSeats replaces this instance's claim on room code with held,
	// the seats its sessions hold as of now (none: the claim is
	// withdrawn). Each seat in last was held here until that time; the
	// store keeps the latest such time per seat, which is when an empty
	// seat became empty. It returns the room's presence as the other
	// instances claim it.
	ClaimSeats(ctx context.Context, code string, held []int, last map[int]time.Time, now time.Time) (SharedPresence, error)
	// SeatPresence returns the room's presence as the other instances
	// claim it.
	SeatPresence(ctx context.Context, code string) (SharedPresence, error)
}

// Heartbeats is when each instance sharing a store last said it was
// alive (Presence.Heartbeat), as read at At by the reader's clock.
type Heartbeats struct {
	At   time.Time
	Last map[string]time.Time
}

// SharedPresence is what the other instances sharing a store say about a
// room's seats: their claims, and when seats were let go.
type SharedPresence struct {
	// Claims holds each other instance's claim, by instance.
	Claims map[string]Claim
	// Left is when each seat was last let go by an instance that held
	// it: the latest such time, the same for every reader.
	Left map[int]time.Time
}

// Claim is the seats one instance's sessions hold in a room, as it last
// wrote them at At (by its own clock).
type Claim struct {
	Seats []int
	At    time.Time
}

// Seats is the room's presence as seen from in with liveness ttl: the
// seats that sessions on live instances hold (elsewhere), and when each
// seat was last held (lastHeld). A dead instance's seats were held until
// it was last alive: its last heartbeat, or its claim when that is newer
// (an instance that claimed before its first heartbeat was read). Before
// any heartbeat was read (in.At zero) every claim counts: a seat is never
// freed for want of news.
func (p SharedPresence) Seats(in Heartbeats, ttl time.Duration) (elsewhere map[int]bool, lastHeld map[int]time.Time) {
	elsewhere, lastHeld = map[int]bool{}, map[int]time.Time{}
	for seat, t := range p.Left {
		lastHeld[seat] = t
	}
	for name, c := range p.Claims {
		last := c.At
		if t := in.Last[name]; t.After(last) {
			last = t
		}
		alive := in.At.IsZero() || last.Add(ttl).After(in.At)
		for _, seat := range c.Seats {
			if alive {
				elsewhere[seat] = true
			} else if last.After(lastHeld[seat]) {
				lastHeld[seat] = last
			}
		}
	}
	return elsewhere, lastHeld
}

// Misses counts failed room lookups (lobby/lookups.go) by name: a player's
// key or an address. Counts live in windows: a name's first miss opens
// one, and its count goes back to zero when the window ends. Counted in
// the shared store, guesses spread over several instances are counted
// once; a single node counts them in its own memory.
type Misses interface {
	// Miss counts one miss by name at now, opening a window of length
	// window if name has none, and returns name's count in its window
	// and when the window ends.
	Miss(ctx context.Context, name string, now time.Time, window time.Duration) (n int, ends time.Time, err error)
	// Misses returns name's count in its window at now (0 when it has
	// none) and when that window ends.
	Misses(ctx context.Context, name string, now time.Time) (n int, ends time.Time, err error)
	// Turn reserves the time name's next miss is answered: wait after
	// the time reserved last, or after now if that is past. It returns
	// how long from now that is. Misses in parallel so wait in turn, on
	// every instance, rather than each waiting its own wait at once.
	Turn(ctx context.Context, name string, now time.Time, wait time.Duration) (time.Duration, error)
}

// OperatorRequest is an operator's command for every instance sharing a
// store: list their sessions, close one, show an announcement, close the
// sessions a new ban covers. The lobby carries it without understanding
// it; the server answers it.
type OperatorRequest struct {
	Kind string   `json:"kind"`
	Args []string `json:"args,omitempty"`
}

// OperatorAnswer is one instance's answer to an OperatorRequest.
type OperatorAnswer struct {
	// Instance names the instance that answered ("host 10.0.0.5:2222").
	Instance string `json:"instance"`
	// Rows are what the instance lists (its sessions), N what it counts
	// (terminals shown an announcement, sessions closed).
	Rows [][]string `json:"rows,omitempty"`
	N    int        `json:"n"`
	Text string     `json:"text,omitempty"`
}

// Instances carries operators' requests to every instance and
// brings their answers back, so an operator behind a balancer reaches all
// of them from whichever one they land on.
type Instances interface {
	// AskInstances sends req to every instance answering requests on
	// the store, this one included, and gathers their answers until
	// each has answered or ctx ends. asked is how many instances heard
	// the request.
	AskInstances(ctx context.Context, req OperatorRequest) (answers []OperatorAnswer, asked int, err error)
	// AnswerInstances answers every instance's requests with answer
	// until ctx ends or the store closes.
	AnswerInstances(ctx context.Context, answer func(context.Context, OperatorRequest) OperatorAnswer)
}
