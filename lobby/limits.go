package lobby

import (
	"context"
	"fmt"
	"time"

	"github.com/smokestack/smokestack/engine"
)

// Limits bound what one player can make the lobby do, so that one client
// cannot fill the store or stall a room. Zero fields mean no limit.
type Limits struct {
	// RoomsPerHour bounds the rooms one player may create in any hour.
	RoomsPerHour int
	// OpenRooms bounds a player's unfinished rooms.
	OpenRooms int
	// AddrRoomsPerHour and AddrOpenRooms bound the same for all the
	// players of one address together (Player.Addr), so keys made by
	// the dozen do not make rooms by the hundred.
	AddrRoomsPerHour, AddrOpenRooms int
	// MovesPerSecond bounds the moves played for one seat, by all the
	// sessions holding it here together: bursts of twice as many pass, a faster stream is slowed to it, and
	// one that would wait over a second is refused move by move.
	MovesPerSecond float64
	// LookupMisses bounds the failed room lookups (lookups.go) one key
	// and one address may make in a LookupWindow: past it they may open
	// only their own rooms until the window ends. Past a quarter of it
	// each miss waits, LookupBackoff and twice as long each time after.
	LookupMisses  int
	LookupWindow  time.Duration
	LookupBackoff time.Duration
	// ChatPerMinute bounds the chat messages one person may send, in
	// rooms and the lobby together, after a burst of 5 (chatting.go).
	ChatPerMinute int
	// ProfilesPerHour bounds the profiles made for new keys from one
	// address in an hour (identity.go). A key's profile is made on its
	// first need, so a key that only connects uses none of it.
	ProfilesPerHour int
}

// DefaultLimits are the limits `smokestack serve` starts with.
func DefaultLimits() Limits {
	return Limits{RoomsPerHour: 20, OpenRooms: 10, AddrRoomsPerHour: 60, AddrOpenRooms: 30, MovesPerSecond: 20,
		LookupMisses: 20, LookupWindow: time.Hour, LookupBackoff: 250 * time.Millisecond, ChatPerMinute: 20,
		ProfilesPerHour: 20}
}

// checkRoomQuota refuses a new room to a host who made too many lately or
// holds too many unfinished ones, and to a host whose address did. It
// counts the rooms in the store (store.Lists.RoomCounts), so every
// instance sharing it counts the same. A guest has a new ID on every
// connection, so guests are counted by address only: all the guests from
// one address share one quota, the player's. With the server's per-address limits off there is no
// address: only the host is counted, and each guest connection has a
// quota of its own.
func (l *Lobby) checkRoomQuota(ctx context.Context, host Player) error {
	lim := l.cfg.Limits
	if lim.RoomsPerHour <= 0 && lim.OpenRooms <= 0 && lim.AddrRoomsPerHour <= 0 && lim.AddrOpenRooms <= 0 {
		return nil
	}
	// A page of each list at most, whatever the number of stored rooms:
	// past the quota a count says no more.
	c, err := l.cfg.Store.RoomCounts(ctx, host.ID, host.Addr, l.cfg.Now().Add(-time.Hour), max(lim.OpenRooms, lim.AddrOpenRooms))
	if err != nil {
		return l.unavailable("count rooms for the quota", err)
	}
	recent, open := c.Made, c.Open                 // the host's
	addrRecent, addrOpen := c.AddrMade, c.AddrOpen // the host's address's
	byAddr := host.Guest && host.Addr != ""
	if byAddr { // the guest's own rooms are among its address's
		recent, open = max(recent, addrRecent), max(open, addrOpen)
	}
	var refusal *LimitError
	switch {
	case lim.RoomsPerHour > 0 && recent >= lim.RoomsPerHour && byAddr:
		refusal = &LimitError{Reason: "rooms_per_hour", Msg: fmt.Sprintf("guests from your address created %d rooms in the last hour, the most allowed: try again room.Later, or connect with an SSH key", recent),
			Words: engine.Say("lobby.guestRoomsPerHour", engine.Num("N", recent))}
	case lim.RoomsPerHour > 0 && recent >= lim.RoomsPerHour:
		refusal = &LimitError{Reason: "rooms_per_hour", Msg: fmt.Sprintf("you created %d rooms in the last hour, the most allowed: try again later", recent),
			Words: engine.Say("lobby.roomsPerHour", engine.Num("N", recent))}
	case lim.AddrRoomsPerHour > 0 && addrRecent >= lim.AddrRoomsPerHour:
		refusal = &LimitError{Reason: "addr_rooms_per_hour", Msg: fmt.Sprintf("players from your address created %d rooms in the last hour, the most allowed: try again later", addrRecent)}
	case lim.OpenRooms > 0 && open >= lim.OpenRooms && byAddr:
		refusal = &LimitError{Reason: "open_rooms", Msg: fmt.Sprintf("guests from your address have %d unfinished rooms, the most allowed: try again room.Later, or connect with an SSH key", open),
			Words: engine.Say("lobby.guestOpenRooms", engine.Num("N", open))}
	case lim.OpenRooms > 0 && open >= lim.OpenRooms:
		refusal = &LimitError{Reason: "open_rooms", Msg: fmt.Sprintf("you have %d unfinished rooms, the most allowed: finish or end one first: they are under \"your games\" in the lobby", open),
			Words: engine.Say("lobby.openRooms", engine.Num("N", open))}
	case lim.AddrOpenRooms > 0 && addrOpen >= lim.AddrOpenRooms:
		refusal = &LimitError{Reason: "addr_open_rooms", Msg: fmt.Sprintf("players from your address have %d unfinished rooms, the most allowed: finish or end some first", addrOpen)}
	default:
		return nil
	}
	l.observer().Refused(refusal.Reason, host)
	return refusal
}
