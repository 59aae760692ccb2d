package lobby

import (
	"testing"

	"github.com/smokestack/smokestack/lobby/store/storetest"
)

// TestLocalMisses holds the lobby's own count of failed lookups, on a
// single node, to the contract the shared store's count keeps.
func TestLocalMisses(t *testing.T) {
	storetest.RunMisses(t, &missCounts{})
}
