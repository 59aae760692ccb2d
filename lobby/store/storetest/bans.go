package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// bans holds the store's bans to the contract: stored, replaced by
// target, lapsing on time, lifted.
func bans(t *testing.T, s store.Bans) {
	ctx := context.Background()
	// Unique targets, as a shared Redis may hold others' bans.
	key := "SHA256:" + newCode()
	addr := "198.51.100.7"
	forever := store.Ban{Target: key, By: "op (SHA256:op)", At: t0}
	brief := store.Ban{Target: addr, Until: t0.Add(time.Hour), By: "op (SHA256:op)", At: t0.Add(time.Second)}
	for _, b := range []store.Ban{forever, brief} {
		if err := s.Ban(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	has := func(at time.Time, want ...store.Ban) {
		t.Helper()
		bans, err := s.Bans(ctx, at)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]store.Ban{}
		for _, b := range bans {
			got[b.Target] = b
		}
		for _, w := range []store.Ban{forever, brief} {
			_, in := got[w.Target]
			if want := contains(want, w.Target); in != want {
				t.Errorf("at %s: ban on %s in force %v, want %v", at, w.Target, in, want)
			}
		}
		for _, w := range want {
			if g := got[w.Target]; !g.Until.Equal(w.Until) || g.By != w.By || !g.At.Equal(w.At) {
				t.Errorf("ban on %s stored as %+v, want %+v", w.Target, g, w)
			}
		}
	}
	has(t0, forever, brief)
	has(t0.Add(2*time.Hour), forever) // the brief one lapsed

	// Banning again replaces: the address is banned for good now.
	brief.Until = time.Time{}
	if err := s.Ban(ctx, brief); err != nil {
		t.Fatal(err)
	}
	has(t0.Add(2*time.Hour), forever, brief)

	if found, err := s.Unban(ctx, key); err != nil || !found {
		t.Fatalf("unban %s: %v, %v", key, found, err)
	}
	if found, err := s.Unban(ctx, key); err != nil || found {
		t.Fatalf("unban %s twice: %v, %v", key, found, err)
	}
	has(t0, brief)
}

func contains(bans []store.Ban, target string) bool {
	for _, b := range bans {
		if b.Target == target {
			return true
		}
	}
	return false
}
