package lobby

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// identity is who plays: a connection's player from its key, the
// profile made on its first need (new ones limited per address), its
// name, language and linked keys, and what its profile shows. It is made
// with what it needs and nothing of the Lobby.
type identity struct {
	players     *players.Players
	now         func() time.Time
	limits      Limits
	observer    Observer
	unavailable func(what string, err error, attrs ...any) error
	// counts counts new profiles per address, as failed lookups are.
	counts store.Misses
	// A wrong link code counts as a failed room lookup (lookups.go).
	lookupBarred    func(ctx context.Context, p Player) *LimitError
	countLookupMiss func(ctx context.Context, p Player, barred *LimitError) error
	// history lists the rooms where a player holds a seat (listing).
	history      func(ctx context.Context, player string) ([]RoomInfo, error)
	offeredGames []string
}

// Identify completes a player who just connected: a guest gets a guest's
// name; a key gets the profile it plays as, which binds seats, and its
// name, or, seen for the first time, plays as itself until its profile is
// made on its first need (players.Identify, ensureProfile).
func (who *identity) Identify(ctx context.Context, p Player) (Player, error) {
	if p.Guest {
		p.Name = players.GuestName(p.ID)
		return p, nil
	}
	if p.Key == "" {
		p.Name = chat.CleanText(p.Name) // the SSH login, as the client sent it
		return p, nil
	}
	prof, err := who.players.Identify(ctx, p.Key, p.Name)
	if err != nil {
		return Player{}, err
	}
	p.ID, p.Name, p.Lang, p.Plain = prof.ID, prof.Name, prof.Lang, prof.Plain
	return p, nil
}

// ensureProfile returns p as its profile has it, making the profile of a
// key that has none (Identify), named name, or p.Name when name is empty,
// or a random name when that is taken. New profiles from one address are
// limited (Limits.ProfilesPerHour). A guest has nothing to make.
func (who *identity) ensureProfile(ctx context.Context, p Player, name string) (Player, error) {
	if p.Guest || p.Key == "" {
		return p, nil
	}
	prof, err := who.players.Ensure(ctx, p.Key, cmp.Or(name, p.Name), func() error { return who.checkProfileQuota(ctx, p) })
	if err != nil {
		return Player{}, err
	}
	p.ID, p.Name = prof.ID, prof.Name
	return p, nil
}

// checkProfileQuota counts a new profile made from p's address and
// refuses it past Limits.ProfilesPerHour. With the server's per-address
// limits off there is no address, and no quota.
func (who *identity) checkProfileQuota(ctx context.Context, p Player) error {
	lim := who.limits.ProfilesPerHour
	if lim <= 0 || p.Addr == "" {
		return nil
	}
	n, _, err := who.counts.Miss(ctx, "profiles:"+p.Addr, who.now(), time.Hour)
	if err != nil {
		return who.unavailable("count new players", err)
	}
	if n <= lim {
		return nil
	}
	refusal := &LimitError{Reason: "profiles_per_hour",
		Msg: fmt.Sprintf("%d new players came from your address in the last hour, the most allowed: try again room.Later, or with a key that has played here", lim)}
	who.observer.Refused(refusal.Reason, p)
	return refusal
}

// errGuestProfile refuses what only players with a key can have.
var errGuestProfile = room.Refuse("guests have no profile: connect with an SSH key to keep a name, records and ratings", "lobby.guestProfile")

// Rename gives p's profile the name, for every room they sit down or come
// back to from now on, and returns the name as kept.
func (who *identity) Rename(ctx context.Context, p Player, name string) (string, error) {
	if p.Guest {
		return "", errGuestProfile
	}
	name, err := players.CheckName(name)
	if err != nil {
		return "", err
	}
	// A key without a profile gets one now, with the name if it is free.
	if p, err = who.ensureProfile(ctx, p, name); err != nil {
		return "", err
	}
	if p.Name == name {
		return name, nil
	}
	if err := who.players.Rename(ctx, p.ID, name); err != nil {
		return "", err
	}
	return name, nil
}

// SetLang keeps lang (a language tag the caller checked; "" forgets the
// choice) as p's language, which beats their client's environment from
// their next connection on, and returns p with it. A key without a
// profile gets one now; a guest has none to keep it in.
func (who *identity) SetLang(ctx context.Context, p Player, lang string) (Player, error) {
	if p.Guest {
		return p, errGuestProfile
	}
	p, err := who.ensureProfile(ctx, p, "")
	if err != nil {
		return p, err
	}
	if err := who.players.SetLang(ctx, p.ID, lang); err != nil {
		return p, err
	}
	p.Lang = lang
	return p, nil
}

// SetPlain keeps whether p chose the line mode (session/line) for every
// terminal session from their next on, and returns p with it. A key
// without a profile gets one now; a guest has none to keep it in.
func (who *identity) SetPlain(ctx context.Context, p Player, plain bool) (Player, error) {
	if p.Guest {
		return p, errGuestProfile
	}
	p, err := who.ensureProfile(ctx, p, "")
	if err != nil {
		return p, err
	}
	if err := who.players.SetPlain(ctx, p.ID, plain); err != nil {
		return p, err
	}
	p.Plain = plain
	return p, nil
}

// LinkCode makes a one-time code with which another key can join p's
// profile (Link), and says when it lapses.
func (who *identity) LinkCode(ctx context.Context, p Player) (code string, expires time.Time, err error) {
	if p.Guest {
		return "", time.Time{}, errGuestProfile
	}
	// Another key joins a profile: this key's, made now if it has none.
	if p, err = who.ensureProfile(ctx, p, ""); err != nil {
		return "", time.Time{}, err
	}
	code = room.RandomLetters(players.LinkCodeLength)
	if expires, err = who.players.KeepLinkCode(ctx, code, p.ID); err != nil {
		return "", time.Time{}, err
	}
	return code, expires, nil
}

// Link makes p's key play as the profile a code from LinkCode names. A
// wrong, used or lapsed code counts as a failed lookup, like a wrong
// room code. A key whose own profile still sits in unfinished games
// keeps it: those seats would be nobody's.
func (who *identity) Link(ctx context.Context, p Player, code string) (players.Linked, error) {
	if p.Guest || p.Key == "" {
		return players.Linked{}, errGuestProfile
	}
	code = NormalizeCode(code)
	if len(code) != players.LinkCodeLength {
		return players.Linked{}, room.Refuse(fmt.Sprintf("a link code has %d letters and digits: run `link` on a key of the profile to get one", players.LinkCodeLength),
			"lobby.linkLength", engine.Num("Length", players.LinkCodeLength))
	}
	barred := who.lookupBarred(ctx, p)
	if barred != nil {
		return players.Linked{}, who.countLookupMiss(ctx, p, barred)
	}
	id, err := who.players.TakeLinkCode(ctx, code)
	if errors.Is(err, store.ErrNoLinkCode) {
		if err := who.countLookupMiss(ctx, p, nil); err != nil {
			return players.Linked{}, err
		}
		return players.Linked{}, room.Refuse("no such link code: codes last 10 minutes and work once; run `link` on the other key for a new one", "lobby.noLinkCode")
	}
	if err != nil {
		return players.Linked{}, err
	}
	return who.players.Link(ctx, p.Key, p.ID, id, who.unfinished)
}

// unfinished names the unfinished rooms where player holds a seat, or "".
func (who *identity) unfinished(ctx context.Context, player string) (string, error) {
	rooms, err := who.history(ctx, player)
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
