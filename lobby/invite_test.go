package lobby

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

func TestParseInvite(t *testing.T) {
	for _, tt := range []struct {
		in, code, secret string
		ok               bool
	}{
		{"K7PXMA", "K7PXMA", "", true},
		{" k7p-xma ", "K7PXMA", "", true},
		{"K7PXMA-ABCDEFGHJKMNP", "K7PXMA", "ABCDEFGHJKMNP", true},
		{"k7pxma abcdefg-hjkmnp", "K7PXMA", "ABCDEFGHJKMNP", true},
		{"K7PXM", "", "", false},
		{"K7PXMA-ABC", "", "", false},
		{"", "", "", false},
	} {
		code, secret, ok := ParseInvite(tt.in)
		if code != tt.code || secret != tt.secret || ok != tt.ok {
			t.Errorf("ParseInvite(%q) = %q, %q, %v; want %q, %q, %v", tt.in, code, secret, ok, tt.code, tt.secret, tt.ok)
		}
	}
}

// A private room cannot be joined, watched, looked at or replayed by its
// code alone, and says so exactly as a code with no room does; its invite,
// typed any way, lets anyone in; its seats and its host need only the code.
// The invite reaches the seats, the host and a spectator who came in with
// it, never a list.
func TestPrivateRoomNeedsInvite(t *testing.T) {
	ctx := context.Background()
	st := mem.New()
	l := newLobby(t, st)
	hana, ann, carol := Player{ID: "key:hana", Name: "hana"}, Player{ID: "key:ann", Name: "ann"}, Player{ID: "key:carol", Name: "carol"}
	m, err := l.Create(ctx, hana, CreateOptions{Seats: 2, Seed: 4, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Secret) != SecretLength || m.Invite() != m.Code+"-"+m.Secret {
		t.Fatalf("private room %q has invite %q", m.Code, m.Invite())
	}
	pub, err := l.Create(ctx, hana, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	if pub.Secret != "" || pub.Invite() != pub.Code {
		t.Fatalf("public room %+v has a secret", pub)
	}

	checkStrangersRefused(t, l, m, carol)

	// The host with the code; ann with the invite, typed loosely.
	h, err := l.Join(ctx, m.Code, hana)
	if err != nil {
		t.Fatalf("the host with the code: %v", err)
	}
	loose := strings.ToLower(m.Code + " " + m.Secret[:5] + "-" + m.Secret[5:])
	a, err := l.Join(ctx, loose, ann)
	if err != nil {
		t.Fatalf("ann with the invite %q: %v", loose, err)
	}
	w, err := l.Watch(ctx, m.Invite(), carol)
	if err != nil {
		t.Fatalf("carol watching with the invite: %v", err)
	}
	for who, c := range map[string]*Conn{"the host": h, "ann": a} {
		if u := latest(t, c); u.Invite != m.Invite() {
			t.Errorf("%s is shown the invite %q, want %q", who, u.Invite, m.Invite())
		}
	}
	if u := latest(t, w); u.Invite != m.Invite() {
		t.Errorf("carol, who came in with the invite, is shown %q, want %q to come back with", u.Invite, m.Invite())
	}
	// Seats come back with the code alone, to play or to watch.
	a.Close()
	if a, err = l.Join(ctx, m.Code, ann); err != nil {
		t.Fatalf("ann back in her seat with the code: %v", err)
	}
	aw, err := l.Watch(ctx, m.Code, ann)
	if err != nil {
		t.Fatalf("ann watching her own room with the code: %v", err)
	}
	if u := latest(t, aw); u.Invite != m.Invite() {
		t.Errorf("ann watching her own room is shown %q, want the invite", u.Invite)
	}
	playOut(t, map[int]*Conn{h.Seat(): h, a.Seat(): a})

	// Finished, its replay is guarded the same way.
	_, _, err = l.Replay(ctx, m.Code, carol)
	wantNoRoom(t, err, m.Code)
	if _, _, err := l.Replay(ctx, m.Invite(), carol); err != nil {
		t.Errorf("replay with the invite: %v", err)
	}
	if _, _, err := l.Replay(ctx, m.Code, ann); err != nil {
		t.Errorf("replay by a seat with the code: %v", err)
	}

	checkListsHideSecret(t, l, ann, m.Secret)
}

// wantNoRoom checks that err says exactly what a code with no room gets.
func wantNoRoom(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil || err.Error() != noRoom(code).Error() {
		t.Errorf("got %v; want exactly what a code with no room gets: %v", err, noRoom(code))
	}
}

// checkStrangersRefused checks that carol, with the private room m's
// code or a wrong invite, is told what a code with no room is told.
func checkStrangersRefused(t *testing.T, l *Lobby, m store.Meta, carol Player) {
	t.Helper()
	ctx := context.Background()
	wrong := m.Code + "-" + strings.Repeat("A", SecretLength)
	if wrong == m.Invite() {
		wrong = m.Code + "-" + strings.Repeat("B", SecretLength)
	}
	none := "ZZZZZZ"
	if m.Code == none {
		none = "YYYYYY"
	}
	for _, typed := range []string{m.Code, strings.ToLower(m.Code), wrong} {
		_, err := l.Join(ctx, typed, carol)
		wantNoRoom(t, err, m.Code)
		_, err = l.Watch(ctx, typed, carol)
		wantNoRoom(t, err, m.Code)
		_, err = l.Info(ctx, typed, carol)
		wantNoRoom(t, err, m.Code)
	}
	_, err := l.Join(ctx, none, carol)
	wantNoRoom(t, err, none)
}

// checkListsHideSecret checks that no list of l shows secret, and that
// ann's history holds her one game.
func checkListsHideSecret(t *testing.T, l *Lobby, ann Player, secret string) {
	t.Helper()
	ctx := context.Background()
	hist, err := l.History(ctx, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	rooms, err := l.Rooms(ctx)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal([]any{hist, rooms})
	if strings.Contains(string(raw), secret) || len(hist) != 1 {
		t.Errorf("the lists show the secret, or miss ann's game: %s", raw)
	}
}

// A room made private before invites existed has no secret. The first
// instance to load it gives it one, stored with the compare-and-set, so
// two instances loading it at once agree on it: from then on its host is
// shown the invite, a stranger with it gets in, and the code alone still
// lets no stranger in.
func TestPrivateRoomFromBeforeInvites(t *testing.T) {
	ctx := context.Background()
	st := mem.New()
	hana, carol, dan := Player{ID: "key:hana", Name: "hana"}, Player{ID: "key:carol", Name: "carol"}, Player{ID: "key:dan", Name: "dan"}
	m := store.Meta{Code: room.NewCode(), Game: "tally", Host: hana.ID, Seats: []store.Seat{{Player: hana.ID, Name: "hana"}, {}}, Version: 1}
	if err := st.Create(ctx, m); err != nil {
		t.Fatal(err)
	}
	lobbies := []*Lobby{newLobby(t, st), newLobby(t, st)}
	hosts := make([]*Conn, 2)
	errs := make(chan error, 2)
	for i, l := range lobbies {
		go func() {
			var err error
			hosts[i], err = l.Join(ctx, m.Code, hana)
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("the host back with the code: %v", err)
		}
	}
	stored, _, err := st.Load(ctx, m.Code, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored.Secret) != SecretLength || stored.Version != 2 {
		t.Fatalf("the old room was stored as %+v, want a secret given once", stored)
	}
	for i, h := range hosts {
		if u := latest(t, h); u.Invite != stored.Invite() {
			t.Errorf("the host on lobby %d is shown %q, want the stored invite %q", i, u.Invite, stored.Invite())
		}
	}
	if _, err := lobbies[0].Watch(ctx, m.Code, carol); err == nil {
		t.Error("a stranger watched the old private room by its code")
	}
	w, err := lobbies[1].Watch(ctx, stored.Invite(), carol)
	if err != nil {
		t.Fatalf("a stranger with the invite: %v", err)
	}
	if u := latest(t, w); u.Invite != stored.Invite() {
		t.Errorf("the spectator who came in with the invite is shown %q", u.Invite)
	}
	if _, err := lobbies[0].Join(ctx, stored.Invite(), dan); err != nil {
		t.Errorf("the free seat, with the invite: %v", err)
	}
}

// Something that cannot be a code is answered without a lookup, and is
// not counted as a miss: it cannot find anything.
func TestMalformedCodeIsNotLookedUp(t *testing.T) {
	ctx := context.Background()
	l := New(Config{Store: mem.New(), Games: []Game{tallyGame()}, Limits: Limits{LookupMisses: 5, LookupWindow: time.Hour}})
	p := Player{ID: "key:x", Addr: "192.0.2.1"}
	_, err := l.Join(ctx, "hello world", p)
	if err == nil || !strings.Contains(err.Error(), `"HELLOWORLD" is not a room code`) {
		t.Errorf("join %q: %v", "hello world", err)
	}
	for _, name := range missNames(p) {
		if n, _, _ := l.misses().Misses(ctx, name.key, time.Now()); n != 0 {
			t.Errorf("%s has %d misses counted", name.key, n)
		}
	}
}
