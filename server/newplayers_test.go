package server

import (
	"errors"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
)

// Keys that only connect make no profiles and squat no names: ten new
// keys logging in as one name from one address leave it free for a player
// elsewhere to choose. Keys that sit down make profiles, a few an hour
// from one address: past that the next new player there is refused with
// the reason, and a key that has played sits down as before.
func TestNewKeysMakeNoProfiles(t *testing.T) {
	srv := startServerLimited(t, lobby.Limits{ProfilesPerHour: 3}, withLimits(guardLimits))
	for range 10 {
		c := dialKey(t, srv.addr, "squat", newKey(t))
		if r := run(t, c, "whoami", ""); !strings.Contains(r.stdout, "name: squat\n") {
			t.Fatalf("a new key logging in as squat: %+v", r)
		}
		c.Close()
	}
	if _, err := srv.store.NamedProfile(t.Context(), "squat"); !errors.Is(err, store.ErrNoProfile) {
		t.Errorf("keys that only connected hold the name squat: %v", err)
	}
	elsewhere, _, err := dialFrom(srv.addr, 0, newKey(t)) // from 127.0.0.2
	if err != nil {
		t.Fatal(err)
	}
	defer elsewhere.Close()
	if r := run(t, elsewhere, "name squat", ""); r.status != 0 || r.stdout != "squat\n" {
		t.Fatalf("a player elsewhere choosing squat: %+v", r)
	}

	code := strings.TrimSpace(run(t, elsewhere, "new --players 5", "").stdout)
	sit := func(key gossh.Signer) line {
		t.Helper()
		return <-startPlay(t, dialKey(t, srv.addr, "player", key), "play "+code).lines
	}
	first := newKey(t)
	for i, key := range []gossh.Signer{first, newKey(t), newKey(t)} {
		if l := sit(key); l.Error != "" || l.Seat < 0 {
			t.Fatalf("new player %d sitting down: %s", i+1, l.raw)
		}
	}
	if l := sit(newKey(t)); !strings.Contains(l.Error, "3 new players came from your address in the last hour") {
		t.Errorf("a fourth new player from the address: %s", l.raw)
	}
	if srv.refusals("profiles_per_hour") != 1 {
		t.Errorf("%d refusals of new players counted", srv.refusals("profiles_per_hour"))
	}
	if l := sit(first); l.Error != "" || l.Seat < 0 {
		t.Errorf("the first new player, back: %s", l.raw)
	}
}
