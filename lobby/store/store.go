// Package store is what the lobby keeps and where: the records (rooms and
// their moves, profiles, ratings, chat, bans), the errors every driver
// answers with, and the interfaces a driver implements. A Store is a set of
// required parts, one per concern, that every driver has; the Cluster part
// is what instances sharing a store need of it, and a single node has none.
//
// The drivers live in packages of their own (store/mem, store/bolt,
// store/redis) and are held to one contract, storetest.Run.
package store

import (
	"context"
	"errors"
)

// Store is everything the lobby keeps. Every driver implements every
// part, so the lobby needs no type assertion to find one.
type Store interface {
	Rooms
	Lists
	Profiles
	Ratings
	Chats
	Bans
	Uptime
	// Ping checks that the store answers: for a readiness probe.
	Ping(ctx context.Context) error
	// Cluster is the part shared between server instances; nil when the
	// store serves one instance alone.
	Cluster() Cluster
	Close() error
}

// Store errors.
var (
	ErrNotFound = errors.New("no room with that code")
	ErrExists   = errors.New("room code already taken")
	// ErrConflict is also what a player is told when their change lost
	// every retry to others' changes, so it is worded for them.
	ErrConflict = errors.New("the room changed just then: try again")
	// ErrUnconfirmed is a write the store may have made but cannot
	// confirm is safe: too few replicas hold it, or its answer was lost
	// on the way back. It may stand or, after a failover, be gone, so it
	// is neither done nor undone.
	ErrUnconfirmed = errors.New("the write could not be confirmed")
)
