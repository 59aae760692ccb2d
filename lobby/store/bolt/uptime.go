package bolt

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/smokestack/smokestack/lobby/store"
)

var (
	uptimeBucket = []byte("uptime") // aliveKey -> store.Alive JSON
	aliveKey     = []byte("alive")
)

// Alive implements store.Uptime.
func (s *Store) Alive(_ context.Context, now time.Time, stale time.Duration) (down []store.Downtime, err error) {
	err = s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(uptimeBucket)
		if err != nil {
			return err
		}
		var a store.Alive
		if raw := b.Get(aliveKey); raw != nil {
			if err := json.Unmarshal(raw, &a); err != nil {
				return fmt.Errorf("read uptime: %w", err)
			}
		}
		a.Note(now, stale)
		down = a.Down
		return putJSON(b, aliveKey, a)
	})
	return down, err
}
