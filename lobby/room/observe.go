package room

import "time"

// Observer hears what the lobby does, for metrics. Its methods must be
// quick and safe to call from many goroutines at once.
type Observer interface {
	// MoveStored reports a move stored, and how long the store took.
	MoveStored(commit time.Duration)
	// MoveShown reports how long a player's move took from reaching the
	// lobby to being pushed to every session here that shows the room.
	MoveShown(d time.Duration)
	// StoreFailed reports a store error a room ran into.
	StoreFailed(err error)
	// BotThought reports how long a bot took to choose a move.
	BotThought(d time.Duration)
	// Refused reports a LimitError given to who.
	Refused(reason string, who Player)
}

// NoObserver observes nothing: a lobby or room without metrics.
type NoObserver struct{}

func (NoObserver) MoveStored(time.Duration) {}
func (NoObserver) MoveShown(time.Duration)  {}
func (NoObserver) StoreFailed(error)        {}
func (NoObserver) BotThought(time.Duration) {}
func (NoObserver) Refused(string, Player)   {}
