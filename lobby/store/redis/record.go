package redis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// A finished game changes the ratings of players in different slots and
// keeps the room's outcome in another, so Record cannot be one step. It
// is a two-phase commit whose decision lives in the outcome's key:
//
//  1. begin: the outcome key says an attempt (a random token) is pending;
//  2. prepare: each player's rating in the game is locked for the attempt
//     ("CODE TOKEN"), if it still is what the outcome was worked out from;
//  3. commit: the outcome key turns committed, with the outcome as it is
//     kept, if the attempt still is the one pending: the decision;
//  4. apply: each player's rating is written and unlocked, if still
//     locked for the attempt (so a second apply changes nothing), and
//     their leaderboard lines follow.
//
// Whoever meets a lock looks at its attempt's outcome key: committed, it
// finishes the attempt (roll forward); pending and younger than
// attemptLife, it waits; otherwise the attempt is dead (crashed, or
// overtaken by a newer one of its room) and the lock is broken. Whoever
// reads a committed outcome (Outcome, or Record of the same room) applies
// it again, which changes nothing once done, so a crash at any point
// costs a retry, never a game counted twice or half. Outcomes copied
// from the old layout are kept: applied long ago, and never locked.
//
// This file holds the steps in order and the outcome key's side of them;
// recordlocks.go the players' side.

// attemptLife is how long a pending attempt holds its players before
// another may call it dead: far more than the few round trips it takes.
// A test shortens it (Store.attemptLife).
const attemptLife = 10 * time.Second

// Outcome states in the outcome key; kept is a migrated one's.
const (
	outcomePending   = "pending"
	outcomeCommitted = "committed"
	outcomeKept      = "kept"
)

// beginScript opens an attempt at recording a room, unless its outcome
// is committed or kept already, or a live attempt is pending.
// KEYS: outcome. ARGV: token, now (Unix ms), attemptLife in ms.
// Returns {state, outcome JSON, token}: the state before, or "ok" if
// begun (again, for a resend whose reply was lost).
var beginScript = redis.NewScript(`
local o = redis.call('HMGET', KEYS[1], 'state', 'at', 'outcome', 'token')
if o[1] == 'committed' or o[1] == 'kept' then return {o[1], o[3], o[4]} end
if o[1] == 'pending' and o[4] == ARGV[1] then return {'ok', '', ''} end
if o[1] == 'pending' and tonumber(ARGV[2]) - tonumber(o[2]) < tonumber(ARGV[3]) then return {'busy', '', ''} end
redis.call('HSET', KEYS[1], 'state', 'pending', 'token', ARGV[1], 'at', ARGV[2])
return {'ok', '', ''}
`)

// commitScript decides an attempt: committed, with the outcome as kept,
// if it still is the attempt pending. KEYS: outcome. ARGV: token,
// outcome JSON. Returns {state, outcome JSON, token}: "ok" if committed
// now (or by a resend of this one).
var commitScript = redis.NewScript(`
local o = redis.call('HMGET', KEYS[1], 'state', 'token', 'outcome')
if o[2] == ARGV[1] and o[1] == 'committed' then return {'ok', '', ''} end
if o[1] == 'committed' or o[1] == 'kept' then return {o[1], o[3], o[2]} end
if o[1] ~= 'pending' or o[2] ~= ARGV[1] then return {'lost', '', ''} end
redis.call('HSET', KEYS[1], 'state', 'committed', 'outcome', ARGV[2])
return {'ok', '', ''}
`)

// abortScript ends a pending attempt that is the one named and older
// than ARGV[3] (ms, as of ARGV[2]). KEYS: outcome. ARGV: token, now, age.
var abortScript = redis.NewScript(`
local o = redis.call('HMGET', KEYS[1], 'state', 'token', 'at')
if o[1] == 'pending' and o[2] == ARGV[1] and tonumber(ARGV[2]) - tonumber(o[3]) >= tonumber(ARGV[3]) then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`)

// errBusy is a live attempt in the way: wait, and try again.
var errBusy = errors.New("another game of a player is being recorded")

// errCrashed is what a test's crash (Store.crashAt) leaves a Record with:
// it stops where it is, as an instance killed there would.
var errCrashed = errors.New("the instance stopped here (a test's crash)")

// life is how long a pending attempt holds its players.
func (s *Store) life() time.Duration {
	if s.attemptLife > 0 {
		return s.attemptLife
	}
	return attemptLife
}

// crash reports whether a test asked Record to stop at step.
func (s *Store) crash(step string) bool { return s.crashAt != nil && s.crashAt(step) }

// Record implements store.Ratings, in the steps above. A retry of a
// record whose reply was lost, or whose instance died midway, finds the
// outcome committed or kept, finishes it, and returns it.
func (s *Store) Record(ctx context.Context, o store.Outcome) (store.Outcome, error) {
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		kept, err := s.record(ctx, o)
		if !errors.Is(err, errBusy) {
			if err != nil {
				return store.Outcome{}, fmt.Errorf("record room %s: %w", o.Code, err)
			}
			return kept, nil
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return store.Outcome{}, fmt.Errorf("record room %s: %w", o.Code, store.ErrConflict)
		}
	}
}

// attempt is one try at recording a room.
type attempt struct {
	o    store.Outcome
	lock string // "CODE TOKEN"
}

func (s *Store) record(ctx context.Context, o store.Outcome) (store.Outcome, error) {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	token := hex.EncodeToString(b)
	a := attempt{o: o, lock: o.Code + " " + token}
	res, err := beginScript.Run(ctx, s.rdb, []string{outcomeKey(o.Code)}, token, time.Now().UnixMilli(), s.life().Milliseconds()).StringSlice()
	if err != nil {
		return store.Outcome{}, err
	}
	switch res[0] {
	case "busy":
		return store.Outcome{}, errBusy
	case outcomeCommitted, outcomeKept:
		return s.finish(ctx, res[0], res[1], res[2])
	}
	if s.crash("begun") {
		return store.Outcome{}, errCrashed
	}
	players := a.players()
	for i, p := range players {
		solo, err := s.prepare(ctx, a, p)
		if err != nil {
			s.undo(ctx, a, players[:i], token)
			return store.Outcome{}, err
		}
		if a.o.Solo != nil && p == a.o.Solo.Player {
			a.o.Solo = soloAfter(*a.o.Solo, a.o.Game, solo)
		}
		if s.crash("prepared") {
			return store.Outcome{}, errCrashed
		}
	}
	data, err := json.Marshal(a.o)
	if err != nil {
		return store.Outcome{}, err
	}
	res, err = commitScript.Run(ctx, s.rdb, []string{outcomeKey(o.Code)}, token, data).StringSlice()
	if err != nil {
		return store.Outcome{}, err // the locks hold until the outcome is known: a retry reads it
	}
	switch res[0] {
	case "ok":
		if s.crash("committed") {
			return store.Outcome{}, errCrashed
		}
		return s.finish(ctx, outcomeCommitted, string(data), token)
	case "lost": // overtaken as dead: free the players, try again
		s.undo(ctx, a, players, "")
		return store.Outcome{}, errBusy
	}
	s.undo(ctx, a, players, "")
	return s.finish(ctx, res[0], res[1], res[2])
}

// players is who the attempt locks, in order.
func (a attempt) players() []string {
	var out []string
	for _, c := range a.o.Rated {
		out = append(out, c.Player)
	}
	if a.o.Solo != nil {
		out = append(out, a.o.Solo.Player)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// finish applies a committed outcome (data, its JSON; token, its
// attempt's) to its players; a kept one (migrated) it only reads.
func (s *Store) finish(ctx context.Context, state, data, token string) (store.Outcome, error) {
	var o store.Outcome
	if err := json.Unmarshal([]byte(data), &o); err != nil {
		return store.Outcome{}, fmt.Errorf("outcome: %w", err)
	}
	if state == outcomeKept {
		return o, nil
	}
	if err := s.apply(ctx, o, o.Code+" "+token); err != nil {
		return store.Outcome{}, err
	}
	return o, nil
}

// Outcome implements store.Ratings. A committed outcome is applied again
// first (its recorder may have died midway), so what Outcome returns is
// in the ratings too.
func (s *Store) Outcome(ctx context.Context, code string) (store.Outcome, error) {
	v, err := s.rdb.HMGet(ctx, outcomeKey(code), "state", "outcome", "token").Result()
	if err != nil {
		return store.Outcome{}, fmt.Errorf("read outcome of %s: %w", code, err)
	}
	state, _ := v[0].(string)
	data, _ := v[1].(string)
	token, _ := v[2].(string)
	if state != outcomeCommitted && state != outcomeKept {
		return store.Outcome{}, store.ErrNotFound
	}
	o, err := s.finish(ctx, state, data, token)
	if err != nil {
		return store.Outcome{}, fmt.Errorf("outcome of %s: %w", code, err)
	}
	return o, nil
}
