package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestFleetBehaves runs a small fleet end to end on a Redis Cluster of
// its own: five instances, forty players, a short TTL. Every check of
// behaviour must pass (rooms listed across instances, seats back after
// leaving and after a kill within the TTL, expiry once by one instance,
// ratings landed), and every kind of work must have been measured.
func TestFleetBehaves(t *testing.T) {
	for _, bin := range []string{"redis-server", "redis-cli"} {
		if _, err := exec.LookPath(bin); err != nil {
			msg := bin + " not found in PATH: the fleet test NOT RUN (install redis-server and redis-tools)"
			if os.Getenv("CI") != "" {
				t.Fatal(msg)
			}
			fmt.Fprintf(os.Stderr, "\n!!! %s\n\n", msg)
			t.Skip(msg)
		}
	}
	c := config{fsync: "everysec", instances: 5, players: 40, ttl: 3 * time.Second, movers: 2, idleGame: "tally",
		think: 300 * time.Millisecond, window: 2 * time.Second, baseline: time.Second, listInstances: 2, refreshes: 1,
		churn: 4, rated: 1, abandoned: 4, expiryInstances: 2, killSample: 4, workers: 8,
		// The fleet expires too: an instance with expiry off may hold the
		// expiry lease.
		fleetExpire: time.Hour}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	s, err := run(ctx, c, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// What a refresh and an expiry pass read is told apart from the
	// renewal rounds' noise at scale only: those checks are the big
	// run's (docs/scaling.md).
	atScale := map[string]bool{"a lobby refresh reads a page, not every room": true, "expiry reads only the rooms that are due": true}
	for _, ch := range s.checks {
		if !ch.OK && !atScale[ch.Name] {
			t.Errorf("%s: %s", ch.Name, ch.Detail)
		}
	}
	// Every kind is measured; those of many commands are above zero at
	// this size too (the ratings' and the expiry's few are within the
	// renewal rounds' noise here).
	kinds := map[string]float64{}
	for _, u := range s.units() {
		kinds[u.Kind] = u.Commands
	}
	for _, k := range []string{"instance", "claims/presence", "connects", "lists", "moves", "profiles/ratings", "expiry"} {
		if _, ok := kinds[k]; !ok {
			t.Errorf("no %s measured: %v", k, kinds)
		}
	}
	t.Logf("commands by kind: %v", kinds)
	for _, k := range []string{"instance", "connects", "moves"} {
		if kinds[k] <= 0 {
			t.Errorf("%s measured at %.1f commands: %v", k, kinds[k], kinds)
		}
	}
	// A held seat costs nothing while nothing changes (liveness is per
	// instance), so its figure is the renewal rounds' noise here: it is
	// held under a bound that seat claims renewed per room, 88 commands
	// a seated player a minute, would break.
	if c := kinds["claims/presence"]; c > 30 {
		t.Errorf("claims/presence measured at %.1f commands a seated player a minute, want at most 30 (renewals per seat are back?): %v", c, kinds)
	}
	if len(s.checks) < 10 {
		t.Errorf("only %d checks ran", len(s.checks))
	}
}
