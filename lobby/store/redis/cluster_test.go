package redis

import (
	"context"
	"testing"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/storetest"
)

// TestClusterContract holds the store to the contract on a real Redis
// Cluster of three primaries with a replica each: every script and
// transaction must stay within one slot, or Redis refuses it (CROSSSLOT).
func TestClusterContract(t *testing.T) {
	c := redistest.StartCluster(t)
	storetest.Run(t, func(t *testing.T) store.Store { return openCluster(t, c) })
}

// openCluster opens a store on c, closed when the test ends.
func openCluster(t testing.TB, c *redistest.Cluster) *Store {
	t.Helper()
	s, err := OpenCluster(context.Background(), c.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestSlot: the slots Redis Cluster's specification gives as examples,
// and a hash tag choosing the slot.
func TestSlot(t *testing.T) {
	for key, want := range map[string]int{
		"123456789":              0x31C3 % 16384,
		"foo":                    12182,
		"{user1000}.following":   Slot("user1000"),
		"smokestack:{AB12}:meta": Slot("AB12"),
		"foo{}{bar}":             Slot("foo{}{bar}"),
	} {
		if got := Slot(key); got != want {
			t.Errorf("Slot(%q) = %d, want %d", key, got, want)
		}
	}
}
