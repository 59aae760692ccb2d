package bolt

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/smokestack/smokestack/lobby/store"
)

// chatBucket holds a bucket per room code, the lobby's under boltLobbyChat,
// of sequence number -> ChatLine JSON.
var chatBucket = []byte("chat")

// boltLobbyChat names the lobby's chat bucket: no room code is lower case.
const boltLobbyChat = "lobby"

func boltChatKey(code string) []byte {
	if code == "" {
		return []byte(boltLobbyChat)
	}
	return []byte(code)
}

// AddChat implements store.Chats. Lines are numbered by the bucket's
// sequence, so the oldest are the first keys and trimming deletes from
// the front.
func (s *Store) AddChat(_ context.Context, code string, line store.ChatLine, keep int) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		all, err := tx.CreateBucketIfNotExists(chatBucket)
		if err != nil {
			return err
		}
		b, err := all.CreateBucketIfNotExists(boltChatKey(code))
		if err != nil {
			return err
		}
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		if err := putJSON(b, binary.BigEndian.AppendUint64(nil, seq), line); err != nil {
			return err
		}
		if keep <= 0 || seq <= uint64(keep) {
			return nil
		}
		var old [][]byte // deleting under a moving cursor can skip keys
		c := b.Cursor()
		for k, _ := c.First(); k != nil && binary.BigEndian.Uint64(k) <= seq-uint64(keep); k, _ = c.Next() {
			old = append(old, k)
		}
		for _, k := range old {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// Chat implements store.Chats.
func (s *Store) Chat(_ context.Context, code string, n int) (out []store.ChatLine, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		all := tx.Bucket(chatBucket)
		if all == nil {
			return nil
		}
		b := all.Bucket(boltChatKey(code))
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Last(); k != nil && (n <= 0 || len(out) < n); k, v = c.Prev() {
			var l store.ChatLine
			if err := json.Unmarshal(v, &l); err != nil {
				return fmt.Errorf("room %s chat: %w", code, err)
			}
			out = append(out, l)
		}
		return nil
	})
	slices.Reverse(out)
	return out, err
}

// DeleteChat implements store.Chats.
func (s *Store) DeleteChat(_ context.Context, code string) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		all := tx.Bucket(chatBucket)
		if all == nil || all.Bucket(boltChatKey(code)) == nil {
			return nil
		}
		return all.DeleteBucket(boltChatKey(code))
	})
}
