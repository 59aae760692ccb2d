package lobby

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// Profiles that never played expire: one that only chose a name, made
// longer ago than ProfileExpire, is forgotten and its name comes free;
// one as old that holds a seat stays, and so does a new one.
func TestProfilesThatNeverPlayedExpire(t *testing.T) {
	ctx := context.Background()
	clk := &clock{now: t0}
	st := mem.New()
	l := New(Config{Store: st, Games: []Game{tallyGame()}, Now: clk.Now, ProfileExpire: 30 * 24 * time.Hour})
	idle := newPlayer(t, l, "SHA256:idle", "idle")
	if _, err := l.Rename(ctx, idle, "Squatter"); err != nil {
		t.Fatal(err)
	}
	player := newPlayer(t, l, "SHA256:player", "player")
	m, err := l.Create(ctx, player, CreateOptions{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Join(ctx, m.Code, player)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	clk.advance(31 * 24 * time.Hour)
	fresh := newPlayer(t, l, "SHA256:fresh", "fresh")

	l.ExpireProfiles(ctx)
	if p, err := st.KeyProfile(ctx, idle.Key); !errors.Is(err, store.ErrNoProfile) {
		t.Errorf("a profile that never played, 31 days old: %+v, %v", p, err)
	}
	for _, p := range []Player{player, fresh} {
		if _, err := st.KeyProfile(ctx, p.Key); err != nil {
			t.Errorf("%s's profile: %v", p.Name, err)
		}
	}
	if back := connect(t, l, "SHA256:other", "Squatter"); back.Name != "Squatter" {
		t.Errorf("the expired profile's name is not free: a new key logging in as it is shown %q", back.Name)
	}
}
