package lobby

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/bolt"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// storeKinds opens each store afresh, for the lobby tests that run on
// every one.
var storeKinds = []struct {
	name string
	open func(t *testing.T) store.Store
}{
	{"mem", func(*testing.T) store.Store { return mem.New() }},
	{"bolt", func(t *testing.T) store.Store {
		s, err := bolt.Open(filepath.Join(t.TempDir(), "rooms.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}},
	{"redis", func(t *testing.T) store.Store { return openRedis(t, redistest.Start(t)) }},
}

// A new key's profile is made on its first need, not as it connects: a
// key that only connects leaves nothing stored and reserves no name; the
// first to sit down or choose a name takes it. New profiles from one
// address are limited per hour, on every store; keys with a profile, and
// other addresses, are not held back.
func TestProfilesOnFirstNeed(t *testing.T) {
	for _, kind := range storeKinds {
		t.Run(kind.name, func(t *testing.T) {
			ctx := context.Background()
			clk := &clock{now: t0}
			st := kind.open(t)
			l := New(Config{Store: st, Games: []Game{tallyGame()}, Now: clk.Now, Limits: Limits{ProfilesPerHour: 2}})
			ps := st
			u := room.NewCode() // a shared Redis keeps other runs' names and counts
			home, away := "addr-"+u, "addr2-"+u
			login := "dana" + u[:4]
			player := func(key, addr string) Player {
				t.Helper()
				p, err := l.Identify(ctx, Player{ID: key, Key: key, Name: login, Addr: addr})
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
			keys := []string{"SHA256:1" + u, "SHA256:2" + u, "SHA256:3" + u}
			var ps3 []Player
			for _, k := range keys {
				p := player(k, home)
				if p.ID != k || p.Name != login {
					t.Fatalf("a new key connecting is %+v, want itself under its login %s", p, login)
				}
				if _, err := ps.KeyProfile(ctx, k); !errors.Is(err, store.ErrNoProfile) {
					t.Fatalf("connecting made a profile: %v", err)
				}
				ps3 = append(ps3, p)
			}
			m, err := l.Create(ctx, ps3[0], CreateOptions{Seats: 3, Public: true})
			if err != nil {
				t.Fatal(err)
			}
			sit := func(p Player) (string, error) {
				t.Helper()
				c, err := l.Join(ctx, m.Code, p)
				if err != nil {
					return "", err
				}
				defer c.Close()
				return latest(t, c).Room.Seats[c.Seat()].Name, nil
			}
			// The first to sit down takes the name; the second, who was
			// shown it too, sits under a name of their own.
			if name, err := sit(ps3[0]); err != nil || name != login {
				t.Fatalf("the first key sits as %q, %v; want %s", name, err, login)
			}
			if name, err := sit(ps3[1]); err != nil || !playerName.MatchString(name) {
				t.Fatalf("the second key sits as %q, %v; want a player-XXXX name", name, err)
			}
			if again := player(keys[1], home); again.Name == login {
				t.Errorf("a key whose login another's profile holds is shown as %q", again.Name)
			}
			// The third new player from the address in the hour is refused;
			// from elsewhere one sits, and the profiled come back.
			var refusal *LimitError
			if _, err := sit(ps3[2]); !errors.As(err, &refusal) || refusal.Reason != "profiles_per_hour" || refusal.Final {
				t.Fatalf("a third new player from the address: %v, want the profiles_per_hour refusal", err)
			}
			if _, err := ps.KeyProfile(ctx, keys[2]); !errors.Is(err, store.ErrNoProfile) {
				t.Fatalf("the refused key has a profile: %v", err)
			}
			if _, err := sit(player(keys[0], home)); err != nil {
				t.Fatalf("a key with a profile, back: %v", err)
			}
			// Choosing a name is a need too, and counts from its address.
			named, err := l.Rename(ctx, player("SHA256:4"+u, away), "Eve "+u[:4])
			if err != nil || named != "Eve "+u[:4] {
				t.Fatalf("a new key from elsewhere choosing a name: %q, %v", named, err)
			}
			if p, err := ps.KeyProfile(ctx, "SHA256:4"+u); err != nil || p.Name != named {
				t.Fatalf("the profile made for a chosen name: %+v, %v", p, err)
			}
			if kind.name == "redis" {
				return // Redis times the window by its own clock
			}
			clk.advance(time.Hour)
			if _, err := sit(player(keys[2], home)); err != nil {
				t.Fatalf("an hour later, the third new player: %v", err)
			}
		})
	}
}
