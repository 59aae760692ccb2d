// Package bolt is the store of a single node in one bbolt file: durable,
// with no Cluster part.
package bolt

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// Store is the embedded durable store of a single node: one bbolt file
// in the data directory. Every write is an fsynced transaction, so a move is
// on disk before anyone is told it was played.
type Store struct {
	db          *bolt.DB
	lists       *store.MemLists // built when the file opens; see lists.go
	store.Lists                 // reads lists
	group       *group          // commits moves together (batch.go)
}

var _ store.Store = (*Store)(nil)

var (
	roomsBucket = []byte("rooms") // code -> Meta JSON
	movesBucket = []byte("moves") // code -> bucket of index -> Record JSON
)

// Open opens (creating if needed) the store at path.
func Open(path string) (*Store, error) {
	// Every commit is fsynced (moves arriving together share one, see
	// batch.go). Without the list of free pages written at each
	// (NoFreelistSync, as etcd runs bbolt) a commit writes fewer pages
	// and takes half as long; bbolt finds the free pages again by a scan
	// when it opens the file. The map freelist keeps that list cheap to
	// search as the file grows.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second,
		NoFreelistSync: true, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return nil, fmt.Errorf("open room store %s: %w (is another server using this data directory?)", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{roomsBucket, movesBucket} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("prepare room store: %w", err)
	}
	s := &Store{db: db, group: newGroup(db)}
	if err := s.buildLists(); err != nil {
		db.Close()
		return nil, fmt.Errorf("list rooms: %w", err)
	}
	return s, nil
}

// Create implements store.Rooms.
func (s *Store) Create(ctx context.Context, m store.Meta) error {
	return s.write(ctx, func(tx *bolt.Tx) error { return s.create(tx, m) })
}

func (s *Store) create(tx *bolt.Tx, m store.Meta) error {
	rooms := tx.Bucket(roomsBucket)
	if rooms.Get([]byte(m.Code)) != nil {
		return store.ErrExists
	}
	if _, err := tx.Bucket(movesBucket).CreateBucketIfNotExists([]byte(m.Code)); err != nil {
		return err
	}
	if err := putJSON(rooms, []byte(m.Code), m); err != nil {
		return err
	}
	s.relist(tx, m, true)
	return nil
}

// Load implements store.Rooms.
func (s *Store) Load(_ context.Context, code string, from int) (m store.Meta, moves []store.Record, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		if err := getMeta(tx, code, &m); err != nil {
			return err
		}
		m.Moves, moves, err = readMoves(tx, code, from)
		return err
	})
	return m, moves, err
}

// Append implements store.Rooms. Moves of many rooms that arrive together
// share one transaction and one fsync (batch.go), and each returns once
// its own is on disk.
func (s *Store) Append(ctx context.Context, code string, at int, r store.Record, st engine.Status) error {
	return s.write(ctx, func(tx *bolt.Tx) error { return s.append(tx, code, at, r, st) })
}

func (s *Store) append(tx *bolt.Tx, code string, at int, r store.Record, st engine.Status) error {
	var m store.Meta
	if err := getMeta(tx, code, &m); err != nil {
		return err
	}
	b := tx.Bucket(movesBucket).Bucket([]byte(code))
	if b == nil {
		return store.ErrNotFound
	}
	if logLength(b) != at {
		return store.ErrConflict
	}
	if err := putJSON(b, index(at), r); err != nil {
		return err
	}
	m.Updated = r.At
	m.SetStatus(st)
	if err := putJSON(tx.Bucket(roomsBucket), []byte(code), m); err != nil {
		return err
	}
	if st.Result != nil {
		s.relist(tx, m, false) // the game is over
	}
	return nil
}

// SaveMeta implements store.Rooms.
func (s *Store) SaveMeta(ctx context.Context, m store.Meta) error {
	return s.write(ctx, func(tx *bolt.Tx) error { return s.saveMeta(tx, m) })
}

func (s *Store) saveMeta(tx *bolt.Tx, m store.Meta) error {
	var old store.Meta
	if err := getMeta(tx, m.Code, &old); err != nil {
		return err
	}
	if old.Version != m.Version-1 {
		return store.ErrConflict
	}
	if err := putJSON(tx.Bucket(roomsBucket), []byte(m.Code), m); err != nil {
		return err
	}
	s.relist(tx, m, false)
	return nil
}

// List implements store.Rooms.
func (s *Store) List(context.Context) (out []store.Meta, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(roomsBucket).ForEach(func(_, v []byte) error {
			var m store.Meta
			if err := json.Unmarshal(v, &m); err != nil {
				return err
			}
			out = append(out, m)
			return nil
		})
	})
	return out, err
}

// Delete implements store.Rooms.
func (s *Store) Delete(ctx context.Context, code string) error {
	return s.write(ctx, func(tx *bolt.Tx) error { return s.delete(tx, code) })
}

func (s *Store) delete(tx *bolt.Tx, code string) error {
	if err := tx.Bucket(roomsBucket).Delete([]byte(code)); err != nil {
		return err
	}
	if tx.Bucket(movesBucket).Bucket([]byte(code)) != nil {
		if err := tx.Bucket(movesBucket).DeleteBucket([]byte(code)); err != nil {
			return err
		}
	}
	s.unlist(tx, code)
	return nil
}

// Close implements store.Rooms.
func (s *Store) Close() error { return s.db.Close() }

func getMeta(tx *bolt.Tx, code string, m *store.Meta) error {
	v := tx.Bucket(roomsBucket).Get([]byte(code))
	if v == nil {
		return store.ErrNotFound
	}
	return json.Unmarshal(v, m)
}

// readMoves returns the length of a room's log and its moves from from on.
func readMoves(tx *bolt.Tx, code string, from int) (int, []store.Record, error) {
	b := tx.Bucket(movesBucket).Bucket([]byte(code))
	if b == nil {
		return 0, nil, store.ErrNotFound
	}
	var out []store.Record
	c := b.Cursor()
	for k, v := c.Seek(index(from)); k != nil; k, v = c.Next() {
		var r store.Record
		if err := json.Unmarshal(v, &r); err != nil {
			return 0, nil, fmt.Errorf("room %s move %d: %w", code, binary.BigEndian.Uint64(k), err)
		}
		out = append(out, r)
	}
	return logLength(b), out, nil
}

// logLength is the number of moves in a room's bucket: keys are the move
// indexes 0, 1, 2… in order, so the last key says it.
func logLength(b *bolt.Bucket) int {
	if k, _ := b.Cursor().Last(); k != nil {
		return int(binary.BigEndian.Uint64(k)) + 1
	}
	return 0
}

func index(i int) []byte { return binary.BigEndian.AppendUint64(nil, uint64(i)) }

func putJSON(b *bolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, data)
}

// Ping implements store.Store: it reports whether the bbolt file is open.
func (s *Store) Ping(context.Context) error {
	return s.db.View(func(*bolt.Tx) error { return nil })
}

// Cluster implements store.Store: nil, as the file is this instance's own.
func (s *Store) Cluster() store.Cluster { return nil }
