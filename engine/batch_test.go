package engine

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// TestPlayBatchStops checks that a cancelled batch (Ctrl-C on smokestack
// simulate) stops after the games under way instead of playing them all.
func TestPlayBatchStops(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	played := 0
	b := Batch{Bots: []string{"random", "random"}, Games: 1000, Seed: 1, Workers: 1, Progress: func(done, _ int) {
		played = done
		if done == 3 {
			cancel()
		}
	}}
	_, err := PlayBatch(ctx, b, func(seed uint64) (uint64, error) { return seed, nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("PlayBatch after cancel: %v, want context.Canceled", err)
	}
	if played > 5 {
		t.Errorf("%d games played after the cancel at 3", played)
	}
}

// TestPlayBatchOrder: game i gets GameSeed(seed, i) and its outcome is
// the i'th, however many workers play, and a game's error fails the batch.
func TestPlayBatchOrder(t *testing.T) {
	var want []uint64
	for i := range 20 {
		want = append(want, GameSeed(7, i))
	}
	for _, workers := range []int{1, 4} {
		got, err := PlayBatch(t.Context(), Batch{Games: 20, Seed: 7, Workers: workers}, func(seed uint64) (uint64, error) { return seed, nil })
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%d workers: %v, %v; want %v", workers, got, err, want)
		}
	}
	bad := errors.New("a bot chose an illegal move")
	_, err := PlayBatch(t.Context(), Batch{Games: 3, Workers: 2}, func(uint64) (int, error) { return 0, bad })
	if !errors.Is(err, bad) {
		t.Errorf("a failed game: %v", err)
	}
}
