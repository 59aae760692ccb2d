package lobby

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// contractDropProfile holds every store to the same listing and dropping
// of profiles: a dropped profile's keys, name and ID are gone, the name is
// free again, and other profiles are untouched.
func contractDropProfile(t *testing.T, s Store) {
	ctx := context.Background()
	ps := s.(ProfileStore)
	u := newCode() // a shared Redis holds others' profiles
	a := Profile{ID: "SHA256:a" + u, Name: "Ann" + u, Keys: []string{"SHA256:a" + u}, Created: t0}
	b := Profile{ID: "SHA256:b" + u, Name: "Bea" + u, Keys: []string{"SHA256:b" + u}, Created: t0}
	for _, p := range []Profile{a, b} {
		if err := ps.CreateProfile(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := ps.LinkKey(ctx, "SHA256:a2"+u, a.ID); err != nil {
		t.Fatal(err)
	}
	all, err := ps.Profiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{a.ID, b.ID} {
		if !slices.ContainsFunc(all, func(p Profile) bool { return p.ID == want }) {
			t.Fatalf("profiles lacks %s: %+v", want, all)
		}
	}
	if err := ps.DropProfile(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := ps.DropProfile(ctx, a.ID); err != nil {
		t.Fatalf("dropping a profile again: %v", err)
	}
	for what, read := range map[string]func() (Profile, error){
		"by its first key":  func() (Profile, error) { return ps.KeyProfile(ctx, "SHA256:a"+u) },
		"by its linked key": func() (Profile, error) { return ps.KeyProfile(ctx, "SHA256:a2"+u) },
		"by id":             func() (Profile, error) { return ps.Profile(ctx, a.ID) },
		"by name":           func() (Profile, error) { return ps.NamedProfile(ctx, a.Name) },
	} {
		if p, err := read(); !errors.Is(err, ErrNoProfile) {
			t.Errorf("the dropped profile %s: %+v, %v", what, p, err)
		}
	}
	if p, err := ps.NamedProfile(ctx, b.Name); err != nil || p.ID != b.ID {
		t.Errorf("the other profile: %+v, %v", p, err)
	}
	if err := ps.CreateProfile(ctx, Profile{ID: "SHA256:c" + u, Name: a.Name, Keys: []string{"SHA256:c" + u}}); err != nil {
		t.Errorf("the dropped profile's name is not free: %v", err)
	}
}

// Profiles that never played expire: one that only chose a name, made
// longer ago than ProfileExpire, is forgotten and its name comes free;
// one as old that holds a seat stays, and so does a new one.
func TestProfilesThatNeverPlayedExpire(t *testing.T) {
	ctx := context.Background()
	clk := &clock{now: t0}
	store := NewMemStore()
	l := New(Config{Store: store, Games: []Game{tallyGame()}, Now: clk.Now, ProfileExpire: 30 * 24 * time.Hour})
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
	if p, err := store.KeyProfile(ctx, idle.Key); !errors.Is(err, ErrNoProfile) {
		t.Errorf("a profile that never played, 31 days old: %+v, %v", p, err)
	}
	for _, p := range []Player{player, fresh} {
		if _, err := store.KeyProfile(ctx, p.Key); err != nil {
			t.Errorf("%s's profile: %v", p.Name, err)
		}
	}
	if back := connect(t, l, "SHA256:other", "Squatter"); back.Name != "Squatter" {
		t.Errorf("the expired profile's name is not free: a new key logging in as it is shown %q", back.Name)
	}
}
