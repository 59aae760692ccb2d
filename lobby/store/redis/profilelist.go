package redis

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// Every profile is listed in one of profileShards sorted sets (keys.go),
// so new players' entries spread over the cluster; listing and counting
// the profiles reads every shard.

// Profiles implements store.Profiles. It reads each shard of the index a
// page at a time, and the page's profiles in one pipeline, so Redis is
// never busy with all of them at once.
func (s *Store) Profiles(ctx context.Context) ([]store.Profile, error) {
	var out []store.Profile
	for shard := range profileShards {
		iter := s.rdb.ZScan(ctx, profilesKey(shard), 0, "", 500).Iterator()
		var page []string
		for iter.Next(ctx) {
			page = append(page, iter.Val())
			iter.Next(ctx) // the score
			if len(page) == 500 {
				if err := s.readProfiles(ctx, page, &out); err != nil {
					return nil, err
				}
				page = page[:0]
			}
		}
		if err := iter.Err(); err != nil {
			return nil, fmt.Errorf("list profiles: %w", err)
		}
		if err := s.readProfiles(ctx, page, &out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readProfiles appends profiles ids to out, skipping those gone.
func (s *Store) readProfiles(ctx context.Context, ids []string, out *[]store.Profile) error {
	if len(ids) == 0 {
		return nil
	}
	cmds := make([]*redis.StringCmd, len(ids))
	_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = pipe.HGet(ctx, playerKey(id), "profile")
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("list profiles: %w", err)
	}
	for i, c := range cmds {
		data, err := c.Bytes()
		if errors.Is(err, redis.Nil) {
			continue
		}
		if err != nil {
			return fmt.Errorf("list profiles: %w", err)
		}
		p, err := store.DecodeProfile(ids[i], data)
		if err != nil {
			return err
		}
		*out = append(*out, p)
	}
	return nil
}

// ProfileCount is how many profiles the store holds, summed over the
// index's shards rather than counted by reading them.
func (s *Store) ProfileCount(ctx context.Context) (int64, error) {
	cmds := make([]*redis.IntCmd, profileShards)
	_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for shard := range cmds {
			cmds[shard] = pipe.ZCard(ctx, profilesKey(shard))
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("count profiles: %w", err)
	}
	var n int64
	for _, c := range cmds {
		n += c.Val()
	}
	return n, nil
}
