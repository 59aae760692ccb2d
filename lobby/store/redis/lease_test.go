package redis

import (
	"testing"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store/storetest"
)

// TestLeaseContract holds two instances' leases to the contract on one
// real Redis.
func TestLeaseContract(t *testing.T) {
	r := redistest.Start(t)
	storetest.RunLeases(t, openRedis(t, r), openRedis(t, r))
}

// TestClusterLeaseContract does on a Redis Cluster.
func TestClusterLeaseContract(t *testing.T) {
	c := redistest.StartCluster(t)
	storetest.RunLeases(t, openCluster(t, c), openCluster(t, c))
}
