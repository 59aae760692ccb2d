package lobby

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// A lookup is a player naming a room to join, watch or replay it. A miss
// is a lookup that finds no room the player may enter: no room has the
// code, or it names a private room without its secret. The player is told
// the same in both cases, so a guess learns nothing.
//
// Misses are counted per key and per address (store.Misses). Past a
// quarter of Limits.LookupMisses in a window each miss waits twice as long
// as the one before, after the misses of the same key or address still
// waiting: misses sent in parallel are answered one after another, and
// those still waiting when the player goes away are not answered. Past
// LookupMisses the player may open only the rooms they hold a seat in or
// host until the window ends, and every other lookup is refused with a
// final LimitError, on which the server ends the connection.

// maxLookupWait caps the wait of one miss.
const maxLookupWait = 8 * time.Second

// open returns the room invite names, if p may enter it, and whether p
// may be shown its invite (see lookup). A guest's seat word, when given,
// that names a seat they may take back admits them as that seat's
// player, even to a private room (seatword.go).
func (a *access) open(ctx context.Context, invite, word string, p Player) (*room.Room, bool, error) {
	var r *room.Room
	share, err := a.lookup(ctx, invite, word, p, func(code string) (store.Meta, error) {
		var err error
		if r, err = a.loadRoom(ctx, code); err != nil {
			return store.Meta{}, err
		}
		return r.AdmitWord(word, p), nil
	})
	if err != nil {
		return nil, false, err
	}
	return r, share, nil
}

// lookup checks that p may enter the room invite names, which find reads
// by its code (ErrNotFound when there is none), with the seat word p
// brought ("" for none): it parses what p typed once, asks once whether p
// is barred, counts and slows a miss, and refuses p past the limit. A
// word that opens no seat is a miss too. share says p may be shown the
// invite of the private room: they came in with it, or they hold a seat
// there or are its host.
func (a *access) lookup(ctx context.Context, invite, word string, p Player, find func(code string) (store.Meta, error)) (share bool, err error) {
	code, secret, ok := ParseInvite(invite)
	if !ok {
		// Nothing is looked up, so nothing is learnt or counted.
		typed := fmt.Sprintf("%.*q", CodeLength+SecretLength, NormalizeCode(invite))
		return false, room.Refuse(fmt.Sprintf("%s is not a room code: a code has %d letters and digits, a private room's invite %d",
			typed, CodeLength, CodeLength+SecretLength), "lobby.notCode",
			engine.Str("Typed", typed), engine.Num("Code", CodeLength), engine.Num("Invite", CodeLength+SecretLength))
	}
	barred := a.barred(ctx, p)
	if barred != nil && word != "" {
		// One who missed too often guesses no more words either.
		return false, a.miss(ctx, code, p, barred)
	}
	m, err := find(code)
	if errors.Is(err, store.ErrNotFound) {
		return false, a.miss(ctx, code, p, barred)
	}
	if err != nil {
		return false, err
	}
	admitted, own := admits(m, p, secret)
	switch {
	case own:
		return !m.Public, nil
	case barred != nil:
		return false, a.miss(ctx, code, p, barred)
	case !admitted:
		// A private room's miss is counted and told as any other, with
		// a word or without.
		return false, a.miss(ctx, code, p, nil)
	case word != "":
		if err := a.countMiss(ctx, p, nil); err != nil {
			return false, err
		}
		return false, room.ErrNoSeatForWord(code, ShortDuration(room.GraceOf(m)))
	}
	return !m.Public, nil
}

// noRoom is what a miss says, whichever kind it is.
func noRoom(code string) error {
	return room.Refuse(fmt.Sprintf("no room %q: check the code (a private room needs its whole invite, CODE-SECRET)", code),
		"lobby.noRoom", engine.Str("Code", fmt.Sprintf("%q", code)))
}

// miss counts a miss by p and returns what to tell them: after a wait
// once p has missed often, and a final LimitError past the limit. barred,
// when set, is the refusal p is under already; nothing more is counted.
func (a *access) miss(ctx context.Context, code string, p Player, barred *LimitError) error {
	if err := a.countMiss(ctx, p, barred); err != nil {
		return err
	}
	return noRoom(code)
}

// countMiss counts a failed lookup by p (a room or a link code) and
// returns nil once any wait is over, or the refusal past the limit.
func (a *access) countMiss(ctx context.Context, p Player, barred *LimitError) error {
	if barred != nil {
		a.env.Observer.Refused(barred.Reason, p)
		return barred
	}
	lim := a.limits
	if lim.LookupMisses <= 0 {
		return nil
	}
	now := a.env.Now()
	n, by, ends := 0, "", time.Time{}
	var counts []missCount
	for _, name := range missNames(p) {
		c, e, err := a.misses().Miss(ctx, name.key, now, lim.LookupWindow)
		if err != nil {
			a.env.Fault("count a failed lookup", err)
			continue
		}
		counts = append(counts, missCount{name.key, c})
		if c > n {
			n, by, ends = c, name.by, e
		}
	}
	if n > lim.LookupMisses {
		refusal := lookupRefusal(by, ends.Sub(now))
		a.env.Observer.Refused(refusal.Reason, p)
		return refusal
	}
	d := a.missTurn(ctx, counts, now)
	if d <= 0 {
		return nil
	}
	a.env.Observer.Refused("lookup_backoff", p)
	// Should the player go away, or the server end the session (as it
	// does every session of a connection past the limit), nothing is
	// answered, so misses sent in parallel learn no more than misses sent
	// one by one.
	return room.Pause(ctx, d)
}

// missCount is a name's count of misses, this one included.
type missCount struct {
	key string
	n   int
}

// missTurn reserves a miss's turn under each name it was counted by and
// returns how long it waits: its back-off after the misses of the same key
// or address still waiting, wherever they wait.
func (a *access) missTurn(ctx context.Context, counts []missCount, now time.Time) time.Duration {
	var longest time.Duration
	for _, c := range counts {
		wait := lookupWait(a.limits, c.n)
		if wait <= 0 {
			continue
		}
		d, err := a.misses().Turn(ctx, c.key, now, wait)
		if err != nil {
			a.env.Fault("reserve a failed lookup's turn", err)
			d = wait
		}
		longest = max(longest, d)
	}
	return longest
}

// barred returns the refusal p is under for missing too often, or nil.
// A counter that cannot answer bars nobody: the lookup itself will tell.
func (a *access) barred(ctx context.Context, p Player) *LimitError {
	lim := a.limits
	if lim.LookupMisses <= 0 {
		return nil
	}
	now := a.env.Now()
	for _, name := range missNames(p) {
		n, ends, err := a.misses().Misses(ctx, name.key, now)
		if err != nil {
			a.env.Fault("read failed lookups", err)
			continue
		}
		if n > lim.LookupMisses {
			return lookupRefusal(name.by, ends.Sub(now))
		}
	}
	return nil
}

// missName is a name misses are counted by, and how to word it to the
// player.
type missName struct{ key, by string }

func missNames(p Player) []missName {
	var names []missName
	if p.Addr != "" {
		names = append(names, missName{"addr:" + p.Addr, "from your address"})
	}
	if key := cmp.Or(p.Key, p.ID); key != "" { // a guest's ID is its connection's
		names = append(names, missName{"key:" + key, "with your key"})
	}
	return names
}

// lookupRefusal is the final refusal of a player who missed too often; left
// is how long until the window ends.
func lookupRefusal(by string, left time.Duration) *LimitError {
	when := "in a minute"
	if m := int((left + time.Minute - 1) / time.Minute); m > 1 {
		when = fmt.Sprintf("in %d minutes", m)
	}
	return &LimitError{Reason: "lookup_limit", Final: true,
		Msg: fmt.Sprintf("too many wrong room codes %s: try again %s", by, when)}
}

// lookupWait is how long the n-th miss in a window waits: nothing for the
// first quarter of the limit, then LookupBackoff, doubling with each miss
// up to maxLookupWait.
func lookupWait(lim Limits, n int) time.Duration {
	free := lim.LookupMisses / 4
	if lim.LookupBackoff <= 0 || n <= free {
		return 0
	}
	d := lim.LookupBackoff
	for range min(n-free-1, 20) {
		if d *= 2; d >= maxLookupWait {
			return maxLookupWait
		}
	}
	return min(d, maxLookupWait)
}

// misses counts failed lookups: in the store's cluster, or in this
// process's memory when the store is this instance's own.
func (a *access) misses() store.Misses {
	if a.cluster != nil {
		return a.cluster
	}
	return &a.localMisses
}
