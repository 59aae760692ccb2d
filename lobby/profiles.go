package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	bolt "go.etcd.io/bbolt"
)

// Profile is a player as the server remembers them: a name and the SSH
// keys that play as them. Seats are bound to the profile, so every key
// linked to it reaches the same seats.
type Profile struct {
	// ID binds seats: the fingerprint of the profile's first key, so a
	// key's seats from before profiles existed are its profile's.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Keys are the fingerprints of the keys that play as this profile,
	// the first key first.
	Keys    []string  `json:"keys"`
	Created time.Time `json:"created"`
}

// Profile errors.
var (
	ErrNoProfile  = errors.New("no such player")
	ErrNameTaken  = errors.New("that name is taken")
	ErrNoLinkCode = errors.New("no such link code")
)

// ProfileStore keeps profiles, the keys linked to them, their names
// (unique, as nameKey folds them) and one-time link codes. Every Store
// here implements it; with Redis every instance sees the same profiles.
type ProfileStore interface {
	// KeyProfile returns the profile key plays as; ErrNoProfile if none.
	KeyProfile(ctx context.Context, key string) (Profile, error)
	// Profile returns the profile with ID id; ErrNoProfile if none.
	Profile(ctx context.Context, id string) (Profile, error)
	// NamedProfile returns the profile holding name; ErrNoProfile if none.
	NamedProfile(ctx context.Context, name string) (Profile, error)
	// CreateProfile stores p for its only key, p.Keys[0]: ErrExists if
	// that key plays as a profile already, ErrNameTaken if another
	// profile holds p.Name.
	CreateProfile(ctx context.Context, p Profile) error
	// Rename gives profile id the name: ErrNameTaken if another profile
	// holds it, ErrNoProfile if there is no profile id.
	Rename(ctx context.Context, id, name string) error
	// PutLinkCode keeps code for profile id until expires; now is the
	// time, by which codes that lapsed may be forgotten.
	PutLinkCode(ctx context.Context, code, id string, now, expires time.Time) error
	// TakeLinkCode returns the profile of code and forgets the code, so
	// it is used once: ErrNoLinkCode if there is none, or it expired
	// before now.
	TakeLinkCode(ctx context.Context, code string, now time.Time) (string, error)
	// LinkKey makes key play as profile id from now on. The profile key
	// played as loses it, and is forgotten, name and all, once it has no
	// key left.
	LinkKey(ctx context.Context, key, id string) error
	// Profiles returns every profile, in no order (profileexpiry.go).
	Profiles(ctx context.Context) ([]Profile, error)
	// DropProfile forgets profile id, its keys and its name; nothing if
	// there is no profile id.
	DropProfile(ctx context.Context, id string) error
}

// profileSet is the profiles as plain data, shared by the memory and
// bbolt stores, which change it in one locked step or transaction.
type profileSet interface {
	get(id string) (Profile, bool)
	put(p Profile)
	drop(id string)
	keyOf(key string) (string, bool)
	setKey(key, id string)
	dropKey(key string)
	nameOf(key string) (string, bool)
	setName(key, id string)
	dropName(key string)
}

func createProfile(s profileSet, p Profile) error {
	if _, ok := s.keyOf(p.Keys[0]); ok {
		return ErrExists
	}
	if holder, ok := s.nameOf(nameKey(p.Name)); ok && holder != p.ID {
		return ErrNameTaken
	}
	s.put(p)
	s.setKey(p.Keys[0], p.ID)
	s.setName(nameKey(p.Name), p.ID)
	return nil
}

func renameProfile(s profileSet, id, name string) error {
	p, ok := s.get(id)
	if !ok {
		return ErrNoProfile
	}
	if holder, ok := s.nameOf(nameKey(name)); ok && holder != id {
		return ErrNameTaken
	}
	if old := nameKey(p.Name); old != nameKey(name) {
		s.dropName(old)
	}
	p.Name = name
	s.put(p)
	s.setName(nameKey(name), id)
	return nil
}

func linkKey(s profileSet, key, id string) error {
	to, ok := s.get(id)
	if !ok {
		return ErrNoProfile
	}
	if fromID, ok := s.keyOf(key); ok && fromID != id {
		if from, ok := s.get(fromID); ok {
			from.Keys = slices.DeleteFunc(from.Keys, func(k string) bool { return k == key })
			if len(from.Keys) == 0 {
				s.drop(fromID)
				s.dropName(nameKey(from.Name))
			} else {
				s.put(from)
			}
		}
	}
	if !slices.Contains(to.Keys, key) {
		to.Keys = append(to.Keys, key)
		s.put(to)
	}
	s.setKey(key, id)
	return nil
}

// memProfiles keeps profiles in memory; MemStore embeds it.
type memProfiles struct {
	pmu      sync.Mutex
	profiles map[string]Profile
	keys     map[string]string // key -> profile ID
	names    map[string]string // nameKey -> profile ID
	links    map[string]memLink
}

type memLink struct {
	id      string
	expires time.Time
}

func (m *memProfiles) lock() *memProfiles {
	m.pmu.Lock()
	if m.profiles == nil {
		m.profiles, m.keys, m.names, m.links = map[string]Profile{}, map[string]string{}, map[string]string{}, map[string]memLink{}
	}
	return m
}

func (m *memProfiles) get(id string) (Profile, bool) {
	p, ok := m.profiles[id]
	p.Keys = slices.Clone(p.Keys)
	return p, ok
}
func (m *memProfiles) put(p Profile)                     { m.profiles[p.ID] = p }
func (m *memProfiles) drop(id string)                    { delete(m.profiles, id) }
func (m *memProfiles) keyOf(key string) (string, bool)   { id, ok := m.keys[key]; return id, ok }
func (m *memProfiles) setKey(key, id string)             { m.keys[key] = id }
func (m *memProfiles) dropKey(key string)                { delete(m.keys, key) }
func (m *memProfiles) nameOf(name string) (string, bool) { id, ok := m.names[name]; return id, ok }
func (m *memProfiles) setName(name, id string)           { m.names[name] = id }
func (m *memProfiles) dropName(name string)              { delete(m.names, name) }

// KeyProfile implements ProfileStore.
func (m *memProfiles) KeyProfile(_ context.Context, key string) (Profile, error) {
	defer m.lock().pmu.Unlock()
	id, ok := m.keys[key]
	if !ok {
		return Profile{}, ErrNoProfile
	}
	p, _ := m.get(id)
	return p, nil
}

// Profile implements ProfileStore.
func (m *memProfiles) Profile(_ context.Context, id string) (Profile, error) {
	defer m.lock().pmu.Unlock()
	if p, ok := m.get(id); ok {
		return p, nil
	}
	return Profile{}, ErrNoProfile
}

// NamedProfile implements ProfileStore.
func (m *memProfiles) NamedProfile(_ context.Context, name string) (Profile, error) {
	defer m.lock().pmu.Unlock()
	if p, ok := m.get(m.names[nameKey(name)]); ok {
		return p, nil
	}
	return Profile{}, ErrNoProfile
}

// CreateProfile implements ProfileStore.
func (m *memProfiles) CreateProfile(_ context.Context, p Profile) error {
	defer m.lock().pmu.Unlock()
	p.Keys = slices.Clone(p.Keys)
	return createProfile(m, p)
}

// Rename implements ProfileStore.
func (m *memProfiles) Rename(_ context.Context, id, name string) error {
	defer m.lock().pmu.Unlock()
	return renameProfile(m, id, name)
}

// PutLinkCode implements ProfileStore.
func (m *memProfiles) PutLinkCode(_ context.Context, code, id string, now, expires time.Time) error {
	defer m.lock().pmu.Unlock()
	for c, l := range m.links { // forget the lapsed ones as new ones come
		if !now.Before(l.expires) {
			delete(m.links, c)
		}
	}
	m.links[code] = memLink{id, expires}
	return nil
}

// TakeLinkCode implements ProfileStore.
func (m *memProfiles) TakeLinkCode(_ context.Context, code string, now time.Time) (string, error) {
	defer m.lock().pmu.Unlock()
	l, ok := m.links[code]
	delete(m.links, code)
	if !ok || !now.Before(l.expires) {
		return "", ErrNoLinkCode
	}
	return l.id, nil
}

// LinkKey implements ProfileStore.
func (m *memProfiles) LinkKey(_ context.Context, key, id string) error {
	defer m.lock().pmu.Unlock()
	return linkKey(m, key, id)
}

var (
	profilesBucket     = []byte("profiles")      // ID -> Profile JSON
	profileKeysBucket  = []byte("profile-keys")  // key fingerprint -> ID
	profileNamesBucket = []byte("profile-names") // nameKey -> ID
	linkCodesBucket    = []byte("link-codes")    // code -> boltLink JSON
)

// boltLink is a link code's profile and expiry as the bbolt and Redis
// stores keep them.
type boltLink struct {
	ID      string    `json:"id"`
	Expires time.Time `json:"expires"`
}

// boltProfiles is the profiles in one bbolt transaction.
type boltProfiles struct {
	profiles, keys, names *bolt.Bucket
	err                   error // the first failure of a put
}

func boltProfilesOf(tx *bolt.Tx) (*boltProfiles, error) {
	if !tx.Writable() {
		return &boltProfiles{profiles: tx.Bucket(profilesBucket), keys: tx.Bucket(profileKeysBucket), names: tx.Bucket(profileNamesBucket)}, nil
	}
	var b [3]*bolt.Bucket
	for i, name := range [][]byte{profilesBucket, profileKeysBucket, profileNamesBucket} {
		var err error
		if b[i], err = tx.CreateBucketIfNotExists(name); err != nil {
			return nil, err
		}
	}
	return &boltProfiles{profiles: b[0], keys: b[1], names: b[2]}, nil
}

func bucketGet(b *bolt.Bucket, k string) (string, bool) {
	if b == nil {
		return "", false
	}
	v := b.Get([]byte(k))
	return string(v), v != nil
}

func (b *boltProfiles) keep(err error) {
	if b.err == nil {
		b.err = err
	}
}

// decodeProfile reads the stored profile id.
func decodeProfile(id string, data []byte) (Profile, error) {
	var p Profile
	if err := json.Unmarshal(data, &p); err != nil {
		return Profile{}, fmt.Errorf("profile %s: %w", id, err)
	}
	return p, nil
}

func (b *boltProfiles) get(id string) (Profile, bool) {
	v, ok := bucketGet(b.profiles, id)
	if !ok {
		return Profile{}, false
	}
	p, err := decodeProfile(id, []byte(v))
	b.keep(err)
	return p, err == nil
}
func (b *boltProfiles) put(p Profile)                     { b.keep(putJSON(b.profiles, []byte(p.ID), p)) }
func (b *boltProfiles) drop(id string)                    { b.keep(b.profiles.Delete([]byte(id))) }
func (b *boltProfiles) keyOf(key string) (string, bool)   { return bucketGet(b.keys, key) }
func (b *boltProfiles) setKey(key, id string)             { b.keep(b.keys.Put([]byte(key), []byte(id))) }
func (b *boltProfiles) dropKey(key string)                { b.keep(b.keys.Delete([]byte(key))) }
func (b *boltProfiles) nameOf(name string) (string, bool) { return bucketGet(b.names, name) }
func (b *boltProfiles) setName(name, id string)           { b.keep(b.names.Put([]byte(name), []byte(id))) }
func (b *boltProfiles) dropName(name string)              { b.keep(b.names.Delete([]byte(name))) }

// read looks a profile up in a read-only transaction.
func (s *BoltStore) readProfile(find func(b *boltProfiles) (string, bool)) (p Profile, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		b, _ := boltProfilesOf(tx)
		id, ok := find(b)
		if ok {
			p, ok = b.get(id)
		}
		if b.err != nil {
			return b.err
		}
		if !ok {
			return ErrNoProfile
		}
		return nil
	})
	return p, err
}

// changeProfiles runs change in one write transaction.
func (s *BoltStore) changeProfiles(change func(b *boltProfiles) error) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := boltProfilesOf(tx)
		if err != nil {
			return err
		}
		if err := change(b); err != nil {
			return err
		}
		return b.err
	})
}

// KeyProfile implements ProfileStore.
func (s *BoltStore) KeyProfile(_ context.Context, key string) (Profile, error) {
	return s.readProfile(func(b *boltProfiles) (string, bool) { return b.keyOf(key) })
}

// Profile implements ProfileStore.
func (s *BoltStore) Profile(_ context.Context, id string) (Profile, error) {
	return s.readProfile(func(*boltProfiles) (string, bool) { return id, true })
}

// NamedProfile implements ProfileStore.
func (s *BoltStore) NamedProfile(_ context.Context, name string) (Profile, error) {
	return s.readProfile(func(b *boltProfiles) (string, bool) { return b.nameOf(nameKey(name)) })
}

// CreateProfile implements ProfileStore.
func (s *BoltStore) CreateProfile(_ context.Context, p Profile) error {
	return s.changeProfiles(func(b *boltProfiles) error { return createProfile(b, p) })
}

// Rename implements ProfileStore.
func (s *BoltStore) Rename(_ context.Context, id, name string) error {
	return s.changeProfiles(func(b *boltProfiles) error { return renameProfile(b, id, name) })
}

// LinkKey implements ProfileStore.
func (s *BoltStore) LinkKey(_ context.Context, key, id string) error {
	return s.changeProfiles(func(b *boltProfiles) error { return linkKey(b, key, id) })
}

// PutLinkCode implements ProfileStore.
func (s *BoltStore) PutLinkCode(_ context.Context, code, id string, now, expires time.Time) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		links, err := tx.CreateBucketIfNotExists(linkCodesBucket)
		if err != nil {
			return err
		}
		// Forget the lapsed ones as new ones come: there are few.
		var lapsed [][]byte
		err = links.ForEach(func(k, v []byte) error {
			var l boltLink
			if json.Unmarshal(v, &l) != nil || !now.Before(l.Expires) {
				lapsed = append(lapsed, k)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range lapsed {
			if err := links.Delete(k); err != nil {
				return err
			}
		}
		return putJSON(links, []byte(code), boltLink{ID: id, Expires: expires})
	})
}

// TakeLinkCode implements ProfileStore.
func (s *BoltStore) TakeLinkCode(_ context.Context, code string, now time.Time) (id string, err error) {
	err = s.db.Update(func(tx *bolt.Tx) error {
		links := tx.Bucket(linkCodesBucket)
		if links == nil {
			return ErrNoLinkCode
		}
		v := links.Get([]byte(code))
		if v == nil {
			return ErrNoLinkCode
		}
		var l boltLink
		if err := json.Unmarshal(v, &l); err != nil {
			return fmt.Errorf("link code: %w", err)
		}
		if err := links.Delete([]byte(code)); err != nil {
			return err
		}
		if !now.Before(l.Expires) {
			return ErrNoLinkCode
		}
		id = l.ID
		return nil
	})
	return id, err
}

// Redis keeps profiles in three hashes and link codes in keys that Redis
// expires itself. The braces put every one of them in one cluster slot,
// so a change to several is one transaction.
const (
	redisProfiles     = redisPrefix + "{profiles}:byid"   // ID -> Profile JSON
	redisProfileKeys  = redisPrefix + "{profiles}:bykey"  // key -> ID
	redisProfileNames = redisPrefix + "{profiles}:byname" // nameKey -> ID
)

func redisLinkKey(code string) string { return redisPrefix + "{profiles}:link:" + code }

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

func (r *redisProfileTx) get(id string) (Profile, bool) {
	v, ok := r.hget(redisProfiles, id)
	if !ok {
		return Profile{}, false
	}
	p, err := decodeProfile(id, []byte(v))
	r.keep(err)
	return p, err == nil
}

func (r *redisProfileTx) put(p Profile) {
	data, err := json.Marshal(p)
	r.keep(err)
	r.pipe.HSet(r.ctx, redisProfiles, p.ID, data)
}
func (r *redisProfileTx) drop(id string)                    { r.pipe.HDel(r.ctx, redisProfiles, id) }
func (r *redisProfileTx) keyOf(key string) (string, bool)   { return r.hget(redisProfileKeys, key) }
func (r *redisProfileTx) setKey(key, id string)             { r.pipe.HSet(r.ctx, redisProfileKeys, key, id) }
func (r *redisProfileTx) dropKey(key string)                { r.pipe.HDel(r.ctx, redisProfileKeys, key) }
func (r *redisProfileTx) nameOf(name string) (string, bool) { return r.hget(redisProfileNames, name) }
func (r *redisProfileTx) setName(name, id string)           { r.pipe.HSet(r.ctx, redisProfileNames, name, id) }
func (r *redisProfileTx) dropName(name string)              { r.pipe.HDel(r.ctx, redisProfileNames, name) }

// changeProfiles runs change as one optimistic transaction over the
// profile hashes: should another instance change them between its reads
// and its writes, it runs again on what is there then.
func (s *RedisStore) changeProfiles(ctx context.Context, change func(p *redisProfileTx) error) error {
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
	if errors.Is(err, ErrConflict) {
		return fmt.Errorf("profiles changed by others at every try: %w", err)
	}
	return err
}

func (s *RedisStore) readProfile(ctx context.Context, hash, field string) (Profile, error) {
	id := field
	if hash != "" {
		var err error
		id, err = s.rdb.HGet(ctx, hash, field).Result()
		if errors.Is(err, redis.Nil) {
			return Profile{}, ErrNoProfile
		}
		if err != nil {
			return Profile{}, fmt.Errorf("read profile: %w", err)
		}
	}
	data, err := s.rdb.HGet(ctx, redisProfiles, id).Bytes()
	if errors.Is(err, redis.Nil) {
		return Profile{}, ErrNoProfile
	}
	if err != nil {
		return Profile{}, fmt.Errorf("read profile: %w", err)
	}
	return decodeProfile(id, data)
}

// KeyProfile implements ProfileStore.
func (s *RedisStore) KeyProfile(ctx context.Context, key string) (Profile, error) {
	return s.readProfile(ctx, redisProfileKeys, key)
}

// Profile implements ProfileStore.
func (s *RedisStore) Profile(ctx context.Context, id string) (Profile, error) {
	return s.readProfile(ctx, "", id)
}

// NamedProfile implements ProfileStore.
func (s *RedisStore) NamedProfile(ctx context.Context, name string) (Profile, error) {
	return s.readProfile(ctx, redisProfileNames, nameKey(name))
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

// CreateProfile implements ProfileStore.
func (s *RedisStore) CreateProfile(ctx context.Context, p Profile) error {
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	res, err := createProfileScript.Run(ctx, s.rdb, []string{redisProfiles, redisProfileKeys, redisProfileNames},
		p.ID, p.Keys[0], nameKey(p.Name), data).Text()
	switch {
	case err != nil:
		return fmt.Errorf("create profile: %w", err)
	case res == "exists":
		return ErrExists
	case res == "taken":
		return ErrNameTaken
	}
	return nil
}

// Rename implements ProfileStore.
func (s *RedisStore) Rename(ctx context.Context, id, name string) error {
	return s.changeProfiles(ctx, func(r *redisProfileTx) error { return renameProfile(r, id, name) })
}

// LinkKey implements ProfileStore.
func (s *RedisStore) LinkKey(ctx context.Context, key, id string) error {
	return s.changeProfiles(ctx, func(r *redisProfileTx) error { return linkKey(r, key, id) })
}

// PutLinkCode implements ProfileStore. The code's key holds its expiry
// and its profile, and Redis forgets it once it lapses.
func (s *RedisStore) PutLinkCode(ctx context.Context, code, id string, now, expires time.Time) error {
	life := expires.Sub(now)
	if life <= 0 {
		return nil // lapsed already: nothing to keep
	}
	data, err := json.Marshal(boltLink{ID: id, Expires: expires})
	if err != nil {
		return err
	}
	if err := s.rdb.Set(ctx, redisLinkKey(code), data, life).Err(); err != nil {
		return fmt.Errorf("keep a link code: %w", err)
	}
	return nil
}

// TakeLinkCode implements ProfileStore. GETDEL reads and forgets the code
// in one step, so of two instances taking it only one gets it.
func (s *RedisStore) TakeLinkCode(ctx context.Context, code string, now time.Time) (string, error) {
	data, err := s.rdb.GetDel(ctx, redisLinkKey(code)).Bytes()
	if errors.Is(err, redis.Nil) {
		return "", ErrNoLinkCode
	}
	if err != nil {
		return "", fmt.Errorf("take a link code: %w", err)
	}
	var l boltLink
	if err := json.Unmarshal(data, &l); err != nil {
		return "", fmt.Errorf("link code: %w", err)
	}
	if !now.Before(l.Expires) {
		return "", ErrNoLinkCode
	}
	return l.ID, nil
}
