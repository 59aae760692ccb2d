package redis

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// chatPrefix marks an announcement that the chat of the room after it
// ("" for the lobby's) changed: the room code alone means its game.
const chatPrefix = "chat:"

// chatChange is the announcement that the chat of room code changed.
func chatChange(code string) string { return chatPrefix + code }

// addChatScript appends a line, trims the list and announces the change
// on the room's channel (none for the lobby's chat, whose channel is in
// another slot). A line already last is not added twice, so a retried
// write after a lost reply does not repeat it (each line carries its ID
// and a time in nanoseconds).
var addChatScript = redis.NewScript(`
if redis.call('LINDEX', KEYS[1], -1) == ARGV[1] then return 1 end
redis.call('RPUSH', KEYS[1], ARGV[1])
if tonumber(ARGV[2]) > 0 then redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1) end
if ARGV[3] ~= '' then redis.call('SPUBLISH', ARGV[3], ARGV[4]) end
return 1`)

// AddChat implements store.Chats. Other instances hear of the line through
// Changes, as chatChange(code).
func (s *Store) AddChat(ctx context.Context, code string, line store.ChatLine, keep int) error {
	data, err := json.Marshal(line)
	if err != nil {
		return err
	}
	channel := ""
	if code != "" {
		channel = roomChannel(code)
	}
	err = addChatScript.Run(ctx, s.rdb, []string{chatKey(code)}, data, keep, channel, s.announcement(chatChange(code))).Err()
	if err != nil {
		return fmt.Errorf("chat in room %q: %w", code, err)
	}
	if code == "" {
		// Every instance follows the index channel, where lists go too.
		s.announceIndex(ctx, chatChange(""))
	}
	return nil
}

// Chat implements store.Chats.
func (s *Store) Chat(ctx context.Context, code string, n int) ([]store.ChatLine, error) {
	raw, err := s.rdb.LRange(ctx, chatKey(code), int64(-max(n, 0)), -1).Result()
	if err != nil {
		return nil, fmt.Errorf("read the chat of room %q: %w", code, err)
	}
	out := make([]store.ChatLine, 0, len(raw))
	for _, data := range raw {
		var l store.ChatLine
		if err := json.Unmarshal([]byte(data), &l); err != nil {
			return nil, fmt.Errorf("room %q chat: %w", code, err)
		}
		out = append(out, l)
	}
	return out, nil
}

// DeleteChat implements store.Chats.
func (s *Store) DeleteChat(ctx context.Context, code string) error {
	if err := s.rdb.Del(ctx, chatKey(code)).Err(); err != nil {
		return fmt.Errorf("delete the chat of room %s: %w", code, err)
	}
	return nil
}
