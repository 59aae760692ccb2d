package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// The players' layout before they were spread over the cluster: one hash
// for each table, two slots in all.
const (
	oldProfiles     = redisPrefix + "{profiles}:byid"
	oldProfileKeys  = redisPrefix + "{profiles}:bykey"
	oldProfileNames = redisPrefix + "{profiles}:byname"
	oldOutcomes     = redisPrefix + "{records}:outcomes"
	oldRatings      = redisPrefix + "{records}:ratings"
	oldSolos        = redisPrefix + "{records}:solos"
)

// migrateLease is how long the instance migrating holds the right to;
// it renews it as it goes, and another takes over once it lapses.
const migrateLease = 30 * time.Second

// migratePlayers copies players kept in the old layout into the new one,
// once: the first instance to open the store does it under a lease, the
// others wait for it. Every copy writes only what is missing, so a
// migration cut short is done again by the next, and what was written
// in the new layout meanwhile wins. The old hashes are left as they
// were, for a downgrade; docs/operations.md says how to drop them.
func (s *Store) migratePlayers(ctx context.Context) error {
	for {
		layout, err := s.rdb.Get(ctx, playersLayout).Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			return fmt.Errorf("read the players' layout: %w", err)
		}
		if layout == "2" {
			return nil
		}
		got, err := s.rdb.SetNX(ctx, playersMigrating, s.origin, migrateLease).Result()
		if err != nil {
			return fmt.Errorf("migrate players: %w", err)
		}
		if got {
			break
		}
		select { // another instance migrates: wait for it
		case <-time.After(200 * time.Millisecond):
		case <-ctx.Done():
			return fmt.Errorf("wait for another instance to migrate players: %w", ctx.Err())
		}
	}
	if err := s.copyPlayers(ctx); err != nil {
		return fmt.Errorf("migrate players: %w", err)
	}
	if err := s.rdb.Set(ctx, playersLayout, "2", 0).Err(); err != nil {
		return fmt.Errorf("migrate players: %w", err)
	}
	return dropIfScript.Run(ctx, s.rdb, []string{playersMigrating}, s.origin).Err()
}

// copyPlayers copies each old table into the new layout. A rating whose
// player's profile is gone (linked away) is copied but kept off the
// leaderboard, which lists only players who still have one.
func (s *Store) copyPlayers(ctx context.Context) error {
	profiled := map[string]bool{} // of the page of ratings being copied
	steps := []struct {
		hash string
		copy func(pipe redis.Pipeliner, field, value string) error
	}{
		{oldProfiles, func(pipe redis.Pipeliner, id, v string) error {
			p, err := store.DecodeProfile(id, []byte(v))
			if err != nil {
				return err
			}
			pipe.HSetNX(ctx, playerKey(id), "profile", v)
			pipe.HSetNX(ctx, playerKey(id), "name", store.NameKey(p.Name))
			pipe.ZAddNX(ctx, profilesKey(shardOf(id, profileShards)), redis.Z{Score: float64(p.Created.UnixMilli()), Member: id})
			return nil
		}},
		{oldProfileKeys, func(pipe redis.Pipeliner, key, id string) error {
			pipe.SetNX(ctx, keyKey(key), id, 0)
			return nil
		}},
		{oldProfileNames, func(pipe redis.Pipeliner, name, id string) error {
			pipe.SetNX(ctx, nameKey(name), id+" 0", 0)
			return nil
		}},
		{oldRatings, func(pipe redis.Pipeliner, field, v string) error {
			game, player, _ := strings.Cut(field, "\x00")
			var r store.Rating
			if err := json.Unmarshal([]byte(v), &r); err != nil {
				return fmt.Errorf("rating %q: %w", field, err)
			}
			pipe.HSetNX(ctx, playerKey(player), "rating:"+game, v)
			if profiled[player] {
				pipe.ZAddNX(ctx, boardKey(game, shardOf(player, boardShards)), boardLine(player, r))
			}
			return nil
		}},
		{oldSolos, func(pipe redis.Pipeliner, field, v string) error {
			player, rest, _ := strings.Cut(field, "\x00")
			pipe.HSetNX(ctx, playerKey(player), "solo:"+rest, v)
			return nil
		}},
		{oldOutcomes, func(pipe redis.Pipeliner, code, v string) error {
			pipe.HSetNX(ctx, outcomeKey(code), "outcome", v)
			pipe.HSetNX(ctx, outcomeKey(code), "token", "v1")
			pipe.HSetNX(ctx, outcomeKey(code), "state", outcomeKept)
			return nil
		}},
	}
	for _, step := range steps {
		var cursor uint64
		for {
			fields, next, err := s.rdb.HScan(ctx, step.hash, cursor, "", 500).Result()
			if err != nil {
				return err
			}
			if step.hash == oldRatings {
				if err := s.profiled(ctx, fields, profiled); err != nil {
					return err
				}
			}
			_, err = s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
				for i := 0; i+1 < len(fields); i += 2 {
					if err := step.copy(pipe, fields[i], fields[i+1]); err != nil {
						return err
					}
				}
				pipe.PExpire(ctx, playersMigrating, migrateLease) // still at it
				return nil
			})
			if err != nil {
				return err
			}
			if cursor = next; cursor == 0 {
				break
			}
		}
	}
	return nil
}

// profiled notes in has which players of a page of old ratings (field,
// value, …) have a profile in the old layout.
func (s *Store) profiled(ctx context.Context, fields []string, has map[string]bool) error {
	clear(has)
	var players []string
	for i := 0; i < len(fields); i += 2 {
		_, player, _ := strings.Cut(fields[i], "\x00")
		players = append(players, player)
	}
	if len(players) == 0 {
		return nil
	}
	cmds := make([]*redis.BoolCmd, len(players))
	_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for i, p := range players {
			cmds[i] = pipe.HExists(ctx, oldProfiles, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i, c := range cmds {
		has[players[i]] = c.Val()
	}
	return nil
}
