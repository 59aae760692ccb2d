package bolt

import (
	"context"
	"encoding/json"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/smokestack/smokestack/lobby/store"
)

var bansBucket = []byte("bans") // target -> Ban JSON

// Ban implements store.Bans.
func (s *Store) Ban(_ context.Context, b store.Ban) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		bans, err := tx.CreateBucketIfNotExists(bansBucket)
		if err != nil {
			return err
		}
		return putJSON(bans, []byte(b.Target), b)
	})
}

// Unban implements store.Bans.
func (s *Store) Unban(_ context.Context, target string) (found bool, err error) {
	err = s.db.Update(func(tx *bolt.Tx) error {
		bans := tx.Bucket(bansBucket)
		if bans == nil || bans.Get([]byte(target)) == nil {
			return nil
		}
		found = true
		return bans.Delete([]byte(target))
	})
	return found, err
}

// Bans implements store.Bans. Lapsed bans are skipped; they are removed by
// the next Ban or Unban of the same target.
func (s *Store) Bans(_ context.Context, now time.Time) (out []store.Ban, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		bans := tx.Bucket(bansBucket)
		if bans == nil {
			return nil
		}
		return bans.ForEach(func(_, v []byte) error {
			var b store.Ban
			if err := json.Unmarshal(v, &b); err != nil {
				return err
			}
			out = append(out, b)
			return nil
		})
	})
	return store.InForce(out, now), err
}
