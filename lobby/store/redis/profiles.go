package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// Profiles live one slot per player (keys.go): a profile and its first
// key in the player's, a name in its own, an index entry in one of a few
// shards. No step spans slots, so a change that touches several players
// or a name is a row of steps, ordered so that a crash between two leaves
// nothing a reader counts: a name is taken before the profile says it
// holds it, and let go after it no longer does; a key is pointed at a
// profile after that profile lists it.

// link is a link code's profile and expiry as the store keeps them.
type link struct {
	ID      string    `json:"id"`
	Expires time.Time `json:"expires"`
}

// nameGrace is how long a name taken for a profile that does not hold it
// (yet) stays taken for others: the time a creation or a rename takes
// between its steps, and no longer, so a crashed one frees the name.
const nameGrace = time.Minute

// readProfile reads profile id: ErrNoProfile if there is none.
func (s *Store) readProfile(ctx context.Context, id string) (store.Profile, string, error) {
	v, err := s.rdb.HMGet(ctx, playerKey(id), "profile", "name").Result()
	if err != nil {
		return store.Profile{}, "", fmt.Errorf("read profile: %w", err)
	}
	data, ok := v[0].(string)
	if !ok {
		return store.Profile{}, "", store.ErrNoProfile
	}
	name, _ := v[1].(string)
	p, err := store.DecodeProfile(id, []byte(data))
	return p, name, err
}

// KeyProfile implements store.Profiles.
func (s *Store) KeyProfile(ctx context.Context, key string) (store.Profile, error) {
	id, err := s.rdb.Get(ctx, keyKey(key)).Result()
	if errors.Is(err, redis.Nil) {
		return store.Profile{}, store.ErrNoProfile
	}
	if err != nil {
		return store.Profile{}, fmt.Errorf("read profile: %w", err)
	}
	p, _, err := s.readProfile(ctx, id)
	return p, err
}

// Profile implements store.Profiles.
func (s *Store) Profile(ctx context.Context, id string) (store.Profile, error) {
	p, _, err := s.readProfile(ctx, id)
	return p, err
}

// NamedProfile implements store.Profiles: the name's holder, if their
// profile still holds it.
func (s *Store) NamedProfile(ctx context.Context, name string) (store.Profile, error) {
	nk := store.NameKey(name)
	v, err := s.rdb.Get(ctx, nameKey(nk)).Result()
	if errors.Is(err, redis.Nil) {
		return store.Profile{}, store.ErrNoProfile
	}
	if err != nil {
		return store.Profile{}, fmt.Errorf("read profile: %w", err)
	}
	id, _ := nameHolder(v)
	p, held, err := s.readProfile(ctx, id)
	if err == nil && held != nk {
		return store.Profile{}, store.ErrNoProfile // taken for a rename or creation that never finished
	}
	return p, err
}

// nameHolder reads a name key's value: the profile and when it took it.
func nameHolder(v string) (id string, since time.Time) {
	i := strings.LastIndexByte(v, ' ')
	if i < 0 {
		return v, time.Time{}
	}
	ms, _ := strconv.ParseInt(v[i+1:], 10, 64)
	return v[:i], time.UnixMilli(ms)
}

// takeNameScript takes a name for a profile if nobody holds it, or if
// the one who does is ARGV[3] (the value read before): a stale holder.
// It returns the holder after, so the caller sees whether it won.
// KEYS: the name. ARGV: id, now in Unix ms, the stale value or "".
var takeNameScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if not v or v == ARGV[3] then
  v = ARGV[1] .. ' ' .. ARGV[2]
  redis.call('SET', KEYS[1], v)
end
return v
`)

// takeName takes name key nk for profile id: ErrNameTaken if another
// profile holds it, or took it a moment ago. Taking a name one holds
// already changes nothing. The common case, a free name, is one SET.
func (s *Store) takeName(ctx context.Context, nk, id string) error {
	now := strconv.FormatInt(time.Now().UnixMilli(), 10)
	v, err := s.rdb.SetArgs(ctx, nameKey(nk), id+" "+now, redis.SetArgs{Mode: "NX", Get: true}).Result()
	if errors.Is(err, redis.Nil) {
		return nil // it was free
	}
	for range 2 {
		if err != nil {
			return fmt.Errorf("take name: %w", err)
		}
		holder, since := nameHolder(v)
		if holder == id {
			return nil
		}
		_, held, err := s.readProfile(ctx, holder)
		switch {
		case err == nil && held == nk, err != nil && !errors.Is(err, store.ErrNoProfile):
			return store.ErrNameTaken
		case time.Since(since) < nameGrace:
			return store.ErrNameTaken // a creation or rename in flight
		}
		// Its holder let it go without saying so: take it over.
		v, err = takeNameScript.Run(ctx, s.rdb, []string{nameKey(nk)}, id, now, v).Text()
	}
	return store.ErrNameTaken
}

// dropIfScript deletes a key while it holds ARGV[1] (a name key's, the
// holder's ID up to the space).
var dropIfScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v and (v == ARGV[1] or string.sub(v, 1, #ARGV[1] + 1) == ARGV[1] .. ' ') then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`)

// letName lets name key nk go if profile id holds it.
func (s *Store) letName(ctx context.Context, nk, id string) error {
	if err := dropIfScript.Run(ctx, s.rdb, []string{nameKey(nk)}, id).Err(); err != nil {
		return fmt.Errorf("let a name go: %w", err)
	}
	return nil
}

// createProfileScript writes a new profile and its first key, in their
// one slot. A retry of a creation whose reply was lost finds its own
// profile there and succeeds; a key that plays as another profile
// returns that profile's ID, to be checked.
// KEYS: player, key. ARGV: id, profile JSON, name key.
var createProfileScript = redis.NewScript(`
local have = redis.call('GET', KEYS[2])
if have then
  if have == ARGV[1] and redis.call('HGET', KEYS[1], 'name') == ARGV[3] then return 'ok' end
  return 'key ' .. have
end
if redis.call('HEXISTS', KEYS[1], 'profile') == 1 then return 'exists' end
redis.call('HSET', KEYS[1], 'profile', ARGV[2], 'name', ARGV[3])
redis.call('SET', KEYS[2], ARGV[1])
return 'ok'
`)

// CreateProfile implements store.Profiles: the name is taken, then the
// profile and its key written, then it is listed in its shard of the
// profiles' index. Three commands, none of them on a slot every new
// player shares.
func (s *Store) CreateProfile(ctx context.Context, p store.Profile) error {
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	nk := store.NameKey(p.Name)
	if err := s.takeName(ctx, nk, p.ID); err != nil {
		return err
	}
	for try := 0; ; try++ {
		res, err := createProfileScript.Run(ctx, s.rdb, []string{playerKey(p.ID), keyKey(p.Keys[0])}, p.ID, data, nk).Text()
		if err != nil {
			return fmt.Errorf("create profile: %w", err)
		}
		if res == "ok" {
			break
		}
		// The key plays as a profile already: unless that one is gone
		// (dropped halfway), this is ErrExists.
		other, dangling := strings.CutPrefix(res, "key ")
		if dangling && other != p.ID && try == 0 {
			if _, _, err := s.readProfile(ctx, other); errors.Is(err, store.ErrNoProfile) {
				if err := dropIfScript.Run(ctx, s.rdb, []string{keyKey(p.Keys[0])}, other).Err(); err != nil {
					return fmt.Errorf("create profile: %w", err)
				}
				continue
			}
		}
		if _, held, err := s.readProfile(ctx, p.ID); err != nil || held != nk {
			if err := s.letName(ctx, nk, p.ID); err != nil {
				return err
			}
		}
		return store.ErrExists
	}
	if err := s.rdb.ZAdd(ctx, profilesKey(shardOf(p.ID, profileShards)), redis.Z{Score: float64(p.Created.UnixMilli()), Member: p.ID}).Err(); err != nil {
		return fmt.Errorf("list profile: %w", err)
	}
	return nil
}

// putProfileScript replaces a profile if it still is what was read.
// KEYS: player. ARGV: the profile JSON read, the new one, its name key.
var putProfileScript = redis.NewScript(`
local p = redis.call('HGET', KEYS[1], 'profile')
if not p then return 'gone' end
if p ~= ARGV[1] then return 'changed' end
redis.call('HSET', KEYS[1], 'profile', ARGV[2], 'name', ARGV[3])
return 'ok'
`)

// changeProfile applies change to profile id in its slot, as a
// compare-and-set that runs change again on what is there should another
// instance change the profile meanwhile: ErrNoProfile if there is none.
// It returns the profile before and after.
func (s *Store) changeProfile(ctx context.Context, id string, change func(p *store.Profile) error) (before, after store.Profile, err error) {
	for range 10 {
		v, err := s.rdb.HGet(ctx, playerKey(id), "profile").Result()
		if errors.Is(err, redis.Nil) {
			return before, after, store.ErrNoProfile
		}
		if err != nil {
			return before, after, fmt.Errorf("read profile: %w", err)
		}
		if before, err = store.DecodeProfile(id, []byte(v)); err != nil {
			return before, after, err
		}
		after = before
		after.Keys = slices.Clone(before.Keys)
		if err := change(&after); err != nil {
			return before, after, err
		}
		data, err := json.Marshal(after)
		if err != nil {
			return before, after, err
		}
		res, err := putProfileScript.Run(ctx, s.rdb, []string{playerKey(id)}, v, data, store.NameKey(after.Name)).Text()
		switch {
		case err != nil:
			return before, after, fmt.Errorf("change profile: %w", err)
		case res == "gone":
			return before, after, store.ErrNoProfile
		case res == "ok":
			return before, after, nil
		}
	}
	return before, after, fmt.Errorf("profile %s changed by others at every try: %w", id, store.ErrConflict)
}

// Rename implements store.Profiles: the new name is taken, the profile
// renamed, the old name let go.
func (s *Store) Rename(ctx context.Context, id, name string) error {
	nk := store.NameKey(name)
	if _, _, err := s.readProfile(ctx, id); err != nil {
		return err
	}
	if err := s.takeName(ctx, nk, id); err != nil {
		return err
	}
	before, _, err := s.changeProfile(ctx, id, func(p *store.Profile) error { p.Name = name; return nil })
	if err != nil {
		if errors.Is(err, store.ErrNoProfile) {
			_ = s.letName(ctx, nk, id)
		}
		return err
	}
	if old := store.NameKey(before.Name); old != nk {
		return s.letName(ctx, old, id)
	}
	return nil
}

// SetLang implements store.Profiles.
func (s *Store) SetLang(ctx context.Context, id, lang string) error {
	_, _, err := s.changeProfile(ctx, id, func(p *store.Profile) error { p.Lang = lang; return nil })
	return err
}

// SetPlain implements store.Profiles.
func (s *Store) SetPlain(ctx context.Context, id string, plain bool) error {
	_, _, err := s.changeProfile(ctx, id, func(p *store.Profile) error { p.Plain = plain; return nil })
	return err
}

// LinkKey implements store.Profiles: the profile lists the key, the key
// points at it, then the profile it played as lets it go, and is dropped
// once it has no key left.
func (s *Store) LinkKey(ctx context.Context, key, id string) error {
	from, err := s.rdb.Get(ctx, keyKey(key)).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("read key: %w", err)
	}
	_, _, err = s.changeProfile(ctx, id, func(p *store.Profile) error {
		if !slices.Contains(p.Keys, key) {
			p.Keys = append(p.Keys, key)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := s.rdb.Set(ctx, keyKey(key), id, 0).Err(); err != nil {
		return fmt.Errorf("link key: %w", err)
	}
	if from == "" || from == id {
		return nil
	}
	_, left, err := s.changeProfile(ctx, from, func(p *store.Profile) error {
		p.Keys = slices.DeleteFunc(p.Keys, func(k string) bool { return k == key })
		return nil
	})
	if errors.Is(err, store.ErrNoProfile) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(left.Keys) == 0 {
		return s.DropProfile(ctx, from)
	}
	return nil
}

// PutLinkCode implements store.Profiles. The code's key holds its expiry
// and its profile, and Redis forgets it once it lapses.
func (s *Store) PutLinkCode(ctx context.Context, code, id string, now, expires time.Time) error {
	life := expires.Sub(now)
	if life <= 0 {
		return nil // lapsed already: nothing to keep
	}
	data, err := json.Marshal(link{ID: id, Expires: expires})
	if err != nil {
		return err
	}
	if err := s.rdb.Set(ctx, redisLinkKey(code), data, life).Err(); err != nil {
		return fmt.Errorf("keep a link code: %w", err)
	}
	return nil
}

// TakeLinkCode implements store.Profiles. GETDEL reads and forgets the code
// in one step, so of two instances taking it only one gets it.
func (s *Store) TakeLinkCode(ctx context.Context, code string, now time.Time) (string, error) {
	data, err := s.rdb.GetDel(ctx, redisLinkKey(code)).Bytes()
	if errors.Is(err, redis.Nil) {
		return "", store.ErrNoLinkCode
	}
	if err != nil {
		return "", fmt.Errorf("take a link code: %w", err)
	}
	var l link
	if err := json.Unmarshal(data, &l); err != nil {
		return "", fmt.Errorf("link code: %w", err)
	}
	if !now.Before(l.Expires) {
		return "", store.ErrNoLinkCode
	}
	return l.ID, nil
}

// Profiles implements store.Profiles. It reads each shard of the index a
// page at a time, and the page's profiles in one pipeline, so Redis is
// never busy with all of them at once.
func (s *Store) Profiles(ctx context.Context) ([]store.Profile, error) {
	var out []store.Profile
	for shard := range profileShards {
		iter := s.rdb.ZScan(ctx, profilesKey(shard), 0, "", 500).Iterator()
		var page []string
		for iter.Next(ctx) {
			page = append(page, iter.Val())
			iter.Next(ctx) // the score
			if len(page) == 500 {
				if err := s.readProfiles(ctx, page, &out); err != nil {
					return nil, err
				}
				page = page[:0]
			}
		}
		if err := iter.Err(); err != nil {
			return nil, fmt.Errorf("list profiles: %w", err)
		}
		if err := s.readProfiles(ctx, page, &out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readProfiles appends profiles ids to out, skipping those gone.
func (s *Store) readProfiles(ctx context.Context, ids []string, out *[]store.Profile) error {
	if len(ids) == 0 {
		return nil
	}
	cmds := make([]*redis.StringCmd, len(ids))
	_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = pipe.HGet(ctx, playerKey(id), "profile")
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("list profiles: %w", err)
	}
	for i, c := range cmds {
		data, err := c.Bytes()
		if errors.Is(err, redis.Nil) {
			continue
		}
		if err != nil {
			return fmt.Errorf("list profiles: %w", err)
		}
		p, err := store.DecodeProfile(ids[i], data)
		if err != nil {
			return err
		}
		*out = append(*out, p)
	}
	return nil
}

// ProfileCount is how many profiles the store holds, summed over the
// index's shards rather than counted by reading them.
func (s *Store) ProfileCount(ctx context.Context) (int64, error) {
	cmds := make([]*redis.IntCmd, profileShards)
	_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for shard := range cmds {
			cmds[shard] = pipe.ZCard(ctx, profilesKey(shard))
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("count profiles: %w", err)
	}
	var n int64
	for _, c := range cmds {
		n += c.Val()
	}
	return n, nil
}

// DropProfile implements store.Profiles: the keys that play as it let
// go, then its name, its index entry and its leaderboard lines, then the
// player's hash, so a crash midway leaves a profile a retry drops.
func (s *Store) DropProfile(ctx context.Context, id string) error {
	p, held, err := s.readProfile(ctx, id)
	if errors.Is(err, store.ErrNoProfile) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, k := range p.Keys {
		if err := dropIfScript.Run(ctx, s.rdb, []string{keyKey(k)}, id).Err(); err != nil {
			return fmt.Errorf("drop profile %s: %w", id, err)
		}
	}
	if err := s.letName(ctx, held, id); err != nil {
		return err
	}
	fields, err := s.rdb.HKeys(ctx, playerKey(id)).Result()
	if err != nil {
		return fmt.Errorf("drop profile %s: %w", id, err)
	}
	_, err = s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.ZRem(ctx, profilesKey(shardOf(id, profileShards)), id)
		for _, f := range fields {
			if game, ok := strings.CutPrefix(f, "rating:"); ok {
				pipe.ZRem(ctx, boardKey(game, shardOf(id, boardShards)), id)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("drop profile %s: %w", id, err)
	}
	if err := s.rdb.Del(ctx, playerKey(id)).Err(); err != nil {
		return fmt.Errorf("drop profile %s: %w", id, err)
	}
	return nil
}
