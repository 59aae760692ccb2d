package room

// A room has two locks, and the three types below are the only way to
// hold them: what needs a lock is a method of the type that holds it, so
// no call can forget to take it, and no comment has to say "the caller
// holds". TestRoomLocksLiveInTypes holds the package to that: the locks
// are taken and the types made in this file alone, and the store's
// writes of a game are called from a writer's methods alone.
//
//   - writer: the room's changes, one at a time (moves, metadata,
//     catch-ups). Only a writer reaches the store's writes of the room's
//     game (Env.Writes); it is held across them, and nothing that
//     only reads the room, its presence or its chat waits for it.
//   - held: the room's memory (mu), never held across a store call, a
//     network read or a bot's thinking: a change takes what it needs
//     under it, calls the store outside it, and takes the result in
//     under it again.
//   - changing: both. The metadata, the table, the log and the clock
//     change only through it, so a writer reads them without mu. A
//     changing is made from a writer only: writing is taken before mu.

// writer is the room with its changes' lock held.
type writer struct{ *Room }

// lockWrites waits for the room's changes' lock.
func (r *Room) lockWrites() writer {
	r.writing.Lock()
	return writer{r}
}

func (w writer) unlock() { w.writing.Unlock() }

// held is the room with its memory's lock held.
type held struct{ *Room }

// lock waits for the room's memory's lock.
func (r *Room) lock() held {
	r.mu.Lock()
	return held{r}
}

func (h held) unlock() { h.mu.Unlock() }

// changing is the room with both its locks held: a writer that took the
// memory's lock to take a change in.
type changing struct{ held }

// lock takes the memory's lock too, to take a change in.
func (w writer) lock() changing {
	w.mu.Lock()
	return changing{held{w.Room}}
}
