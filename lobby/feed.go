package lobby

import (
	"context"
	"sync"
)

// roomFeed tells whoever shows room lists (the lobby screens) that a list
// may have changed: a room was created, deleted, filled, started or ended,
// or its round or acting seats moved on — here, or, with a shared store,
// on another instance (the same Changes feed the rooms catch up from).
// It says only "something changed": a subscriber reads the lists again,
// at the pace it chooses.
type roomFeed struct {
	mu   sync.Mutex
	subs map[chan struct{}]struct{}
}

// RoomChanges returns a channel that receives a value whenever the room
// lists may have changed, until ctx ends; then it is closed. Changes that
// come while a value waits unread are merged into it, so a slow reader
// costs nothing and never holds anyone up.
func (l *Lobby) RoomChanges(ctx context.Context) <-chan struct{} {
	ch := make(chan struct{}, 1)
	f := &l.feed
	f.mu.Lock()
	if f.subs == nil {
		f.subs = map[chan struct{}]struct{}{}
	}
	f.subs[ch] = struct{}{}
	f.mu.Unlock()
	context.AfterFunc(ctx, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.subs, ch)
		close(ch)
	})
	return ch
}

// roomsChanged wakes every RoomChanges subscriber. It never waits, so
// rooms call it under their own lock.
func (l *Lobby) roomsChanged() {
	f := &l.feed
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch := range f.subs {
		select {
		case ch <- struct{}{}:
		default: // one is already waiting: it stands for this one too
		}
	}
}
