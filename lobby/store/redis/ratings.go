package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// Ratings and solo records are fields of each player's hash (keys.go),
// read here; only recording a game (record.go) writes them.

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

// soloField is the field of a player's record against opponent in game.
func soloField(game, opponent string) string { return "solo:" + game + "\x00" + opponent }

// soloAfter is a solo game's result with the player's record after it,
// from their record before (JSON, or "" for none).
func soloAfter(r store.SoloResult, game, before string) *store.SoloResult {
	// A first game's record, unless one was stored before.
	rec := store.SoloRecord{Game: game, Opponent: r.Record.Opponent, Best: r.Score}
	if before != "" {
		_ = json.Unmarshal([]byte(before), &rec)
	}
	r.Record = r.After(game, rec, true)
	return &r
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
