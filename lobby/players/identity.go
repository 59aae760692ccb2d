package players

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// LinkCodeLife is how long a link code lasts.
const LinkCodeLife = 10 * time.Minute

// LinkCodeLength is the length of link codes: 31^10 is about 2^50, and a
// guesser is slowed and stopped like one guessing room codes (the lobby's
// lookups) long before the code lapses.
const LinkCodeLength = 10

// Identify returns who the key key, connected as login, plays as: its
// profile's ID, name and chosen language ("" for none). A key seen for the first time gets no profile
// yet: it plays as itself (its ID is the one its profile will have),
// under login when that is a fit name no profile holds, or "player-" and
// four letters drawn from the key otherwise (the same at every
// connection), reserved by nobody. Its profile is made
// on its first need (Ensure): a seat, a chosen name, a link code. So a
// client connecting with one new key after another fills no store.
func (ps *Players) Identify(ctx context.Context, key, login string) (store.Profile, error) {
	prof, err := ps.cfg.Store.KeyProfile(ctx, key)
	if errors.Is(err, store.ErrNoProfile) {
		return store.Profile{ID: key, Name: ps.sessionName(ctx, key, login)}, nil
	}
	if err != nil {
		return store.Profile{}, ps.cfg.Unavailable("profile of "+key, err)
	}
	return prof, nil
}

// sessionName is the name a key without a profile is shown by: its login
// when that is a fit name no profile holds, else its keyName when no
// profile holds that, else a random one. A key that has not sat down yet
// is shown by the same name at each connection, and its profile, made on
// its first need, takes the name it was shown by.
func (ps *Players) sessionName(ctx context.Context, key, login string) string {
	for _, name := range []string{loginName(login), keyName(key)} {
		if name == "" {
			continue
		}
		if _, err := ps.cfg.Store.NamedProfile(ctx, name); errors.Is(err, store.ErrNoProfile) {
			return name
		}
	}
	return "player-" + randomHex(2)
}

// keyName is "player-" and four letters drawn from key: a hash, so keys
// that differ little get names that differ.
func keyName(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "player-" + hex.EncodeToString(sum[:2])
}

// Ensure returns the profile of key, making it when key has none: named
// name when that is fit and free, or a random name. quota is asked before
// a profile is made, and its refusal is Ensure's.
func (ps *Players) Ensure(ctx context.Context, key, name string, quota func() error) (store.Profile, error) {
	prof, err := ps.cfg.Store.KeyProfile(ctx, key)
	if errors.Is(err, store.ErrNoProfile) {
		if err := quota(); err != nil {
			return store.Profile{}, err
		}
		prof, err = ps.newProfile(ctx, key, name)
	}
	if err != nil {
		return store.Profile{}, ps.cfg.Unavailable("profile of "+key, err)
	}
	return prof, nil
}

// newProfile creates the profile of a key that has none, named name when
// that is fit and free.
func (ps *Players) newProfile(ctx context.Context, key, name string) (store.Profile, error) {
	prof := store.Profile{ID: key, Keys: []string{key}, Created: ps.cfg.Now().UTC()}
	names := []string{loginName(name)}
	for i := range 8 {
		// Eight tries at 65536 names, then longer ones.
		names = append(names, "player-"+randomHex(2+i/4))
	}
	if names[0] != "" && ps.checkLookalikes(ctx, key, names[0]) != nil {
		names[0] = "" // a login that passes for another's name is not taken as one
	}
	for _, name := range names {
		if name == "" {
			continue
		}
		prof.Name = name
		err := ps.cfg.Store.CreateProfile(ctx, prof)
		switch {
		case err == nil:
			ps.cfg.Logger.Info("new player", "key", key, "name", name)
			return prof, nil
		case errors.Is(err, store.ErrExists):
			// Another session of the same key was quicker.
			return ps.cfg.Store.KeyProfile(ctx, key)
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

// Rename gives profile id the name, checked by CheckName.
func (ps *Players) Rename(ctx context.Context, id, name string) error {
	if err := ps.checkLookalikes(ctx, id, name); err != nil {
		return err
	}
	err := ps.cfg.Store.Rename(ctx, id, name)
	switch {
	case errors.Is(err, store.ErrNameTaken):
		return engine.Refuse(fmt.Sprintf("%q is taken: choose another name", name),
			engine.Say("lobby.nameTaken", engine.Str("Name", fmt.Sprintf("%q", name))))
	case errors.Is(err, store.ErrNoProfile):
		return errors.New("your profile is gone: reconnect")
	case err != nil:
		return ps.cfg.Unavailable("rename "+id, err)
	}
	ps.cfg.Logger.Info("renamed", "player", id, "name", name)
	return nil
}

// SetPlain keeps whether profile id's player chose the line mode.
func (ps *Players) SetPlain(ctx context.Context, id string, plain bool) error {
	err := ps.cfg.Store.SetPlain(ctx, id, plain)
	switch {
	case errors.Is(err, store.ErrNoProfile):
		return errors.New("your profile is gone: reconnect")
	case err != nil:
		return ps.cfg.Unavailable("line mode of "+id, err)
	}
	return nil
}

// SetLang keeps lang as profile id's language; "" forgets the choice.
func (ps *Players) SetLang(ctx context.Context, id, lang string) error {
	err := ps.cfg.Store.SetLang(ctx, id, lang)
	switch {
	case errors.Is(err, store.ErrNoProfile):
		return errors.New("your profile is gone: reconnect")
	case err != nil:
		return ps.cfg.Unavailable("language of "+id, err)
	}
	return nil
}

// KeepLinkCode keeps code, with which another key can join profile id,
// for LinkCodeLife, and says when it lapses.
func (ps *Players) KeepLinkCode(ctx context.Context, code, id string) (time.Time, error) {
	now := ps.cfg.Now()
	expires := now.Add(LinkCodeLife)
	if err := ps.cfg.Store.PutLinkCode(ctx, code, id, now, expires); err != nil {
		return time.Time{}, ps.cfg.Unavailable("keep a link code", err)
	}
	return expires, nil
}

// TakeLinkCode returns the profile a link code names and forgets the
// code: store.ErrNoLinkCode for a wrong, used or lapsed one.
func (ps *Players) TakeLinkCode(ctx context.Context, code string) (string, error) {
	id, err := ps.cfg.Store.TakeLinkCode(ctx, code, ps.cfg.Now())
	if err != nil && !errors.Is(err, store.ErrNoLinkCode) {
		return "", ps.cfg.Unavailable("take a link code", err)
	}
	return id, err
}

// Linked is what linking a key did.
type Linked struct {
	// Profile is the profile the key plays as now.
	Profile store.Profile
	// Left is the name of the profile the key played as before, when
	// that profile is gone with it (its finished games keep the name).
	Left string
}

// Link makes key, which plays as profile from, play as profile to. A key
// whose own profile still sits in unfinished games (unfinished names
// them, or "") keeps it: those seats would be nobody's.
func (ps *Players) Link(ctx context.Context, key, from, to string, unfinished func(ctx context.Context, id string) (string, error)) (Linked, error) {
	s := ps.cfg.Store
	if to == from {
		prof, err := s.Profile(ctx, to)
		if err != nil {
			return Linked{}, ps.cfg.Unavailable("read profile "+to, err)
		}
		return Linked{Profile: prof}, errors.New("this key plays as " + prof.Name + " already")
	}
	var left string
	if old, err := s.Profile(ctx, from); err == nil && len(old.Keys) == 1 {
		if open, err := unfinished(ctx, from); err != nil {
			return Linked{}, err
		} else if open != "" {
			return Linked{}, fmt.Errorf("this key's player %s still sits in unfinished games (%s): finish or end them first", old.Name, open)
		}
		left = old.Name
	}
	if err := s.LinkKey(ctx, key, to); err != nil {
		if errors.Is(err, store.ErrNoProfile) {
			return Linked{}, errors.New("the profile of that code is gone")
		}
		return Linked{}, ps.cfg.Unavailable("link key "+key, err)
	}
	prof, err := s.Profile(ctx, to)
	if err != nil {
		return Linked{}, ps.cfg.Unavailable("read profile "+to, err)
	}
	ps.cfg.Logger.Info("key linked", "key", key, "player", to, "left", from)
	return Linked{Profile: prof, Left: left}, nil
}

// Profile returns profile id, or the one holding name when name is not
// empty: store.ErrNoProfile if there is none.
func (ps *Players) Profile(ctx context.Context, id, name string) (store.Profile, error) {
	var prof store.Profile
	var err error
	if name != "" {
		prof, err = ps.cfg.Store.NamedProfile(ctx, name)
	} else {
		prof, err = ps.cfg.Store.Profile(ctx, id)
	}
	if err != nil && !errors.Is(err, store.ErrNoProfile) {
		return store.Profile{}, ps.cfg.Unavailable("read profile", err)
	}
	return prof, err
}
