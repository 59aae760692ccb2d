package store

import (
	"context"
	"slices"
	"time"
)

// Lists are the rooms' indexes: each read costs the page it returns,
// however many rooms are stored, because the writes that change what a
// list holds (Create, SaveMeta, Append ending the game, Delete) keep it.
// Finished rooms leave every list but their players' histories.
type Lists interface {
	// OpenSeats returns up to limit public rooms not started with a free
	// seat, the most recently changed first.
	OpenSeats(ctx context.Context, limit int) ([]Meta, error)
	// InPlay returns up to limit public games started and not over, the
	// most recently started first.
	InPlay(ctx context.Context, limit int) ([]Meta, error)
	// PlayerRooms returns up to limit rooms where player holds a seat: the
	// unfinished ones first, newest first, then the finished ones, the
	// most recently ended first.
	PlayerRooms(ctx context.Context, player string, limit int) ([]Meta, error)
	// RoomCounts counts what the room quotas limit: the rooms host, and
	// those made from addr, created since since, and their unfinished
	// rooms up to limit (a count past the quota says nothing more). An
	// empty host or addr counts nothing.
	RoomCounts(ctx context.Context, host, addr string, since time.Time, limit int) (RoomCounts, error)
	// Due returns up to limit unfinished rooms whose last move (Updated)
	// is before before, the longest untouched first: what expiry looks
	// at. A room the caller leaves be is returned again by the next call.
	Due(ctx context.Context, before time.Time, limit int) ([]Meta, error)
}

// RoomCounts are RoomCounts' answer.
type RoomCounts struct {
	Made, AddrMade int // created since the time asked
	Open, AddrOpen int // unfinished, up to the limit asked
}

// The lists a room is in, by name: the names are the drivers' keys.
// Player IDs and addresses go into names as they are; the prefixes keep
// one kind of name from meeting another.
const (
	ListOpen = "open" // OpenSeats
	ListPlay = "play" // InPlay
	ListDue  = "due"  // Due
)

// ListPlayer is the list of player id's unfinished rooms.
func ListPlayer(id string) string { return "player:" + id }

// ListPlayed is the list of player id's finished rooms.
func ListPlayed(id string) string { return "played:" + id }

// ListHost is the list of host id's unfinished rooms, for RoomCounts.
func ListHost(id string) string { return "host:" + id }

// ListAddr is the list of the unfinished rooms made from addr, for
// RoomCounts.
func ListAddr(addr string) string { return "addr:" + addr }

// ListMadeBy is the log of the rooms host id created (Made).
func ListMadeBy(id string) string { return "madeby:" + id }

// ListMadeFrom is the log of the rooms created from addr (Made).
func ListMadeFrom(addr string) string { return "madefrom:" + addr }

// Listing is one list a room is in and its score there, which orders the
// list: a time in Unix milliseconds.
type Listing struct {
	List  string
	Score int64
}

// Listings are the lists m is in. A score never changes with a move, so
// a move writes no index: the in-play list is ordered by start, a
// player's unfinished rooms by creation, and the due list by Updated as
// of the last metadata write, which is at or before the last move. A
// reader of Due learns the true time from the metadata it reads anyway
// and moves the room along then (see the drivers).
func Listings(m Meta) []Listing {
	created, updated := m.Created.UnixMilli(), m.Updated.UnixMilli()
	var out []Listing
	if !m.Over {
		out = append(out, Listing{ListDue, updated})
		if m.Public && !m.Started && !m.Full() {
			out = append(out, Listing{ListOpen, updated})
		}
		if m.Public && m.Started {
			started := m.StartedAt
			if started.IsZero() { // stored before the field
				started = m.Created
			}
			out = append(out, Listing{ListPlay, started.UnixMilli()})
		}
		if m.Host != "" {
			out = append(out, Listing{ListHost(m.Host), created})
		}
		if m.HostAddr != "" {
			out = append(out, Listing{ListAddr(m.HostAddr), created})
		}
	}
	for _, p := range m.players() {
		if m.Over {
			out = append(out, Listing{ListPlayed(p), updated})
		} else {
			out = append(out, Listing{ListPlayer(p), created})
		}
	}
	return out
}

// Candidates are the lists m could have been in before it came to be
// as it is: those a write of m takes it out of when it is not in them
// now. A game's end is for good, so an unfinished room was never in its
// players' finished games.
func Candidates(m Meta) []string {
	out := []string{ListDue, ListOpen, ListPlay}
	if m.Host != "" {
		out = append(out, ListHost(m.Host))
	}
	if m.HostAddr != "" {
		out = append(out, ListAddr(m.HostAddr))
	}
	for _, p := range m.players() {
		out = append(out, ListPlayer(p))
		if m.Over {
			out = append(out, ListPlayed(p))
		}
	}
	return out
}

// Made are the creation logs m's Create adds to, for RoomCounts: unlike
// the lists, a deleted room stays in them, as it was made all the same.
func Made(m Meta) []string {
	var out []string
	if m.Host != "" {
		out = append(out, ListMadeBy(m.Host))
	}
	if m.HostAddr != "" {
		out = append(out, ListMadeFrom(m.HostAddr))
	}
	return out
}

// InList reports whether m belongs in list now, for readers checking an
// index's entry against the metadata.
func InList(m Meta, list string) bool {
	for _, l := range Listings(m) {
		if l.List == list {
			return true
		}
	}
	return false
}

// players are the distinct people seated in m.
func (m Meta) players() []string {
	var out []string
	for _, s := range m.Seats {
		if s.Player != "" && !slices.Contains(out, s.Player) {
			out = append(out, s.Player)
		}
	}
	return out
}
