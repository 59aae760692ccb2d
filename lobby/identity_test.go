package lobby

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/lobby/store/bolt"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// connect is a player connecting with key as login, as the server
// identifies them.
func connect(t *testing.T, l *Lobby, key, login string) Player {
	t.Helper()
	p, err := l.Identify(context.Background(), Player{ID: key, Key: key, Name: login})
	if err != nil {
		t.Fatalf("identify %s: %v", key, err)
	}
	return p
}

// newPlayer is a player connecting with key as login whose key has a
// profile: one made on its first need (ensureProfile), as a seat would.
func newPlayer(t *testing.T, l *Lobby, key, login string) Player {
	t.Helper()
	p, err := l.ensureProfile(context.Background(), connect(t, l, key, login), "")
	if err != nil {
		t.Fatalf("the profile of %s: %v", key, err)
	}
	return p
}

var playerName = regexp.MustCompile(`^player-[0-9a-f]{4}$`)

// TestNamesStick: a key's profile's first name is its login when that is free and
// not generic, "player-" and four letters otherwise; it is the same at
// every connection and after a restart; guests are "guest-…".
func TestNamesStick(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rooms.db")
	st, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	l := newLobby(t, st)
	a := newPlayer(t, l, "SHA256:a", "alice")
	b := newPlayer(t, l, "SHA256:b", "alice") // a friend on the same machine account
	r := newPlayer(t, l, "SHA256:r", "root")
	if a.Name != "alice" || a.ID != "SHA256:a" || a.Key != "SHA256:a" {
		t.Fatalf("the first alice is %+v", a)
	}
	if !playerName.MatchString(b.Name) || !playerName.MatchString(r.Name) || b.Name == r.Name {
		t.Fatalf("the second alice is %q and root is %q; want two player-XXXX names", b.Name, r.Name)
	}
	if again := connect(t, l, "SHA256:b", "bob"); again.Name != b.Name {
		t.Fatalf("the second key reconnecting as bob is %q, want %q", again.Name, b.Name)
	}
	g, err := l.Identify(context.Background(), Player{ID: "guest:k7qzwxyz", Name: "root", Guest: true})
	if err != nil || g.Name != "guest-k7qz" {
		t.Fatalf("a guest logging in as root is %+v, %v", g, err)
	}
	if _, err := l.Rename(context.Background(), a, "Alice Liddell"); err != nil {
		t.Fatal(err)
	}
	st.Close()

	st, err = bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l = newLobby(t, st)
	if a := connect(t, l, "SHA256:a", "whoever"); a.Name != "Alice Liddell" || a.ID != "SHA256:a" {
		t.Fatalf("after a restart the first key is %+v", a)
	}
	if again := connect(t, l, "SHA256:b", "alice"); again.Name != b.Name {
		t.Fatalf("after a restart the second key is %q, want %q", again.Name, b.Name)
	}
}

// TestNameBeforeTheFirstSeat: a key without a profile whose login is no
// name for it is shown by the same "player-" name at every connection,
// and keeps it when it sits down; another key is shown by another, and
// one whose name a profile holds gets a name of its own.
func TestNameBeforeTheFirstSeat(t *testing.T) {
	l := newLobby(t, mem.New())
	first := connect(t, l, "SHA256:newcomer", "root")
	if !playerName.MatchString(first.Name) {
		t.Fatalf("a new key logging in as root is shown as %q", first.Name)
	}
	for range 3 {
		if again := connect(t, l, "SHA256:newcomer", "root"); again.Name != first.Name {
			t.Fatalf("the same key's next connection is shown as %q, its first as %q", again.Name, first.Name)
		}
	}
	if other := connect(t, l, "SHA256:other", "root"); other.Name == first.Name {
		t.Fatalf("two keys are both shown as %q", other.Name)
	}
	if seated := newPlayer(t, l, "SHA256:newcomer", "root"); seated.Name != first.Name {
		t.Fatalf("sitting down, the key became %q; it was shown as %q", seated.Name, first.Name)
	}
	// Another key's login takes the name the first key's profile holds:
	// it is shown by its own, not by the profile's.
	if taken := connect(t, l, "SHA256:third", first.Name); taken.Name == first.Name || !playerName.MatchString(taken.Name) {
		t.Fatalf("a key logging in as the held name %q is shown as %q", first.Name, taken.Name)
	}
}

// TestRename: a name is checked, unique, and shown in rooms from then on;
// guests keep theirs.
func TestRename(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	a, b := newPlayer(t, l, "SHA256:a", "alice"), newPlayer(t, l, "SHA256:b", "bob")
	if _, err := l.Rename(ctx, b, "ALICE"); err == nil || !strings.Contains(err.Error(), "taken") {
		t.Fatalf("bob renamed to ALICE: %v", err)
	}
	if _, err := l.Rename(ctx, b, "bo\u202eb"); err == nil || !strings.Contains(err.Error(), "direction-changing") {
		t.Fatalf("a name with a bidi override: %v", err)
	}
	if _, err := l.Rename(ctx, Player{ID: "guest:x", Guest: true}, "Gus"); !errors.Is(err, errGuestProfile) {
		t.Fatalf("a guest renamed: %v", err)
	}
	m, err := l.Create(ctx, a, CreateOptions{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Join(ctx, m.Code, a)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	name, err := l.Rename(ctx, a, "  Ally ")
	if err != nil || name != "Ally" {
		t.Fatalf("rename: %q, %v", name, err)
	}
	a = connect(t, l, "SHA256:a", "alice")
	c, err = l.Join(ctx, m.Code, a)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := latest(t, c).Room.Seats[0].Name; got != "Ally" {
		t.Fatalf("back at the table after a rename the seat shows %q", got)
	}
	if _, err := l.Rename(ctx, b, "alice"); err != nil {
		t.Fatalf("alice's old name is not free: %v", err)
	}
}

// TestSameNameAtOneTable: two players who would show the same name are
// told apart by a suffix.
func TestSameNameAtOneTable(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	// Names as a server without profiles keeps them: the login.
	a, b := Player{ID: "key:a", Name: "alice"}, Player{ID: "key:b", Name: "alice"}
	m, err := l.Create(ctx, a, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	ca, err := l.Join(ctx, m.Code, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close()
	cb, err := l.Join(ctx, m.Code, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	seats := latest(t, cb).Room.Seats
	if seats[0].Name != "alice" || seats[1].Name != "alice-2" {
		t.Fatalf("two alices sit as %q and %q", seats[0].Name, seats[1].Name)
	}
}

// TestLink: a code from one key links another key to its profile, which
// then reaches the profile's seats; wrong, used and lapsed codes are
// refused and count as failed lookups.
func TestLink(t *testing.T) {
	ctx := context.Background()
	clk := &clock{now: t0}
	l := New(Config{Store: mem.New(), Games: []Game{tallyGame()}, Now: clk.Now,
		Limits: Limits{LookupMisses: 4, LookupWindow: time.Hour}})
	desktop := newPlayer(t, l, "SHA256:desktop", "alice")
	laptop := newPlayer(t, l, "SHA256:laptop", "alice")
	m, err := l.Create(ctx, desktop, CreateOptions{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Join(ctx, m.Code, desktop)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()

	code, expires, err := l.LinkCode(ctx, desktop)
	if err != nil || len(code) != players.LinkCodeLength || !expires.Equal(t0.Add(players.LinkCodeLife)) {
		t.Fatalf("link code %q until %v, %v", code, expires, err)
	}
	linked, err := l.Link(ctx, laptop, strings.ToLower(code[:5]+"-"+code[5:]))
	if err != nil || linked.Profile.ID != desktop.ID || linked.Left != laptop.Name {
		t.Fatalf("link: %+v, %v", linked, err)
	}
	laptop = connect(t, l, "SHA256:laptop", "alice")
	if laptop.ID != desktop.ID || laptop.Name != "alice" || laptop.Key != "SHA256:laptop" {
		t.Fatalf("the laptop after linking is %+v", laptop)
	}
	// The laptop takes the desktop's seat, not the free one.
	c, err = l.Join(ctx, m.Code, laptop)
	if err != nil || c.Seat() != 0 {
		t.Fatalf("the linked laptop joins seat %d, %v; want the desktop's seat 0", c.Seat(), err)
	}
	c.Close()

	other := connect(t, l, "SHA256:other", "bob")
	if _, err := l.Link(ctx, other, code); err == nil || !strings.Contains(err.Error(), "no such link code") {
		t.Fatalf("a used code: %v", err)
	}
	stale, _, _ := l.LinkCode(ctx, desktop)
	clk.advance(players.LinkCodeLife + time.Second)
	if _, err := l.Link(ctx, other, stale); err == nil || !strings.Contains(err.Error(), "no such link code") {
		t.Fatalf("a lapsed code: %v", err)
	}
	if _, err := l.Link(ctx, other, "ABCDEFGHJK"); err == nil || !strings.Contains(err.Error(), "no such link code") {
		t.Fatalf("a made-up code: %v", err)
	}
	if _, err := l.Link(ctx, other, "short"); err == nil || !strings.Contains(err.Error(), "10 letters") {
		t.Fatalf("a code of the wrong length: %v", err)
	}
	// Three misses so far; the fifth goes past the limit of 4, and then
	// even a good code is refused until the window ends.
	l.Link(ctx, other, "ABCDEFGHJM")
	var lim *LimitError
	if _, err := l.Link(ctx, other, "ABCDEFGHJN"); !errors.As(err, &lim) || !lim.Final {
		t.Fatalf("the fifth wrong code: %v, want the final lookup refusal", err)
	}
	good, _, _ := l.LinkCode(ctx, desktop)
	if _, err := l.Link(ctx, other, good); !errors.As(err, &lim) {
		t.Fatalf("a good code past the limit: %v, want the lookup refusal", err)
	}
}

// TestLinkKeepsUnfinishedSeats: a key whose own player sits in an
// unfinished game is not linked away from it.
func TestLinkKeepsUnfinishedSeats(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	a, b := connect(t, l, "SHA256:a", "alice"), connect(t, l, "SHA256:b", "bob")
	m, err := l.Create(ctx, b, CreateOptions{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Join(ctx, m.Code, b)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	code, _, err := l.LinkCode(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Link(ctx, b, code); err == nil || !strings.Contains(err.Error(), m.Code) {
		t.Fatalf("linking bob away from his unfinished game: %v", err)
	}
	if again := connect(t, l, "SHA256:b", "bob"); again.ID != b.ID {
		t.Fatalf("bob's key moved anyway: %+v", again)
	}
}

// TestLangSticks: a key's chosen language is kept with the profile it
// makes, so the key's next connection, and a key linked later, read it;
// a guest has no profile to keep one in.
func TestLangSticks(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	a := connect(t, l, "SHA256:a", "alice") // no profile yet
	got, err := l.SetLang(ctx, a, "pl")
	if err != nil || got.Lang != "pl" {
		t.Fatalf("alice chose Polish: %+v, %v", got, err)
	}
	if again := connect(t, l, "SHA256:a", "alice"); again.Lang != "pl" || again.Name != "alice" {
		t.Fatalf("alice reconnecting is %+v; want Polish", again)
	}
	if b := connect(t, l, "SHA256:b", "bob"); b.Lang != "" {
		t.Fatalf("bob, who chose nothing, reads %q", b.Lang)
	}
	if _, err := l.SetLang(ctx, a, ""); err != nil {
		t.Fatal(err)
	}
	if again := connect(t, l, "SHA256:a", "alice"); again.Lang != "" {
		t.Fatalf("alice's forgotten choice still reads %q", again.Lang)
	}
	if _, err := l.SetLang(ctx, Player{ID: "guest:x", Guest: true}, "ru"); !errors.Is(err, errGuestProfile) {
		t.Fatalf("a guest chose a language: %v", err)
	}
}
