package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/text/unicode/norm"
)

// Profile is a player as the server remembers them: a name and the SSH
// keys that play as them. Seats are bound to the profile, so every key
// linked to it reaches the same seats.
type Profile struct {
	// ID binds seats: the fingerprint of the profile's first key, so a
	// key's seats from before profiles existed are its profile's.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Keys are the fingerprints of the keys that play as this profile,
	// the first key first.
	Keys    []string  `json:"keys"`
	Created time.Time `json:"created"`
	// Lang is the language the player chose to read the game in ("pl"),
	// which beats the one their client's environment asks for; "" when
	// they chose none.
	Lang string `json:"lang,omitempty"`
	// Plain is set when the player chose the line mode (session/line)
	// for every terminal session of theirs: a screen reader's user.
	Plain bool `json:"plain,omitempty"`
}

// Profile errors.
var (
	ErrNoProfile  = errors.New("no such player")
	ErrNameTaken  = errors.New("that name is taken")
	ErrNoLinkCode = errors.New("no such link code")
)

// Profiles keeps profiles, the keys linked to them, their names
// (unique, as NameKey folds them) and one-time link codes. Every driver
// implements it; with Redis every instance sees the same profiles.
type Profiles interface {
	// KeyProfile returns the profile key plays as; ErrNoProfile if none.
	KeyProfile(ctx context.Context, key string) (Profile, error)
	// Profile returns the profile with ID id; ErrNoProfile if none.
	Profile(ctx context.Context, id string) (Profile, error)
	// NamedProfile returns the profile holding name; ErrNoProfile if none.
	NamedProfile(ctx context.Context, name string) (Profile, error)
	// CreateProfile stores p for its only key, p.Keys[0]: ErrExists if
	// that key plays as a profile already, ErrNameTaken if another
	// profile holds p.Name.
	CreateProfile(ctx context.Context, p Profile) error
	// Rename gives profile id the name: ErrNameTaken if another profile
	// holds it, ErrNoProfile if there is no profile id.
	Rename(ctx context.Context, id, name string) error
	// SetLang keeps lang as profile id's language ("" forgets the
	// choice): ErrNoProfile if there is no profile id.
	SetLang(ctx context.Context, id, lang string) error
	// SetPlain keeps whether profile id's player chose the line mode:
	// ErrNoProfile if there is no profile id.
	SetPlain(ctx context.Context, id string, plain bool) error
	// PutLinkCode keeps code for profile id until expires; now is the
	// time, by which codes that lapsed may be forgotten.
	PutLinkCode(ctx context.Context, code, id string, now, expires time.Time) error
	// TakeLinkCode returns the profile of code and forgets the code, so
	// it is used once: ErrNoLinkCode if there is none, or it expired
	// before now.
	TakeLinkCode(ctx context.Context, code string, now time.Time) (string, error)
	// LinkKey makes key play as profile id from now on. The profile key
	// played as loses it, and is forgotten, name and all, once it has no
	// key left.
	LinkKey(ctx context.Context, key, id string) error
	// Profiles returns every profile, in no order (for the lobby's expiry of profiles).
	Profiles(ctx context.Context) ([]Profile, error)
	// DropProfile forgets profile id, its keys and its name; nothing if
	// there is no profile id.
	DropProfile(ctx context.Context, id string) error
}

// ProfileTx is the profiles as plain data, as a driver changes them in one
// locked step or transaction: CreateProfile, RenameProfile, LinkKey and
// DropProfile apply the rules every driver shares to it. Names are held
// by NameKey.
type ProfileTx interface {
	Get(id string) (Profile, bool)
	Put(p Profile)
	Drop(id string)
	KeyOf(key string) (string, bool)
	SetKey(key, id string)
	DropKey(key string)
	NameOf(nameKey string) (string, bool)
	SetName(nameKey, id string)
	DropName(nameKey string)
}

// NameKey is what makes two names the same: compatibility-folded
// ("ａｌｉｃｅ" is "alice") and lower-cased.
func NameKey(name string) string { return strings.ToLower(norm.NFKC.String(name)) }

// CreateProfile applies Profiles.CreateProfile to s.
func CreateProfile(s ProfileTx, p Profile) error {
	if _, ok := s.KeyOf(p.Keys[0]); ok {
		return ErrExists
	}
	if holder, ok := s.NameOf(NameKey(p.Name)); ok && holder != p.ID {
		return ErrNameTaken
	}
	s.Put(p)
	s.SetKey(p.Keys[0], p.ID)
	s.SetName(NameKey(p.Name), p.ID)
	return nil
}

// RenameProfile applies Profiles.Rename to s.
func RenameProfile(s ProfileTx, id, name string) error {
	p, ok := s.Get(id)
	if !ok {
		return ErrNoProfile
	}
	if holder, ok := s.NameOf(NameKey(name)); ok && holder != id {
		return ErrNameTaken
	}
	if old := NameKey(p.Name); old != NameKey(name) {
		s.DropName(old)
	}
	p.Name = name
	s.Put(p)
	s.SetName(NameKey(name), id)
	return nil
}

// SetProfileLang applies Profiles.SetLang to s.
func SetProfileLang(s ProfileTx, id, lang string) error {
	return changeProfile(s, id, func(p *Profile) { p.Lang = lang })
}

// SetProfilePlain applies Profiles.SetPlain to s.
func SetProfilePlain(s ProfileTx, id string, plain bool) error {
	return changeProfile(s, id, func(p *Profile) { p.Plain = plain })
}

// changeProfile changes profile id in s: ErrNoProfile if there is none.
func changeProfile(s ProfileTx, id string, change func(*Profile)) error {
	p, ok := s.Get(id)
	if !ok {
		return ErrNoProfile
	}
	change(&p)
	s.Put(p)
	return nil
}

// LinkKey applies Profiles.LinkKey to s.
func LinkKey(s ProfileTx, key, id string) error {
	to, ok := s.Get(id)
	if !ok {
		return ErrNoProfile
	}
	if fromID, ok := s.KeyOf(key); ok && fromID != id {
		if from, ok := s.Get(fromID); ok {
			from.Keys = slices.DeleteFunc(from.Keys, func(k string) bool { return k == key })
			if len(from.Keys) == 0 {
				s.Drop(fromID)
				s.DropName(NameKey(from.Name))
			} else {
				s.Put(from)
			}
		}
	}
	if !slices.Contains(to.Keys, key) {
		to.Keys = append(to.Keys, key)
		s.Put(to)
	}
	s.SetKey(key, id)
	return nil
}

// DropProfile forgets profile id, the keys that play as it and its name:
// Profiles.DropProfile applied to s.
func DropProfile(s ProfileTx, id string) {
	p, ok := s.Get(id)
	if !ok {
		return
	}
	for _, k := range p.Keys {
		if owner, ok := s.KeyOf(k); ok && owner == id {
			s.DropKey(k)
		}
	}
	if holder, ok := s.NameOf(NameKey(p.Name)); ok && holder == id {
		s.DropName(NameKey(p.Name))
	}
	s.Drop(id)
}

// DecodeProfile reads profile id from the JSON a driver stored it as.
func DecodeProfile(id string, data []byte) (Profile, error) {
	var p Profile
	if err := json.Unmarshal(data, &p); err != nil {
		return Profile{}, fmt.Errorf("profile %s: %w", id, err)
	}
	return p, nil
}
