package bolt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/smokestack/smokestack/lobby/store"
)

// The lists are a store.MemLists, built from every room when the file
// opens and changed once each write's transaction has committed, so they
// show only what is on disk. The Store's embedded store.Lists is
// them, answering the reads. Every room write goes through write, whose
// group commit runs one transaction at a time and its commit handlers
// before the next begins, so they change in the order the file does.

// write runs fn, a room write, in the group commit (batch.go); should
// ctx end while fn waits its turn, fn is not run. A refusal
// (no such room, the code taken, the room changed: fn returns it having
// written nothing) is its writer's answer alone, not the transaction's
// error, which would fail the writes sharing it too.
func (s *Store) write(ctx context.Context, fn func(*bolt.Tx) error) error {
	var refused error
	err := s.group.update(ctx, func(tx *bolt.Tx) error {
		refused = nil // fn runs again should its transaction fail
		err := fn(tx)
		if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrExists) || errors.Is(err, store.ErrConflict) {
			refused, err = err, nil
		}
		return err
	})
	if err != nil {
		return err
	}
	return refused
}

// relist files m in the lists once tx commits; created adds it to its
// host's creation logs too.
func (s *Store) relist(tx *bolt.Tx, m store.Meta, created bool) {
	tx.OnCommit(func() { s.lists.Put(m, created) })
}

// unlist takes code out of the lists once tx commits.
func (s *Store) unlist(tx *bolt.Tx, code string) {
	tx.OnCommit(func() { s.lists.Remove(code) })
}

// buildLists reads every room into the lists, once.
func (s *Store) buildLists() error {
	s.lists = store.NewMemLists(s.metas)
	s.Lists = s.lists
	return s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(roomsBucket).ForEach(func(k, v []byte) error {
			var m store.Meta
			if err := json.Unmarshal(v, &m); err != nil {
				return fmt.Errorf("room %s: %w", k, err)
			}
			s.lists.Put(m, true)
			return nil
		})
	})
}

// metas is the metadata of the rooms codes, in order, skipping those gone.
func (s *Store) metas(codes []string) (out []store.Meta, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		for _, code := range codes {
			var m store.Meta
			switch err := getMeta(tx, code, &m); err {
			case nil:
				out = append(out, m)
			case store.ErrNotFound:
			default:
				return fmt.Errorf("room %s: %w", code, err)
			}
		}
		return nil
	})
	return out, err
}
