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
// finished, deleted), so lists are read again; a ChatChange for a chat
// that changed; a ListsChange when news may have been missed. An
// instance follows only the rooms it holds, so its work grows with its
// own players' rooms, not with every move of the service.
type Changes interface {
	Changes(ctx context.Context) <-chan Change
	// Follow has Changes deliver room code's changes from now on; the
	// code is delivered once soon after, as news may have been missed
	// before.
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
)

// Presence is who holds a room's seats across the instances. The
// players of one room may sit on different instances, so whether a seat is
// held, and since when it has been empty, has to be known to all of them:
// otherwise a host could hand to a bot the seat of someone playing through
// another instance. Each instance claims the seats its sessions hold for a
// while and renews the claim; a claim that is not renewed lapses, so the
// seats of an instance that died show as away without anyone cleaning up.
type Presence interface {
	// ClaimSeats replaces this instance's claim on room code: its sessions
	// hold the seats in held until now+ttl (none: the claim is withdrawn).
	// Each seat in last was held here until that time; the store keeps the
	// latest such time per seat, which is when an empty seat became empty.
	// It returns the room's presence as the other instances claim it.
	ClaimSeats(ctx context.Context, code string, held []int, last map[int]time.Time, now time.Time, ttl time.Duration) (SharedPresence, error)
	// SeatPresence returns the room's presence as the other instances claim
	// it at now.
	SeatPresence(ctx context.Context, code string, now time.Time) (SharedPresence, error)
}

// SharedPresence is what the instances sharing a store say about a room's
// seats.
type SharedPresence struct {
	// Elsewhere holds the seats that sessions on other live instances hold.
	Elsewhere map[int]bool
	// LastHeld is when each seat was last known held by any instance: for a
	// seat nobody holds, the time it became empty, the same on every
	// instance.
	LastHeld map[int]time.Time
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
