package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// profiles holds the store's profiles to the same behaviour:
// one profile per key, names unique however they are cased, renames that
// free the old name, single-use link codes that lapse, and keys that move
// between profiles.
func profiles(t *testing.T, ps store.Profiles) {
	ctx := context.Background()
	// Unique keys and names, as a shared Redis may hold others'.
	u := newCode()
	keyA, keyB, keyC := "SHA256:a"+u, "SHA256:b"+u, "SHA256:c"+u
	nameA, nameB := "Ann"+u, "Bea"+u
	a := store.Profile{ID: keyA, Name: nameA, Keys: []string{keyA}, Created: t0}
	if err := ps.CreateProfile(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := ps.CreateProfile(ctx, store.Profile{ID: keyA, Name: "Other" + u, Keys: []string{keyA}}); !errors.Is(err, store.ErrExists) {
		t.Fatalf("a second profile for key A: %v, want ErrExists", err)
	}
	if err := ps.CreateProfile(ctx, store.Profile{ID: keyB, Name: "ANN" + u, Keys: []string{keyB}}); !errors.Is(err, store.ErrNameTaken) {
		t.Fatalf("B named as A in capitals: %v, want ErrNameTaken", err)
	}
	b := store.Profile{ID: keyB, Name: nameB, Keys: []string{keyB}, Created: t0}
	if err := ps.CreateProfile(ctx, b); err != nil {
		t.Fatal(err)
	}
	for what, read := range map[string]func() (store.Profile, error){
		"by key":            func() (store.Profile, error) { return ps.KeyProfile(ctx, keyA) },
		"by id":             func() (store.Profile, error) { return ps.Profile(ctx, keyA) },
		"by name, any case": func() (store.Profile, error) { return ps.NamedProfile(ctx, "aNN"+u) },
	} {
		got, err := read()
		if err != nil || got.ID != keyA || got.Name != nameA || !slices.Equal(got.Keys, a.Keys) || !got.Created.Equal(t0) {
			t.Fatalf("profile A %s: %+v, %v", what, got, err)
		}
	}
	if _, err := ps.KeyProfile(ctx, keyC); !errors.Is(err, store.ErrNoProfile) {
		t.Fatalf("profile of an unknown key: %v, want ErrNoProfile", err)
	}
	if _, err := ps.NamedProfile(ctx, "Nobody"+u); !errors.Is(err, store.ErrNoProfile) {
		t.Fatalf("profile of an unknown name: %v, want ErrNoProfile", err)
	}

	renames(t, ps, u, keyA, nameA)
	langs(t, ps, u, keyA)
	linkCodes(t, ps, u, keyA)

	// Key B moves to A: B's profile, left without keys, is gone with its
	// name; a new key C joins A too.
	if err := ps.LinkKey(ctx, keyB, keyA); err != nil {
		t.Fatal(err)
	}
	if err := ps.LinkKey(ctx, keyC, keyA); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{keyA, keyB, keyC} {
		if got, err := ps.KeyProfile(ctx, key); err != nil || got.ID != keyA || !slices.Equal(got.Keys, []string{keyA, keyB, keyC}) {
			t.Fatalf("profile of key %s after the links: %+v, %v", key, got, err)
		}
	}
	if _, err := ps.Profile(ctx, keyB); !errors.Is(err, store.ErrNoProfile) {
		t.Fatalf("B's old profile after its only key left: %v, want ErrNoProfile", err)
	}
	if err := ps.Rename(ctx, keyA, nameB); err != nil {
		t.Fatalf("B's old name is not free: %v", err)
	}
	if err := ps.LinkKey(ctx, keyC, "SHA256:nobody"+u); !errors.Is(err, store.ErrNoProfile) {
		t.Fatalf("link to a missing profile: %v, want ErrNoProfile", err)
	}
}

// renames: a name held by another profile is refused; a new one frees
// the old. Profile id is named name ("Ann"+u), another "Bea"+u.
func renames(t *testing.T, ps store.Profiles, u, id, name string) {
	ctx := context.Background()
	if err := ps.Rename(ctx, id, "bea"+u); !errors.Is(err, store.ErrNameTaken) {
		t.Fatalf("A renamed to B's name: %v, want ErrNameTaken", err)
	}
	if err := ps.Rename(ctx, id, "ann"+u); err != nil {
		t.Fatalf("A renamed to its own name in another case: %v", err)
	}
	if err := ps.Rename(ctx, id, "Cy"+u); err != nil {
		t.Fatal(err)
	}
	if got, err := ps.NamedProfile(ctx, "cy"+u); err != nil || got.ID != id {
		t.Fatalf("A by its new name: %+v, %v", got, err)
	}
	if _, err := ps.NamedProfile(ctx, name); !errors.Is(err, store.ErrNoProfile) {
		t.Fatalf("A's old name still names someone: %v", err)
	}
	if err := ps.Rename(ctx, "SHA256:nobody"+u, "Dee"+u); !errors.Is(err, store.ErrNoProfile) {
		t.Fatalf("rename of a missing profile: %v, want ErrNoProfile", err)
	}
}

// langs: a profile keeps the language its player chose, through a
// rename and however it is read, until the choice is forgotten.
func langs(t *testing.T, ps store.Profiles, u, id string) {
	ctx := context.Background()
	if got, err := ps.Profile(ctx, id); err != nil || got.Lang != "" {
		t.Fatalf("a new profile's language: %q, %v; want none", got.Lang, err)
	}
	if err := ps.SetLang(ctx, id, "pl"); err != nil {
		t.Fatal(err)
	}
	if err := ps.Rename(ctx, id, "Lang"+u); err != nil {
		t.Fatal(err)
	}
	for what, read := range map[string]func() (store.Profile, error){
		"by key":  func() (store.Profile, error) { return ps.KeyProfile(ctx, id) },
		"by id":   func() (store.Profile, error) { return ps.Profile(ctx, id) },
		"by name": func() (store.Profile, error) { return ps.NamedProfile(ctx, "lang"+u) },
	} {
		if got, err := read(); err != nil || got.Lang != "pl" || got.Name != "Lang"+u {
			t.Fatalf("the profile %s after choosing Polish and a rename: %+v, %v", what, got, err)
		}
	}
	if err := ps.SetLang(ctx, id, ""); err != nil {
		t.Fatal(err)
	}
	if got, err := ps.Profile(ctx, id); err != nil || got.Lang != "" {
		t.Fatalf("the language after forgetting it: %q, %v; want none", got.Lang, err)
	}
	if err := ps.SetLang(ctx, "SHA256:nobody"+u, "ru"); !errors.Is(err, store.ErrNoProfile) {
		t.Fatalf("the language of a missing profile: %v, want ErrNoProfile", err)
	}
	// The line mode is kept beside the language, each apart.
	if err := ps.SetPlain(ctx, id, true); err != nil {
		t.Fatal(err)
	}
	if err := ps.SetLang(ctx, id, "pt"); err != nil {
		t.Fatal(err)
	}
	if got, err := ps.KeyProfile(ctx, id); err != nil || !got.Plain || got.Lang != "pt" {
		t.Fatalf("the profile after choosing the line mode, then Portuguese: %+v, %v", got, err)
	}
	if err := ps.SetPlain(ctx, id, false); err != nil {
		t.Fatal(err)
	}
	if got, err := ps.Profile(ctx, id); err != nil || got.Plain || got.Lang != "pt" {
		t.Fatalf("the profile after forgetting the line mode: %+v, %v", got, err)
	}
	if err := ps.SetPlain(ctx, "SHA256:nobody"+u, true); !errors.Is(err, store.ErrNoProfile) {
		t.Fatalf("the line mode of a missing profile: %v, want ErrNoProfile", err)
	}
}

// linkCodes: link codes work once, and not after they lapse. A code
// lives ten minutes, the lobby's LinkCodeLife.
func linkCodes(t *testing.T, ps store.Profiles, u, id string) {
	ctx := context.Background()
	code, stale := "L"+u+"XYZ", "S"+u+"XYZ"
	if err := ps.PutLinkCode(ctx, code, id, t0, t0.Add(10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := ps.PutLinkCode(ctx, stale, id, t0, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := ps.TakeLinkCode(ctx, stale, t0.Add(2*time.Minute)); !errors.Is(err, store.ErrNoLinkCode) {
		t.Fatalf("a lapsed code: %v, want ErrNoLinkCode", err)
	}
	if got, err := ps.TakeLinkCode(ctx, code, t0.Add(time.Minute)); err != nil || got != id {
		t.Fatalf("a fresh code: %q, %v; want %s", got, err, id)
	}
	if _, err := ps.TakeLinkCode(ctx, code, t0.Add(time.Minute)); !errors.Is(err, store.ErrNoLinkCode) {
		t.Fatalf("a used code: %v, want ErrNoLinkCode", err)
	}
	if _, err := ps.TakeLinkCode(ctx, "N"+u+"XYZ", t0); !errors.Is(err, store.ErrNoLinkCode) {
		t.Fatalf("an unknown code: %v, want ErrNoLinkCode", err)
	}
}

// profileBurst: a crowd of new players arriving at once (a game
// night announced, every session back after a restart) all get their
// profiles: on Redis one optimistic transaction over the shared hashes
// lost to the others until it gave up, and those players were refused.
func profileBurst(t *testing.T, ps store.Profiles) {
	ctx := context.Background()
	u := newCode()
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 200 {
		wg.Go(func() {
			key := fmt.Sprintf("SHA256:burst%d%s", i, u)
			errs <- ps.CreateProfile(ctx, store.Profile{ID: key, Name: fmt.Sprintf("p%d%s", i, u), Keys: []string{key}, Created: t0})
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a new player in a crowd of 200: %v", err)
		}
	}
	if p, err := ps.KeyProfile(ctx, "SHA256:burst7"+u); err != nil || p.Name != "p7"+u {
		t.Fatalf("a profile made in the crowd: %+v, %v", p, err)
	}
}

// dropProfile holds the store to the same listing and dropping
// of profiles: a dropped profile's keys, name and ID are gone, the name is
// free again, and other profiles are untouched.
func dropProfile(t *testing.T, ps store.Profiles) {
	ctx := context.Background()
	u := newCode() // a shared Redis holds others' profiles
	a := store.Profile{ID: "SHA256:a" + u, Name: "Ann" + u, Keys: []string{"SHA256:a" + u}, Created: t0}
	b := store.Profile{ID: "SHA256:b" + u, Name: "Bea" + u, Keys: []string{"SHA256:b" + u}, Created: t0}
	for _, p := range []store.Profile{a, b} {
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
		if !slices.ContainsFunc(all, func(p store.Profile) bool { return p.ID == want }) {
			t.Fatalf("profiles lacks %s: %+v", want, all)
		}
	}
	if err := ps.DropProfile(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := ps.DropProfile(ctx, a.ID); err != nil {
		t.Fatalf("dropping a profile again: %v", err)
	}
	for what, read := range map[string]func() (store.Profile, error){
		"by its first key":  func() (store.Profile, error) { return ps.KeyProfile(ctx, "SHA256:a"+u) },
		"by its linked key": func() (store.Profile, error) { return ps.KeyProfile(ctx, "SHA256:a2"+u) },
		"by id":             func() (store.Profile, error) { return ps.Profile(ctx, a.ID) },
		"by name":           func() (store.Profile, error) { return ps.NamedProfile(ctx, a.Name) },
	} {
		if p, err := read(); !errors.Is(err, store.ErrNoProfile) {
			t.Errorf("the dropped profile %s: %+v, %v", what, p, err)
		}
	}
	if p, err := ps.NamedProfile(ctx, b.Name); err != nil || p.ID != b.ID {
		t.Errorf("the other profile: %+v, %v", p, err)
	}
	if err := ps.CreateProfile(ctx, store.Profile{ID: "SHA256:c" + u, Name: a.Name, Keys: []string{"SHA256:c" + u}}); err != nil {
		t.Errorf("the dropped profile's name is not free: %v", err)
	}
}
