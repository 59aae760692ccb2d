package store

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"
)

// MemLists implements Lists in memory, for the drivers whose rooms one
// process holds: mem keeps it beside its rooms, bolt builds it from the
// file when it opens. Its driver calls Put after every write of a room's
// metadata and Remove after a delete; load reads the metadata of the
// codes a page lists, in order, skipping those gone. A driver answers
// the lists' reads by embedding it as a Lists field, which promotes the
// reads and not Put and Remove.
type MemLists struct {
	load func(codes []string) ([]Meta, error)

	mu    sync.Mutex
	in    map[string][]Listing // the lists each room is in
	lists map[string]*sortedSet
}

// NewMemLists returns empty lists reading pages' metadata with load.
func NewMemLists(load func(codes []string) ([]Meta, error)) *MemLists {
	return &MemLists{load: load, in: map[string][]Listing{}, lists: map[string]*sortedSet{}}
}

// Put files m in the lists it belongs in now and out of the others;
// created adds it to its host's creation logs too.
func (x *MemLists) Put(m Meta, created bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeLocked(m.Code)
	now := Listings(m)
	for _, l := range now {
		x.set(l.List).put(m.Code, l.Score)
	}
	x.in[m.Code] = now
	if created {
		for _, name := range Made(m) {
			x.set(name).put(m.Code, m.Created.UnixMilli())
		}
	}
}

// Remove takes code out of every list, but not out of the creation logs.
func (x *MemLists) Remove(code string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeLocked(code)
}

func (x *MemLists) removeLocked(code string) {
	for _, l := range x.in[code] {
		s := x.lists[l.List]
		s.remove(code, l.Score)
		if len(s.entries) == 0 {
			delete(x.lists, l.List)
		}
	}
	delete(x.in, code)
}

func (x *MemLists) set(name string) *sortedSet {
	s := x.lists[name]
	if s == nil {
		s = &sortedSet{}
		x.lists[name] = s
	}
	return s
}

// newest returns up to limit codes of list, the highest scores first.
func (x *MemLists) newest(list string, limit int) []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	s := x.lists[list]
	if s == nil {
		return nil
	}
	var out []string
	for i := len(s.entries) - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, s.entries[i].code)
	}
	return out
}

// OpenSeats implements Lists.
func (x *MemLists) OpenSeats(_ context.Context, limit int) ([]Meta, error) {
	return x.load(x.newest(ListOpen, limit))
}

// InPlay implements Lists.
func (x *MemLists) InPlay(_ context.Context, limit int) ([]Meta, error) {
	return x.load(x.newest(ListPlay, limit))
}

// PlayerRooms implements Lists.
func (x *MemLists) PlayerRooms(_ context.Context, player string, limit int) ([]Meta, error) {
	codes := x.newest(ListPlayer(player), limit)
	codes = append(codes, x.newest(ListPlayed(player), limit-len(codes))...)
	return x.load(codes)
}

// RoomCounts implements Lists.
func (x *MemLists) RoomCounts(_ context.Context, host, addr string, since time.Time, limit int) (RoomCounts, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var c RoomCounts
	if host != "" {
		c.Made = x.lists[ListMadeBy(host)].since(since.UnixMilli())
		c.Open = min(x.lists[ListHost(host)].len(), limit)
	}
	if addr != "" {
		c.AddrMade = x.lists[ListMadeFrom(addr)].since(since.UnixMilli())
		c.AddrOpen = min(x.lists[ListAddr(addr)].len(), limit)
	}
	return c, nil
}

// Due implements Lists. A move changes no list, so a room's place in the
// due list is its Updated when its metadata was last written: a room
// found to have moved since is filed again at its last move and skipped.
func (x *MemLists) Due(_ context.Context, before time.Time, limit int) ([]Meta, error) {
	var out []Meta
	// Rooms filed again leave the range and the due ones stay in front,
	// so a few rounds find the rest.
	for range 8 {
		codes := x.oldest(ListDue, len(out), before.UnixMilli(), limit-len(out))
		if len(codes) == 0 {
			break
		}
		metas, err := x.load(codes)
		if err != nil {
			return nil, err
		}
		moved := false
		for _, m := range metas {
			if m.Updated.Before(before) {
				out = append(out, m)
				continue
			}
			x.refile(m.Code, ListDue, m.Updated.UnixMilli())
			moved = true
		}
		if !moved || len(out) == limit {
			break
		}
	}
	slices.SortStableFunc(out, func(a, b Meta) int { return a.Updated.Compare(b.Updated) })
	return out, nil
}

// oldest returns up to limit codes of list scored below before, the
// lowest first, skipping the first skip.
func (x *MemLists) oldest(list string, skip int, before int64, limit int) []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	s := x.lists[list]
	if s == nil || skip >= len(s.entries) {
		return nil
	}
	var out []string
	for _, e := range s.entries[skip:] {
		if e.score >= before || len(out) == limit {
			break
		}
		out = append(out, e.code)
	}
	return out
}

// refile moves code later in list, to score, if it is there at a lower
// one: only ever later, so a reader holding older metadata than the last
// writer's cannot undo what the writer filed.
func (x *MemLists) refile(code, list string, score int64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for i, l := range x.in[code] {
		if l.List == list && l.Score < score {
			x.lists[list].remove(code, l.Score)
			x.lists[list].put(code, score)
			x.in[code][i].Score = score
		}
	}
}

// sortedSet is one list: codes by score, then code, lowest first.
type sortedSet struct{ entries []entry }

type entry struct {
	score int64
	code  string
}

func compareEntry(a, b entry) int {
	return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.code, b.code))
}

func (s *sortedSet) put(code string, score int64) {
	e := entry{score, code}
	if i, found := slices.BinarySearchFunc(s.entries, e, compareEntry); !found {
		s.entries = slices.Insert(s.entries, i, e)
	}
}

func (s *sortedSet) remove(code string, score int64) {
	if i, found := slices.BinarySearchFunc(s.entries, entry{score, code}, compareEntry); found {
		s.entries = slices.Delete(s.entries, i, i+1)
	}
}

func (s *sortedSet) len() int {
	if s == nil {
		return 0
	}
	return len(s.entries)
}

// since counts the entries scored at or after from.
func (s *sortedSet) since(from int64) int {
	if s == nil {
		return 0
	}
	i, _ := slices.BinarySearchFunc(s.entries, entry{score: from}, compareEntry)
	return len(s.entries) - i
}
