package redis

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// A game's leaderboard is a copy of its players' ratings, spread over
// boardShards sorted sets (keys.go) so its writes spread over the
// cluster. Recording a game writes a line after the rating it copies; a
// reader merges the shards' tops and sets right a line left stale.

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
