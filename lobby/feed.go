package lobby

import (
	"context"
	"sync"
	"time"
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
	// calls are OnRoomChanges' subscribers, each under a key of its own.
	calls map[*func()]struct{}
}

// RoomChanges returns a channel that receives a value whenever the room
// lists may have changed, until ctx ends; then it is closed. Changes that
// come while a value waits unread are merged into it, so a slow reader
// costs nothing and never holds anyone up.
func (li *listing) RoomChanges(ctx context.Context) <-chan struct{} {
	ch := make(chan struct{}, 1)
	f := &li.feed
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

// OnRoomChanges has f called whenever the room lists may have changed,
// as RoomChanges would send, until ctx ends: a screen can follow the
// lists without a goroutine waiting on a channel. f is called by whoever
// changed a room, holding locks: it must hand the news on and return
// (start a goroutine, say) without calling back into the lobby.
func (li *listing) OnRoomChanges(ctx context.Context, f func()) {
	fd := &li.feed
	key := &f
	fd.mu.Lock()
	if fd.calls == nil {
		fd.calls = map[*func()]struct{}{}
	}
	fd.calls[key] = struct{}{}
	fd.mu.Unlock()
	context.AfterFunc(ctx, func() {
		fd.mu.Lock()
		defer fd.mu.Unlock()
		delete(fd.calls, key)
	})
}

// roomsChanged wakes every RoomChanges subscriber. It never waits, so
// rooms call it under their own lock.
func (li *listing) roomsChanged() {
	f := &li.feed
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch := range f.subs {
		select {
		case ch <- struct{}{}:
		default: // one is already waiting: it stands for this one too
		}
	}
	for call := range f.calls {
		(*call)()
	}
}

// listPoll is how often lobby screens are told to read the lists again
// with a shared store, which announces to every instance only the
// changes lists show of rooms it does not hold (created, reseated,
// finished, deleted), not their every move: a room's round and acting
// seats reach a list here within listPoll.
const listPoll = 2 * time.Second

// pollLists wakes the lobby screens every listPoll while there are any,
// until ctx ends.
func (li *listing) pollLists(ctx context.Context) {
	tick := time.NewTicker(listPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		f := &li.feed
		f.mu.Lock()
		watched := len(f.subs)+len(f.calls) > 0
		f.mu.Unlock()
		if watched {
			li.roomsChanged()
		}
	}
}
