package room

import (
	"slices"
	"time"
)

// recordRetry is how long a room waits to try recording again after the
// store failed.
const recordRetry = 30 * time.Second

// YourMove reports whether the room waits on player's move.
func (i RoomInfo) YourMove(player string) bool {
	seat := i.SeatOf(player)
	return seat >= 0 && i.Started && !i.Over && slices.Contains(i.Acting, seat)
}
