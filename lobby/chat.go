package lobby

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"
	bolt "go.etcd.io/bbolt"
)

// ChatLine is one thing said in a room or in the lobby, cleaned
// (CleanText) before it was stored.
type ChatLine struct {
	// ID tells lines apart, so a client shown the chat again can skip
	// what it has.
	ID string    `json:"id"`
	At time.Time `json:"at"`
	// Name is the speaker's name as the room showed it.
	Name string `json:"name"`
	// Seat is the speaker's seat, or -1 for a spectator and in the lobby.
	Seat int `json:"seat"`
	// Channel is ChatPlayers, ChatSpectators or ChatLobby.
	Channel string `json:"channel"`
	Text    string `json:"text"`
	// Me marks an action ("/me waves"): shown as "* alice waves".
	Me bool `json:"me,omitempty"`
}

// Chat channels. A room has two: its players', which everyone in the room
// reads, and its spectators', which players may hide on their screens.
const (
	ChatPlayers    = "players"
	ChatSpectators = "spectators"
	ChatLobby      = "lobby"
)

// ChatStore keeps what is said: each room's chat with the room, and the
// lobby's under the code "". Every Store here implements it.
type ChatStore interface {
	// AddChat appends line to the chat of room code, keeping only its
	// newest keep lines.
	AddChat(ctx context.Context, code string, line ChatLine, keep int) error
	// Chat returns the newest n lines of room code's chat (all when n is
	// 0), oldest first; none for a room nobody spoke in.
	Chat(ctx context.Context, code string, n int) ([]ChatLine, error)
	// DeleteChat forgets room code's chat.
	DeleteChat(ctx context.Context, code string) error
}

// newest returns the last n lines (all when n is 0), in a slice of their own.
func newest(lines []ChatLine, n int) []ChatLine {
	if n > 0 && len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return slices.Clone(lines)
}

// AddChat implements ChatStore.
func (s *MemStore) AddChat(_ context.Context, code string, line ChatLine, keep int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.chat == nil {
		s.chat = map[string][]ChatLine{}
	}
	s.chat[code] = newest(append(s.chat[code], line), keep)
	return nil
}

// Chat implements ChatStore.
func (s *MemStore) Chat(_ context.Context, code string, n int) ([]ChatLine, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return newest(s.chat[code], n), nil
}

// DeleteChat implements ChatStore.
func (s *MemStore) DeleteChat(_ context.Context, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.chat, code)
	return nil
}

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

// AddChat implements ChatStore. Lines are numbered by the bucket's
// sequence, so the oldest are the first keys and trimming deletes from
// the front.
func (s *BoltStore) AddChat(_ context.Context, code string, line ChatLine, keep int) error {
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

// Chat implements ChatStore.
func (s *BoltStore) Chat(_ context.Context, code string, n int) (out []ChatLine, err error) {
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
			var l ChatLine
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

// DeleteChat implements ChatStore.
func (s *BoltStore) DeleteChat(_ context.Context, code string) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		all := tx.Bucket(chatBucket)
		if all == nil || all.Bucket(boltChatKey(code)) == nil {
			return nil
		}
		return all.DeleteBucket(boltChatKey(code))
	})
}

// A room's chat is a list in the room's slot; the lobby's has a key of its
// own.
const redisLobbyChat = redisPrefix + "lobbychat"

func chatKey(code string) string {
	if code == "" {
		return redisLobbyChat
	}
	return redisPrefix + "{" + code + "}:chat"
}

// chatChange is what Changes delivers when the chat of room code (""
// for the lobby's) changed elsewhere: the room code itself means its game.
func chatChange(code string) string { return "chat:" + code }

// addChatScript appends a line, trims the list and announces the change.
// A line already last is not added twice, so a retried write after a lost
// reply does not repeat it (each line carries its ID and a time in
// nanoseconds).
var addChatScript = redis.NewScript(`
if redis.call('LINDEX', KEYS[1], -1) == ARGV[1] then return 1 end
redis.call('RPUSH', KEYS[1], ARGV[1])
if tonumber(ARGV[2]) > 0 then redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1) end
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1`)

// AddChat implements ChatStore. Other instances hear of the line through
// Changes, as chatChange(code).
func (s *RedisStore) AddChat(ctx context.Context, code string, line ChatLine, keep int) error {
	data, err := json.Marshal(line)
	if err != nil {
		return err
	}
	err = addChatScript.Run(ctx, s.rdb, []string{chatKey(code)}, data, keep, redisChannel, s.announcement(chatChange(code))).Err()
	if err != nil {
		return fmt.Errorf("chat in room %q: %w", code, err)
	}
	return nil
}

// Chat implements ChatStore.
func (s *RedisStore) Chat(ctx context.Context, code string, n int) ([]ChatLine, error) {
	raw, err := s.rdb.LRange(ctx, chatKey(code), int64(-max(n, 0)), -1).Result()
	if err != nil {
		return nil, fmt.Errorf("read the chat of room %q: %w", code, err)
	}
	out := make([]ChatLine, 0, len(raw))
	for _, data := range raw {
		var l ChatLine
		if err := json.Unmarshal([]byte(data), &l); err != nil {
			return nil, fmt.Errorf("room %q chat: %w", code, err)
		}
		out = append(out, l)
	}
	return out, nil
}

// DeleteChat implements ChatStore.
func (s *RedisStore) DeleteChat(ctx context.Context, code string) error {
	if err := s.rdb.Del(ctx, chatKey(code)).Err(); err != nil {
		return fmt.Errorf("delete the chat of room %s: %w", code, err)
	}
	return nil
}
