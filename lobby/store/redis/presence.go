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

// instanceKeep is how long an instance's last heartbeat stays readable
// after it stopped: its claims may still stand in rooms nobody changed
// since, and its last heartbeat is when their seats were last held. A
// room idle that long has expired, or its seats are long past any
// grace period.
const instanceKeep = 7 * 24 * time.Hour

// Heartbeat implements store.Presence: one HSET of this instance's field
// and one HGETALL of every instance's, in one round trip. An HSET that
// adds the field after this store beat before means the hash was lost.
func (s *Store) Heartbeat(ctx context.Context, now time.Time) (store.Heartbeats, bool, error) {
	var added *redis.IntCmd
	var all *redis.MapStringStringCmd
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		added = p.HSet(ctx, redisInstances, s.origin, now.UnixMilli())
		all = p.HGetAll(ctx, redisInstances)
		return nil
	})
	if err != nil {
		return store.Heartbeats{}, false, fmt.Errorf("heartbeat: %w", err)
	}
	in := store.Heartbeats{At: now.UTC().Truncate(time.Millisecond), Last: make(map[string]time.Time, len(all.Val()))}
	var gone []string
	for name, v := range all.Val() {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return store.Heartbeats{}, false, fmt.Errorf("heartbeat: instance %s: bad time %q", name, v)
		}
		last := time.UnixMilli(ms).UTC()
		if now.Sub(last) > instanceKeep {
			gone = append(gone, name)
			continue
		}
		in.Last[name] = last
	}
	if len(gone) > 0 { // rare: tidying, so a failure waits for the next beat
		_ = s.rdb.HDel(ctx, redisInstances, gone...).Err()
	}
	lost := added.Val() == 1 && s.beaten.Load()
	s.beaten.Store(true)
	return in, lost, nil
}

// seatsPrefix marks an announcement that the seats an instance holds in
// the room after it changed: the room code alone means its game, so a
// move costs no instance a read of presence.
const seatsPrefix = "seats:"

// seatsChange is the announcement that the seats held in room code
// changed.
func seatsChange(code string) string { return seatsPrefix + code }

// claimScript replaces one instance's claim, raises the seats' seen times
// (never lowers them: another instance may have held a seat later), and
// publishes the room code when the seats this instance holds changed in
// the eyes of others, so they re-read at once. It writes nothing for a
// room that is gone, so a claim cannot bring back a deleted room's key.
// It answers the whole hash.
var claimScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[2]) == 0 then return {} end
local function seats(v)
  if not v then return nil end
  return string.match(v, '^%d+:(.*)$')
end
local before = seats(redis.call('HGET', KEYS[1], ARGV[1]))
local after = nil
if ARGV[2] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  after = seats(ARGV[2])
end
for i = 5, #ARGV, 2 do
  local f = 'seen:' .. ARGV[i]
  local cur = tonumber(redis.call('HGET', KEYS[1], f) or '0')
  if tonumber(ARGV[i + 1]) > cur then redis.call('HSET', KEYS[1], f, ARGV[i + 1]) end
end
if before ~= after then redis.call('SPUBLISH', ARGV[3], ARGV[4]) end
return redis.call('HGETALL', KEYS[1])`)

func (s *Store) claimField() string { return "claim:" + s.origin }

// ClaimSeats implements store.Presence. The claim is "AT_MS:SEAT,SEAT…",
// AT_MS when it was written; it stands until replaced or withdrawn, and
// counts while its instance's heartbeat does.
func (s *Store) ClaimSeats(ctx context.Context, code string, held []int, last map[int]time.Time, now time.Time) (store.SharedPresence, error) {
	claim := ""
	if len(held) > 0 {
		seats := make([]string, len(held))
		for i, seat := range held {
			seats[i] = strconv.Itoa(seat)
		}
		claim = strconv.FormatInt(now.UnixMilli(), 10) + ":" + strings.Join(seats, ",")
	}
	args := []any{s.claimField(), claim, roomChannel(code), s.announcement(seatsChange(code))}
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
	return s.decodePresence(code, fields)
}

// SeatPresence implements store.Presence.
func (s *Store) SeatPresence(ctx context.Context, code string) (store.SharedPresence, error) {
	fields, err := s.rdb.HGetAll(ctx, presenceKey(code)).Result()
	if err != nil {
		return store.SharedPresence{}, fmt.Errorf("seat presence of room %s: %w", code, err)
	}
	return s.decodePresence(code, fields)
}

// decodePresence reads the other instances' claims and every seat's seen
// time; this instance's own claim is left out, as the room knows its own
// sessions better than its last claim does.
func (s *Store) decodePresence(code string, fields map[string]string) (store.SharedPresence, error) {
	sp := store.SharedPresence{Claims: map[string]store.Claim{}, Left: map[int]time.Time{}}
	for f, v := range fields {
		switch {
		case strings.HasPrefix(f, "claim:"):
			if f == s.claimField() {
				continue
			}
			at, seats, ok := strings.Cut(v, ":")
			ms, err := strconv.ParseInt(at, 10, 64)
			if !ok || err != nil {
				return sp, fmt.Errorf("room %s presence %s: bad claim %q", code, f, v)
			}
			c := store.Claim{At: time.UnixMilli(ms).UTC()}
			for _, seat := range strings.Split(seats, ",") {
				n, err := strconv.Atoi(seat)
				if err != nil {
					return sp, fmt.Errorf("room %s presence %s: bad claim %q", code, f, v)
				}
				c.Seats = append(c.Seats, n)
			}
			sp.Claims[f[len("claim:"):]] = c
		case strings.HasPrefix(f, "seen:"):
			n, err := strconv.Atoi(f[len("seen:"):])
			ms, err2 := strconv.ParseInt(v, 10, 64)
			if err != nil || err2 != nil {
				return sp, fmt.Errorf("room %s presence %s: bad seen time %q", code, f, v)
			}
			sp.Left[n] = time.UnixMilli(ms).UTC()
		}
	}
	return sp, nil
}
