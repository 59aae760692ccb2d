package redis

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// The lists (store.Lists) are sorted sets beside the rooms, one key each
// (keys.go), so they spread over a cluster's slots and no script can
// change a room and a list together. Each list is kept a superset of the
// rooms that belong in it, and its readers check every entry against the
// metadata they read anyway for the page:
//
//   - a write lists the room in what it is about to belong to before the
//     room's script runs, and again after (list), so a crash in between
//     leaves an extra entry, never a missing one;
//   - a write takes the room out of what it no longer belongs to only
//     after its script is done, and whoever takes an entry out reads the
//     room again and puts it back if a write meanwhile made it belong
//     there (unlist): with the writer's second listing, an entry is lost
//     only if a writer dies between its script and that listing while a
//     reader is removing the same entry;
//   - a reader skips an entry whose room does not belong in the list and
//     takes it out as above, so what a crash left costs one read, once.
//
// Scores only grow (ZADD GT): a write holding older metadata than the
// last cannot move an entry back.

func listKey(name string) string { return redisPrefix + "list:" + name }

// madeKeep is how long the creation logs (store.Made) keep a room: the
// quotas count the last hour.
const madeKeep = 2 * time.Hour

// list puts m in every list it belongs in.
func (s *Store) list(ctx context.Context, m store.Meta) error {
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, l := range store.Listings(m) {
			p.ZAddGT(ctx, listKey(l.List), redis.Z{Score: float64(l.Score), Member: m.Code})
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("list room %s: %w", m.Code, err)
	}
	return nil
}

// logMade adds a room just created to its host's creation logs.
func (s *Store) logMade(ctx context.Context, m store.Meta) error {
	at := m.Created.UnixMilli()
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, name := range store.Made(m) {
			p.ZAdd(ctx, listKey(name), redis.Z{Score: float64(at), Member: m.Code})
			p.ZRemRangeByScore(ctx, listKey(name), "-inf", "("+strconv.FormatInt(at-madeKeep.Milliseconds(), 10))
			p.PExpire(ctx, listKey(name), madeKeep)
		}
		return nil
	})
	return err
}

// listCreated lists room m once its script created it, and logs it in
// its host's creation logs. A failure leaves the listing made before the
// script, and one room uncounted.
func (s *Store) listCreated(ctx context.Context, m store.Meta) {
	_ = s.list(ctx, m)
	_ = s.logMade(ctx, m)
}

// listEnded moves room code, whose game a move just ended, from the
// lists of unfinished rooms to its players' finished games. A failure
// leaves entries that readers move as they meet them.
func (s *Store) listEnded(ctx context.Context, code string) {
	if metas, err := s.metasOf(ctx, []string{code}); err == nil && len(metas) == 1 {
		_ = s.relist(ctx, metas[0])
	}
}

// unlistDeleted takes the deleted rooms out of every list they could be
// in. A failure leaves entries that readers take out as they meet them.
func (s *Store) unlistDeleted(ctx context.Context, metas []store.Meta) {
	for _, m := range metas {
		_, _ = s.unlist(ctx, m.Code, store.Candidates(m))
	}
}

// relist files m, as just written, in the lists it belongs in and out of
// the others it could be in (and of extra, a list a reader found it in).
func (s *Store) relist(ctx context.Context, m store.Meta, extra ...string) error {
	if err := s.list(ctx, m); err != nil {
		return err
	}
	in := store.Listings(m)
	var out []string
	for _, name := range append(store.Candidates(m), extra...) {
		if !slices.ContainsFunc(in, func(l store.Listing) bool { return l.List == name }) && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	_, err := s.unlist(ctx, m.Code, out)
	return err
}

// unlist takes code out of the lists names, then reads the room and puts
// it back in those of them it belongs in: a write may have listed it
// meanwhile. It returns how many entries stay out.
func (s *Store) unlist(ctx context.Context, code string, names []string) (int, error) {
	if len(names) == 0 {
		return 0, nil
	}
	rems := make([]*redis.IntCmd, len(names))
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, name := range names {
			rems[i] = p.ZRem(ctx, listKey(name), code)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("unlist room %s: %w", code, err)
	}
	var removed []string
	for i, c := range rems {
		if c.Val() == 1 {
			removed = append(removed, names[i])
		}
	}
	if len(removed) == 0 {
		return 0, nil
	}
	metas, err := s.metasOf(ctx, []string{code})
	if err != nil || len(metas) == 0 {
		return len(removed), err
	}
	var back []store.Listing
	for _, l := range store.Listings(metas[0]) {
		if slices.Contains(removed, l.List) {
			back = append(back, l)
		}
	}
	if len(back) > 0 {
		_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, l := range back {
				p.ZAddGT(ctx, listKey(l.List), redis.Z{Score: float64(l.Score), Member: code})
			}
			return nil
		})
	}
	return len(removed) - len(back), err
}

// metasOf reads the metadata of the rooms codes, in order, skipping the
// rooms gone: one HMGET each, pipelined.
func (s *Store) metasOf(ctx context.Context, codes []string) ([]store.Meta, error) {
	cmds := make([]*redis.SliceCmd, len(codes))
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, code := range codes {
			cmds[i] = p.HMGet(ctx, metaKey(code), metaFields...)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read rooms: %w", err)
	}
	out := make([]store.Meta, 0, len(codes))
	for i, cmd := range cmds {
		m, err := decodeMeta(codes[i], cmd.Val())
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// checked reads the rooms codes of list and keeps those that belong in
// it; the others are taken out (settle). It returns the rooms kept and
// how many entries left the list.
func (s *Store) checked(ctx context.Context, list string, codes []string, belongs func(store.Meta) bool) ([]store.Meta, int, error) {
	metas, err := s.metasOf(ctx, codes)
	if err != nil {
		return nil, 0, err
	}
	kept, gone := metas[:0], 0
	found := map[string]bool{}
	for _, m := range metas {
		found[m.Code] = true
		if belongs(m) {
			kept = append(kept, m)
			continue
		}
		if err := s.relist(ctx, m, list); err != nil {
			return nil, 0, err
		}
		gone++
	}
	for _, code := range codes {
		if !found[code] { // the room is gone
			n, err := s.unlist(ctx, code, []string{list})
			if err != nil {
				return nil, 0, err
			}
			gone += n
		}
	}
	return kept, gone, nil
}

// page reads up to limit rooms of list, the highest scores first.
func (s *Store) page(ctx context.Context, list string, limit int) ([]store.Meta, error) {
	var out []store.Meta
	from := int64(0)
	for range 4 { // stale entries are rare and leave as they are met
		want := int64(limit - len(out))
		if want <= 0 {
			break
		}
		codes, err := s.rdb.ZRevRange(ctx, listKey(list), from, from+want-1).Result()
		if err != nil {
			return nil, fmt.Errorf("read list %s: %w", list, err)
		}
		kept, _, err := s.checked(ctx, list, codes, func(m store.Meta) bool { return store.InList(m, list) })
		if err != nil {
			return nil, err
		}
		for _, m := range kept {
			if !slices.ContainsFunc(out, func(o store.Meta) bool { return o.Code == m.Code }) {
				out = append(out, m)
			}
		}
		if int64(len(codes)) < want || len(kept) == len(codes) {
			break
		}
		// What did not belong is out of the list now, so the next entry
		// is the one after those kept.
		from += int64(len(kept))
	}
	return out, nil
}

// OpenSeats implements store.Lists.
func (s *Store) OpenSeats(ctx context.Context, limit int) ([]store.Meta, error) {
	return s.page(ctx, store.ListOpen, limit)
}

// InPlay implements store.Lists.
func (s *Store) InPlay(ctx context.Context, limit int) ([]store.Meta, error) {
	return s.page(ctx, store.ListPlay, limit)
}

// PlayerRooms implements store.Lists.
func (s *Store) PlayerRooms(ctx context.Context, player string, limit int) ([]store.Meta, error) {
	open, err := s.page(ctx, store.ListPlayer(player), limit)
	if err != nil || len(open) >= limit {
		return open, err
	}
	done, err := s.page(ctx, store.ListPlayed(player), limit-len(open))
	return append(open, done...), err
}

// RoomCounts implements store.Lists: two ZCOUNTs, and the unfinished
// rooms read up to limit to check each is still unfinished.
func (s *Store) RoomCounts(ctx context.Context, host, addr string, since time.Time, limit int) (store.RoomCounts, error) {
	var c store.RoomCounts
	from := strconv.FormatInt(since.UnixMilli(), 10)
	count := func(list string, n *int) error {
		v, err := s.rdb.ZCount(ctx, listKey(list), from, "+inf").Result()
		*n = int(v)
		return err
	}
	open := func(list string, n *int) error {
		rooms, err := s.page(ctx, list, limit)
		*n = len(rooms)
		return err
	}
	var errs []error
	if host != "" {
		errs = append(errs, count(store.ListMadeBy(host), &c.Made))
		if limit > 0 {
			errs = append(errs, open(store.ListHost(host), &c.Open))
		}
	}
	if addr != "" {
		errs = append(errs, count(store.ListMadeFrom(addr), &c.AddrMade))
		if limit > 0 {
			errs = append(errs, open(store.ListAddr(addr), &c.AddrOpen))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return c, fmt.Errorf("count rooms: %w", err)
	}
	return c, nil
}

// Due implements store.Lists. A move writes no list, so a room's score
// in the due list is its Updated when its metadata was last written, at
// or before its last move: a room found to have moved since is filed at
// its last move (ZADD XX GT) and skipped, which leaves the range read.
// A busy room is so filed at most once an expiry period.
func (s *Store) Due(ctx context.Context, before time.Time, limit int) ([]store.Meta, error) {
	var out []store.Meta
	end := "(" + strconv.FormatInt(before.UnixMilli(), 10)
	for range 8 {
		want := limit - len(out)
		if want <= 0 {
			break
		}
		codes, err := s.rdb.ZRangeByScore(ctx, listKey(store.ListDue), &redis.ZRangeBy{
			Min: "-inf", Max: end, Offset: int64(len(out)), Count: int64(want)}).Result()
		if err != nil {
			return nil, fmt.Errorf("read due rooms: %w", err)
		}
		kept, _, err := s.checked(ctx, store.ListDue, codes, func(m store.Meta) bool { return !m.Over })
		if err != nil {
			return nil, err
		}
		moved := false
		for _, m := range kept {
			if m.Updated.Before(before) {
				out = append(out, m)
				continue
			}
			moved = true
			err := s.rdb.ZAddArgs(ctx, listKey(store.ListDue), redis.ZAddArgs{XX: true, GT: true,
				Members: []redis.Z{{Score: float64(m.Updated.UnixMilli()), Member: m.Code}}}).Err()
			if err != nil {
				return nil, fmt.Errorf("refile due room %s: %w", m.Code, err)
			}
		}
		if len(codes) < want || (!moved && len(kept) == len(codes)) {
			break
		}
	}
	slices.SortStableFunc(out, func(a, b store.Meta) int { return a.Updated.Compare(b.Updated) })
	return out, nil
}

// The lists came with this version; stores written before have none,
// and the first instance to open one builds them from the room set.
const (
	listsBuilt    = redisPrefix + "lists:built"    // "1" once built
	listsBuilding = redisPrefix + "lists:building" // the builder's origin, while it builds
)

// buildLists lists every stored room once, if no instance has: the one
// that sets listsBuilding first builds, the others go on without
// waiting (the lists fill as it reads). Should it die, the key expires
// and the next to open builds.
func (s *Store) buildLists(ctx context.Context) error {
	if n, err := s.rdb.Exists(ctx, listsBuilt).Result(); err != nil || n == 1 {
		return err
	}
	ok, err := s.rdb.SetNX(ctx, listsBuilding, s.origin, 10*time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	if err := s.buildFromSet(ctx); err != nil {
		s.rdb.Del(ctx, listsBuilding) // the next to open tries again
		return fmt.Errorf("build room lists: %w", err)
	}
	if err := s.rdb.Set(ctx, listsBuilt, "1", 0).Err(); err != nil {
		return fmt.Errorf("build room lists: %w", err)
	}
	return s.rdb.Del(ctx, listsBuilding).Err()
}

// buildFromSet lists every room of the room set, 500 at a time.
func (s *Store) buildFromSet(ctx context.Context) error {
	codes, err := s.rdb.SMembers(ctx, redisRoomIndex).Result()
	if err != nil {
		return err
	}
	for len(codes) > 0 {
		part := codes[:min(500, len(codes))]
		codes = codes[len(part):]
		metas, err := s.metasOf(ctx, part)
		if err != nil {
			return err
		}
		for _, m := range metas {
			if err := s.list(ctx, m); err != nil {
				return err
			}
		}
	}
	return nil
}
