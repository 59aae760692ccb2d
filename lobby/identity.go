package lobby

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/lobby/store"
)

// LinkCodeLife is how long a link code lasts.
const LinkCodeLife = 10 * time.Minute

// LinkCodeLength is the length of link codes: 31^10 is about 2^50, and a
// guesser is slowed and stopped like one guessing room codes (lookups.go)
// long before the code lapses.
const LinkCodeLength = 10

// Identify completes a player who just connected: a guest gets a guest's
// name; a key gets the profile it plays as, which binds seats, and its
// name. A key seen for the first time gets no profile yet: it plays as
// itself (its ID is the one its profile will have), under its SSH login
// when that is a fit name no profile holds, or "player-" and four random
// letters otherwise, reserved by nobody. Its profile is made on its first
// need (ensureProfile): a seat, a chosen name, a link code. So a client
// connecting with one new key after another fills no store.
func (l *Lobby) Identify(ctx context.Context, p Player) (Player, error) {
	if p.Guest {
		p.Name = GuestName(p.ID)
		return p, nil
	}
	ps := l.cfg.Store
	if p.Key == "" {
		p.Name = chat.CleanText(p.Name) // the SSH login, as the client sent it
		return p, nil
	}
	prof, err := ps.KeyProfile(ctx, p.Key)
	if errors.Is(err, store.ErrNoProfile) {
		p.ID, p.Name = p.Key, l.sessionName(ctx, ps, p.Name)
		return p, nil
	}
	if err != nil {
		return Player{}, l.unavailable("profile of "+p.Key, err)
	}
	p.ID, p.Name = prof.ID, prof.Name
	return p, nil
}

// sessionName is the name a key without a profile is shown by: its login
// when that is a fit name no profile holds, else a random one.
func (l *Lobby) sessionName(ctx context.Context, ps store.Profiles, login string) string {
	if name := loginName(login); name != "" {
		if _, err := ps.NamedProfile(ctx, name); errors.Is(err, store.ErrNoProfile) {
			return name
		}
	}
	return "player-" + randomHex(2)
}

// ensureProfile returns p as its profile has it, making the profile of a
// key that has none (Identify), named name, or p.Name when name is empty,
// or a random name when that is taken. New profiles from one address are
// limited (Limits.ProfilesPerHour). A guest, or a lobby without profiles,
// has nothing to make.
func (l *Lobby) ensureProfile(ctx context.Context, p Player, name string) (Player, error) {
	ps := l.cfg.Store
	if p.Guest || p.Key == "" {
		return p, nil
	}
	prof, err := ps.KeyProfile(ctx, p.Key)
	if errors.Is(err, store.ErrNoProfile) {
		if err := l.checkProfileQuota(ctx, p); err != nil {
			return Player{}, err
		}
		prof, err = l.newProfile(ctx, ps, p, cmp.Or(name, p.Name))
	}
	if err != nil {
		return Player{}, l.unavailable("profile of "+p.Key, err)
	}
	p.ID, p.Name = prof.ID, prof.Name
	return p, nil
}

// checkProfileQuota counts a new profile made from p's address and
// refuses it past Limits.ProfilesPerHour. With the server's per-address
// limits off there is no address, and no quota.
func (l *Lobby) checkProfileQuota(ctx context.Context, p Player) error {
	lim := l.cfg.Limits.ProfilesPerHour
	if lim <= 0 || p.Addr == "" {
		return nil
	}
	n, _, err := l.misses().Miss(ctx, "profiles:"+p.Addr, l.cfg.Now(), time.Hour)
	if err != nil {
		return l.unavailable("count new players", err)
	}
	if n <= lim {
		return nil
	}
	refusal := &LimitError{Reason: "profiles_per_hour",
		Msg: fmt.Sprintf("%d new players came from your address in the last hour, the most allowed: try again later, or with a key that has played here", lim)}
	l.observer().Refused(refusal.Reason, p)
	return refusal
}

// newProfile creates the profile of a key that has none, named name when
// that is fit and free.
func (l *Lobby) newProfile(ctx context.Context, ps store.Profiles, p Player, name string) (store.Profile, error) {
	prof := store.Profile{ID: p.Key, Keys: []string{p.Key}, Created: l.cfg.Now().UTC()}
	names := []string{loginName(name)}
	for i := range 8 {
		// Eight tries at 65536 names, then longer ones.
		names = append(names, "player-"+randomHex(2+i/4))
	}
	for _, name := range names {
		if name == "" {
			continue
		}
		prof.Name = name
		err := ps.CreateProfile(ctx, prof)
		switch {
		case err == nil:
			l.cfg.Logger.Info("new player", "key", p.Key, "name", name)
			return prof, nil
		case errors.Is(err, store.ErrExists):
			// Another session of the same key was quicker.
			return ps.KeyProfile(ctx, p.Key)
		case !errors.Is(err, store.ErrNameTaken):
			return store.Profile{}, err
		}
	}
	return store.Profile{}, errors.New("no free name found for a new player")
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// errGuestProfile refuses what only players with a key can have.
var errGuestProfile = errors.New("guests have no profile: connect with an SSH key to keep a name, records and ratings")

// Rename gives p's profile the name, for every room they sit down or come
// back to from now on, and returns the name as kept.
func (l *Lobby) Rename(ctx context.Context, p Player, name string) (string, error) {
	if p.Guest {
		return "", errGuestProfile
	}
	name, err := CheckName(name)
	if err != nil {
		return "", err
	}
	ps := l.cfg.Store
	// A key without a profile gets one now, with the name if it is free.
	if p, err = l.ensureProfile(ctx, p, name); err != nil {
		return "", err
	}
	if p.Name == name {
		return name, nil
	}
	err = ps.Rename(ctx, p.ID, name)
	switch {
	case errors.Is(err, store.ErrNameTaken):
		return "", fmt.Errorf("%q is taken: choose another name", name)
	case errors.Is(err, store.ErrNoProfile):
		return "", errors.New("your profile is gone: reconnect")
	case err != nil:
		return "", l.unavailable("rename "+p.ID, err)
	}
	l.cfg.Logger.Info("renamed", "player", p.ID, "name", name)
	return name, nil
}

// LinkCode makes a one-time code with which another key can join p's
// profile (Link), and says when it lapses.
func (l *Lobby) LinkCode(ctx context.Context, p Player) (code string, expires time.Time, err error) {
	if p.Guest {
		return "", time.Time{}, errGuestProfile
	}
	ps := l.cfg.Store
	// Another key joins a profile: this key's, made now if it has none.
	if p, err = l.ensureProfile(ctx, p, ""); err != nil {
		return "", time.Time{}, err
	}
	now := l.cfg.Now()
	code, expires = randomLetters(LinkCodeLength), now.Add(LinkCodeLife)
	if err := ps.PutLinkCode(ctx, code, p.ID, now, expires); err != nil {
		return "", time.Time{}, l.unavailable("keep a link code", err)
	}
	return code, expires, nil
}

// Linked is what linking a key did.
type Linked struct {
	// Profile is the profile the key plays as now.
	Profile store.Profile
	// Left is the name of the profile the key played as before, when
	// that profile is gone with it (its finished games keep the name).
	Left string
}

// Link makes p's key play as the profile a code from LinkCode names. A
// wrong, used or lapsed code counts as a failed lookup, like a wrong
// room code. A key whose own profile still sits in unfinished games
// keeps it: those seats would be nobody's.
func (l *Lobby) Link(ctx context.Context, p Player, code string) (Linked, error) {
	if p.Guest || p.Key == "" {
		return Linked{}, errGuestProfile
	}
	ps := l.cfg.Store
	code = NormalizeCode(code)
	if len(code) != LinkCodeLength {
		return Linked{}, fmt.Errorf("a link code has %d letters and digits: run `link` on a key of the profile to get one", LinkCodeLength)
	}
	barred := l.barred(ctx, p)
	if barred != nil {
		return Linked{}, l.countMiss(ctx, p, barred)
	}
	id, err := ps.TakeLinkCode(ctx, code, l.cfg.Now())
	if errors.Is(err, store.ErrNoLinkCode) {
		if err := l.countMiss(ctx, p, nil); err != nil {
			return Linked{}, err
		}
		return Linked{}, errors.New("no such link code: codes last 10 minutes and work once; run `link` on the other key for a new one")
	}
	if err != nil {
		return Linked{}, l.unavailable("take a link code", err)
	}
	if id == p.ID {
		prof, err := ps.Profile(ctx, id)
		if err != nil {
			return Linked{}, l.unavailable("read profile "+id, err)
		}
		return Linked{Profile: prof}, errors.New("this key plays as " + prof.Name + " already")
	}
	var left string
	if old, err := ps.Profile(ctx, p.ID); err == nil && len(old.Keys) == 1 {
		if open, err := l.unfinished(ctx, p.ID); err != nil {
			return Linked{}, err
		} else if open != "" {
			return Linked{}, fmt.Errorf("this key's player %s still sits in unfinished games (%s): finish or end them first", old.Name, open)
		}
		left = old.Name
	}
	if err := ps.LinkKey(ctx, p.Key, id); err != nil {
		if errors.Is(err, store.ErrNoProfile) {
			return Linked{}, errors.New("the profile of that code is gone")
		}
		return Linked{}, l.unavailable("link key "+p.Key, err)
	}
	prof, err := ps.Profile(ctx, id)
	if err != nil {
		return Linked{}, l.unavailable("read profile "+id, err)
	}
	l.cfg.Logger.Info("key linked", "key", p.Key, "player", id, "left", p.ID)
	return Linked{Profile: prof, Left: left}, nil
}

// unfinished names the unfinished rooms where player holds a seat, or "".
func (l *Lobby) unfinished(ctx context.Context, player string) (string, error) {
	rooms, err := l.History(ctx, player)
	if err != nil {
		return "", err
	}
	var codes []string
	for _, r := range rooms {
		if !r.Over {
			codes = append(codes, r.Code)
		}
	}
	if len(codes) > 3 {
		codes = append(codes[:3], "…")
	}
	return strings.Join(codes, ", "), nil
}
