package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

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
