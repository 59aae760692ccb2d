package bolt_test

import (
	"path/filepath"
	"testing"

	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/bolt"
	"github.com/smokestack/smokestack/lobby/store/storetest"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := bolt.Open(filepath.Join(t.TempDir(), "rooms.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
