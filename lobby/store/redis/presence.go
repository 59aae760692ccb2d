package redis

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/smokestack/smokestack/lobby/store"
)

// claimScript replaces one instance's claim, raises the seats' seen times
// (never lowers them: another instance may have held a seat later), drops
// claims that lapsed, and publishes the room code when the seats this
// instance holds changed in the eyes of others (a claim that had lapsed
// and is renewed counts), so they re-read at once instead of at their next
// renewal. It writes nothing for a room that is gone, so a claim cannot
// bring back a deleted room's key. It answers the whole hash.
var claimScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[2]) == 0 then return {} end
local now = tonumber(ARGV[3])
local function seats(v)
  if not v then return nil end
  local exp, s = string.match(v, '^(%d+):(.*)$')
  if not exp or tonumber(exp) <= now then return nil end
  return s
end
local before = seats(redis.call('HGET', KEYS[1], ARGV[1]))
local after = nil
if ARGV[2] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  after = seats(ARGV[2])
end
for i = 6, #ARGV, 2 do
  local f = 'seen:' .. ARGV[i]
  local cur = tonumber(redis.call('HGET', KEYS[1], f) or '0')
  if tonumber(ARGV[i + 1]) > cur then redis.call('HSET', KEYS[1], f, ARGV[i + 1]) end
end
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if string.sub(all[i], 1, 6) == 'claim:' and not seats(all[i + 1]) then
    redis.call('HDEL', KEYS[1], all[i])
  end
end
if before ~= after then redis.call('SPUBLISH', ARGV[4], ARGV[5]) end
return all`)

func (s *Store) claimField() string { return "claim:" + s.origin }

// ClaimSeats implements store.Presence.
func (s *Store) ClaimSeats(ctx context.Context, code string, held []int, last map[int]time.Time, now time.Time, ttl time.Duration) (store.SharedPresence, error) {
	claim := ""
	if len(held) > 0 {
		seats := make([]string, len(held))
		for i, seat := range held {
			seats[i] = strconv.Itoa(seat)
		}
		claim = strconv.FormatInt(now.Add(ttl).UnixMilli(), 10) + ":" + strings.Join(seats, ",")
	}
	args := []any{s.claimField(), claim, now.UnixMilli(), roomChannel(code), s.announcement(code)}
	for seat, t := range last {
		args = append(args, seat, t.UnixMilli())
	}
	raw, err := claimScript.Run(ctx, s.rdb, []string{presenceKey(code), metaKey(code)}, args...).StringSlice()
	if err != nil {
		return store.SharedPresence{}, fmt.Errorf("claim seats of room %s: %w", code, err)
	}
	fields := make(map[string]string, len(raw)/2)
	for i := 0; i+1 < len(raw); i += 2 {
		fields[raw[i]] = raw[i+1]
	}
	return s.decodePresence(code, fields, now)
}

// SeatPresence implements store.Presence.
func (s *Store) SeatPresence(ctx context.Context, code string, now time.Time) (store.SharedPresence, error) {
	fields, err := s.rdb.HGetAll(ctx, presenceKey(code)).Result()
	if err != nil {
		return store.SharedPresence{}, fmt.Errorf("seat presence of room %s: %w", code, err)
	}
	return s.decodePresence(code, fields, now)
}

// decodePresence reads the other instances' live claims and every seat's
// seen time; this instance's own claim is left out, as the room knows its
// own sessions better than its last claim does.
func (s *Store) decodePresence(code string, fields map[string]string, now time.Time) (store.SharedPresence, error) {
	sp := store.SharedPresence{Elsewhere: map[int]bool{}, LastHeld: map[int]time.Time{}}
	for f, v := range fields {
		switch {
		case strings.HasPrefix(f, "claim:"):
			if f == s.claimField() {
				continue
			}
			exp, seats, ok := strings.Cut(v, ":")
			ms, err := strconv.ParseInt(exp, 10, 64)
			if !ok || err != nil {
				return sp, fmt.Errorf("room %s presence %s: bad claim %q", code, f, v)
			}
			if ms <= now.UnixMilli() {
				continue // lapsed: its instance stopped renewing
			}
			for _, seat := range strings.Split(seats, ",") {
				n, err := strconv.Atoi(seat)
				if err != nil {
					return sp, fmt.Errorf("room %s presence %s: bad claim %q", code, f, v)
				}
				sp.Elsewhere[n] = true
			}
		case strings.HasPrefix(f, "seen:"):
			n, err := strconv.Atoi(f[len("seen:"):])
			ms, err2 := strconv.ParseInt(v, 10, 64)
			if err != nil || err2 != nil {
				return sp, fmt.Errorf("room %s presence %s: bad seen time %q", code, f, v)
			}
			sp.LastHeld[n] = time.UnixMilli(ms).UTC()
		}
	}
	return sp, nil
}
