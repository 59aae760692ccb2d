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

// The players' side of recording a game (record.go): each step is a
// script on one player's slot. prepare locks a player's rating for an
// attempt, apply writes it and unlocks it once the attempt committed,
// and resolve and undo break the locks of an attempt that died.

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
