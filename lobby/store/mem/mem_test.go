package mem_test

import (
	"testing"

	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/lobby/store/storetest"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(*testing.T) store.Store { return mem.New() })
}
