package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// A name is a key of its own (keys.go) holding "ID MS": the profile that
// took it, and when. It counts only while that profile's name field says
// so, so a creation or rename that died between its steps holds nothing:
// the name is free to its taker at once, and to others after nameGrace.

// nameGrace is how long a name taken for a profile that does not hold it
// (yet) stays taken for others: the time a creation or a rename takes
// between its steps, and no longer, so a crashed one frees the name.
const nameGrace = time.Minute

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

// letName lets name key nk go if profile id holds it.
func (s *Store) letName(ctx context.Context, nk, id string) error {
	if err := dropIfScript.Run(ctx, s.rdb, []string{nameKey(nk)}, id).Err(); err != nil {
		return fmt.Errorf("let a name go: %w", err)
	}
	return nil
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
