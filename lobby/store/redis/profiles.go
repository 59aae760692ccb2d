package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// link is a link code's profile and expiry as the store keeps them.
type link struct {
	ID      string    `json:"id"`
	Expires time.Time `json:"expires"`
}

// redisProfiles is the profiles as one optimistic transaction reads them:
// reads go to Redis, writes wait in the transaction's pipeline.
type redisProfileTx struct {
	ctx  context.Context
	tx   *redis.Tx
	pipe redis.Pipeliner
	err  error
}

func (r *redisProfileTx) keep(err error) {
	if r.err == nil && err != nil && !errors.Is(err, redis.Nil) {
		r.err = err
	}
}

func (r *redisProfileTx) hget(hash, field string) (string, bool) {
	v, err := r.tx.HGet(r.ctx, hash, field).Result()
	r.keep(err)
	return v, err == nil
}

func (r *redisProfileTx) Get(id string) (store.Profile, bool) {
	v, ok := r.hget(redisProfiles, id)
	if !ok {
		return store.Profile{}, false
	}
	p, err := store.DecodeProfile(id, []byte(v))
	r.keep(err)
	return p, err == nil
}

func (r *redisProfileTx) Put(p store.Profile) {
	data, err := json.Marshal(p)
	r.keep(err)
	r.pipe.HSet(r.ctx, redisProfiles, p.ID, data)
}
func (r *redisProfileTx) Drop(id string)                    { r.pipe.HDel(r.ctx, redisProfiles, id) }
func (r *redisProfileTx) KeyOf(key string) (string, bool)   { return r.hget(redisProfileKeys, key) }
func (r *redisProfileTx) SetKey(key, id string)             { r.pipe.HSet(r.ctx, redisProfileKeys, key, id) }
func (r *redisProfileTx) DropKey(key string)                { r.pipe.HDel(r.ctx, redisProfileKeys, key) }
func (r *redisProfileTx) NameOf(name string) (string, bool) { return r.hget(redisProfileNames, name) }
func (r *redisProfileTx) SetName(name, id string)           { r.pipe.HSet(r.ctx, redisProfileNames, name, id) }
func (r *redisProfileTx) DropName(name string)              { r.pipe.HDel(r.ctx, redisProfileNames, name) }

// changeProfiles runs change as one optimistic transaction over the
// profile hashes: should another instance change them between its reads
// and its writes, it runs again on what is there then.
func (s *Store) changeProfiles(ctx context.Context, change func(p *redisProfileTx) error) error {
	err := s.optimistic(ctx, func(tx *redis.Tx) error {
		r := &redisProfileTx{ctx: ctx, tx: tx}
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			r.pipe = pipe
			if err := change(r); err != nil {
				return err
			}
			return r.err
		})
		return err
	}, redisProfiles, redisProfileKeys, redisProfileNames)
	if errors.Is(err, store.ErrConflict) {
		return fmt.Errorf("profiles changed by others at every try: %w", err)
	}
	return err
}

func (s *Store) readProfile(ctx context.Context, hash, field string) (store.Profile, error) {
	id := field
	if hash != "" {
		var err error
		id, err = s.rdb.HGet(ctx, hash, field).Result()
		if errors.Is(err, redis.Nil) {
			return store.Profile{}, store.ErrNoProfile
		}
		if err != nil {
			return store.Profile{}, fmt.Errorf("read profile: %w", err)
		}
	}
	data, err := s.rdb.HGet(ctx, redisProfiles, id).Bytes()
	if errors.Is(err, redis.Nil) {
		return store.Profile{}, store.ErrNoProfile
	}
	if err != nil {
		return store.Profile{}, fmt.Errorf("read profile: %w", err)
	}
	return store.DecodeProfile(id, data)
}

// KeyProfile implements store.Profiles.
func (s *Store) KeyProfile(ctx context.Context, key string) (store.Profile, error) {
	return s.readProfile(ctx, redisProfileKeys, key)
}

// Profile implements store.Profiles.
func (s *Store) Profile(ctx context.Context, id string) (store.Profile, error) {
	return s.readProfile(ctx, "", id)
}

// NamedProfile implements store.Profiles.
func (s *Store) NamedProfile(ctx context.Context, name string) (store.Profile, error) {
	return s.readProfile(ctx, redisProfileNames, store.NameKey(name))
}

// createProfileScript is createProfile in one step on the server: a
// player's first connection is the common change, and new players come in
// crowds, which an optimistic transaction over the shared hashes turns
// into a race that most of them lose. A retry of a creation whose reply
// was lost finds its own profile there and succeeds.
// KEYS: byid, bykey, byname. ARGV: id, key, name key, profile JSON.
var createProfileScript = redis.NewScript(`
local id, key, name = ARGV[1], ARGV[2], ARGV[3]
local have = redis.call('HGET', KEYS[2], key)
if have then
  if have == id and redis.call('HGET', KEYS[3], name) == id then return 'ok' end
  return 'exists'
end
local holder = redis.call('HGET', KEYS[3], name)
if holder and holder ~= id then return 'taken' end
redis.call('HSET', KEYS[1], id, ARGV[4])
redis.call('HSET', KEYS[2], key, id)
redis.call('HSET', KEYS[3], name, id)
return 'ok'
`)

// CreateProfile implements store.Profiles.
func (s *Store) CreateProfile(ctx context.Context, p store.Profile) error {
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	res, err := createProfileScript.Run(ctx, s.rdb, []string{redisProfiles, redisProfileKeys, redisProfileNames},
		p.ID, p.Keys[0], store.NameKey(p.Name), data).Text()
	switch {
	case err != nil:
		return fmt.Errorf("create profile: %w", err)
	case res == "exists":
		return store.ErrExists
	case res == "taken":
		return store.ErrNameTaken
	}
	return nil
}

// Rename implements store.Profiles.
func (s *Store) Rename(ctx context.Context, id, name string) error {
	return s.changeProfiles(ctx, func(r *redisProfileTx) error { return store.RenameProfile(r, id, name) })
}

// SetLang implements store.Profiles.
func (s *Store) SetLang(ctx context.Context, id, lang string) error {
	return s.changeProfiles(ctx, func(r *redisProfileTx) error { return store.SetProfileLang(r, id, lang) })
}

// SetPlain implements store.Profiles.
func (s *Store) SetPlain(ctx context.Context, id string, plain bool) error {
	return s.changeProfiles(ctx, func(r *redisProfileTx) error { return store.SetProfilePlain(r, id, plain) })
}

// LinkKey implements store.Profiles.
func (s *Store) LinkKey(ctx context.Context, key, id string) error {
	return s.changeProfiles(ctx, func(r *redisProfileTx) error { return store.LinkKey(r, key, id) })
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

// Profiles implements store.Profiles. It reads the hash a page at a time,
// so Redis is never busy with all of it at once.
func (s *Store) Profiles(ctx context.Context) ([]store.Profile, error) {
	var out []store.Profile
	iter := s.rdb.HScan(ctx, redisProfiles, 0, "", 500).Iterator()
	for iter.Next(ctx) {
		id := iter.Val()
		if !iter.Next(ctx) {
			break
		}
		p, err := store.DecodeProfile(id, []byte(iter.Val()))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	if err := iter.Err(); err != nil {
		return nil, fmt.Errorf("list profiles: %w", err)
	}
	return out, nil
}

// DropProfile implements store.Profiles.
func (s *Store) DropProfile(ctx context.Context, id string) error {
	return s.changeProfiles(ctx, func(r *redisProfileTx) error { store.DropProfile(r, id); return nil })
}
