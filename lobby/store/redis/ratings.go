package redis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
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

// Ratings implements store.Ratings: one HGET a player, pipelined.
func (s *Store) Ratings(ctx context.Context, game string, players []string) (map[string]store.Rating, error) {
	out := map[string]store.Rating{}
	if len(players) == 0 {
		return out, nil
	}
	cmds := make([]*redis.StringCmd, len(players))
	_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for i, p := range players {
			cmds[i] = pipe.HGet(ctx, playerKey(p), "rating:"+game)
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("read ratings: %w", err)
	}
	for i, c := range cmds {
		data, err := c.Bytes()
		if errors.Is(err, redis.Nil) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read ratings: %w", err)
		}
		var r store.Rating
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("rating of %s: %w", players[i], err)
		}
		out[players[i]] = r
	}
	return out, nil
}

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

// prepareScript locks a player's rating in a game for an attempt, if it
// still counts ARGV[3] games (or ARGV[3] is "", a solo game) and no other
// attempt holds it. KEYS: player. ARGV: game, lock, games before, solo
// field or "". Returns {"ok", solo record JSON or ""}, {"conflict"} or
// {"locked", the lock held}.
var prepareScript = redis.NewScript(`
local lockf = 'lock:' .. ARGV[1]
local got = redis.call('HMGET', KEYS[1], lockf, 'rating:' .. ARGV[1])
local lock, r = got[1], got[2]
if lock and lock ~= ARGV[2] then return {'locked', lock} end
if ARGV[3] ~= '' then
  local games = 0
  if r then games = cjson.decode(r).games end
  if games ~= tonumber(ARGV[3]) then
    if lock then redis.call('HDEL', KEYS[1], lockf) end
    return {'conflict', ''}
  end
end
redis.call('HSET', KEYS[1], lockf, ARGV[2])
local solo = ''
if ARGV[4] ~= '' then solo = redis.call('HGET', KEYS[1], ARGV[4]) or '' end
return {'ok', solo}
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

// applyScript writes a committed attempt's change to a player and
// unlocks them, if they are still locked for it; else it was applied
// already. KEYS: player. ARGV: game, lock, field, value. Returns 1 if
// applied now.
var applyScript = redis.NewScript(`
local lockf = 'lock:' .. ARGV[1]
if redis.call('HGET', KEYS[1], lockf) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
redis.call('HDEL', KEYS[1], lockf)
return 1
`)

// unlockScript breaks a lock if it still is ARGV[2]. KEYS: player.
// ARGV: game, lock.
var unlockScript = redis.NewScript(`
local lockf = 'lock:' .. ARGV[1]
if redis.call('HGET', KEYS[1], lockf) == ARGV[2] then redis.call('HDEL', KEYS[1], lockf) return 1 end
return 0
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

// scriptCall is one call of a script in a pipeline.
type scriptCall struct {
	keys []string
	args []any
}

// runAll runs sc once for each call, pipelined (on a cluster, a pipeline
// per primary): by its hash, and whole for those whose node lacked it.
func (s *Store) runAll(ctx context.Context, sc *redis.Script, calls []scriptCall) ([]*redis.Cmd, error) {
	cmds := make([]*redis.Cmd, len(calls))
	var missing []int
	for send := false; ; send = true {
		_, _ = s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
			for i, c := range calls {
				if !send {
					cmds[i] = sc.EvalSha(ctx, pipe, c.keys, c.args...)
				} else if slices.Contains(missing, i) {
					cmds[i] = sc.Eval(ctx, pipe, c.keys, c.args...)
				}
			}
			return nil
		})
		missing = missing[:0]
		for i, c := range cmds {
			if err := c.Err(); err != nil && !errors.Is(err, redis.Nil) {
				if send || !redis.HasErrorPrefix(err, "NOSCRIPT") {
					return nil, err
				}
				missing = append(missing, i)
			}
		}
		if len(missing) == 0 {
			return cmds, nil
		}
	}
}

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

// soloField is the field of a player's record against opponent in game.
func soloField(game, opponent string) string { return "solo:" + game + "\x00" + opponent }

// soloAfter is a solo game's result with the player's record after it,
// from their record before (JSON, or "" for none).
func soloAfter(r store.SoloResult, game, before string) *store.SoloResult {
	rec := store.SoloRecord{Game: game, Opponent: r.Record.Opponent, Best: r.Score}
	if before != "" {
		_ = json.Unmarshal([]byte(before), &rec)
	}
	if r.Won {
		rec.Wins++
	} else {
		rec.Losses++
	}
	rec.Best = max(rec.Best, r.Score)
	r.Record = rec
	return &r
}

// prepare locks player p for a: ErrConflict if their rating moved since
// the outcome was worked out, errBusy if a live attempt holds them. It
// returns the player's solo record before, for a solo game.
func (s *Store) prepare(ctx context.Context, a attempt, p string) (string, error) {
	before, solo := "", ""
	for _, c := range a.o.Rated {
		if c.Player == p {
			before = strconv.Itoa(c.Before.Games)
		}
	}
	if a.o.Solo != nil && a.o.Solo.Player == p {
		solo = soloField(a.o.Game, a.o.Solo.Record.Opponent)
	}
	for range 3 {
		res, err := prepareScript.Run(ctx, s.rdb, []string{playerKey(p)}, a.o.Game, a.lock, before, solo).StringSlice()
		if err != nil {
			return "", err
		}
		switch res[0] {
		case "ok":
			return res[1], nil
		case "conflict":
			return "", fmt.Errorf("rating of %s: %w", p, store.ErrConflict)
		}
		if err := s.resolve(ctx, p, a.o.Game, res[1]); err != nil {
			return "", err
		}
	}
	return "", errBusy
}

// resolve deals with lock, held on player p's rating in game by another
// attempt: finished if committed, broken if dead, errBusy if live.
func (s *Store) resolve(ctx context.Context, p, game, lock string) error {
	code, token, _ := strings.Cut(lock, " ")
	v, err := s.rdb.HMGet(ctx, outcomeKey(code), "state", "token", "at", "outcome").Result()
	if err != nil {
		return err
	}
	state, _ := v[0].(string)
	held, _ := v[1].(string)
	at, _ := v[2].(string)
	data, _ := v[3].(string)
	if held == token {
		switch state {
		case outcomeCommitted:
			_, err := s.finish(ctx, state, data, token)
			return err
		case outcomePending:
			ms, _ := strconv.ParseInt(at, 10, 64)
			if time.Since(time.UnixMilli(ms)) < s.life() {
				return errBusy
			}
			ended, err := abortScript.Run(ctx, s.rdb, []string{outcomeKey(code)}, token, time.Now().UnixMilli(), s.life().Milliseconds()).Int()
			if err != nil {
				return err
			}
			if ended == 0 {
				return errBusy // it committed meanwhile: look again
			}
		}
	}
	return unlockScript.Run(ctx, s.rdb, []string{playerKey(p)}, game, lock).Err()
}

// undo frees the players a failed attempt locked, and ends it if token
// is its own (not yet overtaken).
func (s *Store) undo(ctx context.Context, a attempt, players []string, token string) {
	calls := make([]scriptCall, len(players))
	for i, p := range players {
		calls[i] = scriptCall{[]string{playerKey(p)}, []any{a.o.Game, a.lock}}
	}
	_, _ = s.runAll(ctx, unlockScript, calls)
	if token != "" {
		abortScript.Run(ctx, s.rdb, []string{outcomeKey(a.o.Code)}, token, time.Now().UnixMilli(), 0)
	}
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

// apply writes o's changes to its players locked for lock, and their
// lines on the game's leaderboard.
func (s *Store) apply(ctx context.Context, o store.Outcome, lock string) error {
	type change struct{ player, field, value string }
	var changes []change
	for _, c := range o.Rated {
		data, err := json.Marshal(c.After)
		if err != nil {
			return err
		}
		changes = append(changes, change{c.Player, "rating:" + o.Game, string(data)})
	}
	if o.Solo != nil {
		data, err := json.Marshal(o.Solo.Record)
		if err != nil {
			return err
		}
		changes = append(changes, change{o.Solo.Player, soloField(o.Game, o.Solo.Record.Opponent), string(data)})
	}
	calls := make([]scriptCall, len(changes))
	for i, c := range changes {
		calls[i] = scriptCall{[]string{playerKey(c.player)}, []any{o.Game, lock, c.field, c.value}}
	}
	crashed := s.crash("applying")
	if crashed {
		calls = calls[:1] // the instance dies after the first player's
	}
	cmds, err := s.runAll(ctx, applyScript, calls)
	if err != nil {
		return fmt.Errorf("apply outcome of %s: %w", o.Code, err)
	}
	if crashed {
		return errCrashed
	}
	// The board follows the ratings: a player's line is written by the
	// attempt that moved their rating; one applied by an attempt that
	// died before its line is set right by Leaderboard's check.
	_, err = s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for i, c := range o.Rated {
			if n, _ := cmds[i].Int(); n == 1 {
				pipe.ZAdd(ctx, boardKey(o.Game, shardOf(c.Player, boardShards)), boardLine(c.Player, c.After))
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("leaderboard of %s: %w", o.Game, err)
	}
	return nil
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

// Leaderboard implements store.Ratings: the n best of each shard, merged,
// then those players' ratings read to order and show them. A line whose
// score is not its player's rating (its writer died before it) is set
// right, and the board read again.
func (s *Store) Leaderboard(ctx context.Context, game string, n int) ([]store.Ranked, error) {
	if n < 1 {
		return []store.Ranked{}, nil
	}
	for range 3 {
		tops := make([]*redis.ZSliceCmd, boardShards)
		_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
			for shard := range tops {
				tops[shard] = pipe.ZRangeWithScores(ctx, boardKey(game, shard), 0, int64(n-1))
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read the leaderboard: %w", err)
		}
		var ids []string
		scores := map[string]float64{}
		for _, c := range tops {
			for _, z := range c.Val() {
				id := z.Member.(string)
				ids, scores[id] = append(ids, id), z.Score
			}
		}
		ratings, err := s.Ratings(ctx, game, ids)
		if err != nil {
			return nil, err
		}
		var lines []store.Ranked
		stale := false
		for _, id := range ids {
			r, ok := ratings[id]
			if !ok || boardLine(id, r).Score != scores[id] {
				stale = true
				if err := s.setLine(ctx, game, id, r, ok); err != nil {
					return nil, err
				}
				continue
			}
			lines = append(lines, store.Ranked{Player: id, Rating: r})
		}
		if !stale {
			store.SortRanked(lines)
			return lines[:min(n, len(lines))], nil
		}
	}
	return nil, fmt.Errorf("read the leaderboard of %s: it changed at every try: %w", game, store.ErrConflict)
}

// boardLine is player id's line on a leaderboard: scored by the negated
// ordinal, so that a shard's first n (ZRANGE) are its best, ties in the
// order of their IDs, as store.Ratings.Leaderboard orders them.
func boardLine(id string, r store.Rating) redis.Z { return redis.Z{Score: -r.Ordinal(), Member: id} }

// setLine sets player id's line on game's board to their rating r, or
// takes it off if they have none (ok false).
func (s *Store) setLine(ctx context.Context, game, id string, r store.Rating, ok bool) error {
	key := boardKey(game, shardOf(id, boardShards))
	var err error
	if ok {
		err = s.rdb.ZAdd(ctx, key, boardLine(id, r)).Err()
	} else {
		err = s.rdb.ZRem(ctx, key, id).Err()
	}
	if err != nil {
		return fmt.Errorf("set the leaderboard right: %w", err)
	}
	return nil
}

// Rank implements store.Ratings: one more than the lines above player's
// rating, counted in every shard.
func (s *Store) Rank(ctx context.Context, game, player string) (int, error) {
	mine, err := s.Ratings(ctx, game, []string{player})
	if err != nil {
		return 0, err
	}
	r, ok := mine[player]
	if !ok {
		return 0, nil
	}
	above := "(" + strconv.FormatFloat(boardLine(player, r).Score, 'g', -1, 64)
	counts := make([]*redis.IntCmd, boardShards)
	_, err = s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for shard := range counts {
			counts[shard] = pipe.ZCount(ctx, boardKey(game, shard), "-inf", above)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("read a place on the leaderboard: %w", err)
	}
	rank := 1
	for _, c := range counts {
		rank += int(c.Val())
	}
	return rank, nil
}

// SoloRecords implements store.Ratings: the solo fields of the player's
// hash.
func (s *Store) SoloRecords(ctx context.Context, player string) ([]store.SoloRecord, error) {
	var out []store.SoloRecord
	iter := s.rdb.HScan(ctx, playerKey(player), 0, "solo:*", 100).Iterator()
	for iter.Next(ctx) {
		field := iter.Val()
		if !iter.Next(ctx) {
			break
		}
		var r store.SoloRecord
		if err := json.Unmarshal([]byte(iter.Val()), &r); err != nil {
			return nil, fmt.Errorf("solo record %q: %w", field, err)
		}
		out = append(out, r)
	}
	if err := iter.Err(); err != nil {
		return nil, fmt.Errorf("read solo records: %w", err)
	}
	return store.SortSolo(out), nil
}
