package server

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"strings"
	"unicode"

	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/server/cmd"
)

// Permission extensions the auth callbacks record on the connection.
const (
	extFingerprint = "smokestack-key-fp"
	extGuest       = "smokestack-guest-id"
)

// publicKeyAuth accepts every key: a key is an identity, not a permission.
// It records the fingerprint of the key it accepted, which checkIdentity
// compares with the key the session ends up with.
func (s *Server) publicKeyAuth(ctx ssh.Context, key ssh.PublicKey) bool {
	if refused(ctx) {
		return false
	}
	perms := ctx.Permissions()
	if perms.Extensions == nil {
		perms.Extensions = map[string]string{}
	}
	perms.Extensions[extFingerprint] = gossh.FingerprintSHA256(key)
	return true
}

// guestAuth lets people without a key in as guests, with a fresh identity
// for this connection only.
func (s *Server) guestAuth(ctx ssh.Context, challenge gossh.KeyboardInteractiveChallenge) bool {
	if refused(ctx) {
		return false
	}
	// No questions: the instruction is shown and the client answers nothing.
	if _, err := challenge("smokestack", guestBanner, nil, nil); err != nil {
		return false
	}
	perms := ctx.Permissions()
	if perms.Extensions == nil {
		perms.Extensions = map[string]string{}
	}
	perms.Extensions[extGuest] = "guest:" + randomID()
	return true
}

// bannerWidth is the width the guests' note is wrapped to before login.
// The terminal's width is not known then (the client asks for its
// terminal after logging in), and a client prints the note as it comes,
// so a line wider than the terminal would break mid-word: lines this
// short fit a phone's terminal, and every one the game screens fit.
const bannerWidth = 48

// guestBanner is the guests' note as shown before login: wrapped at
// word boundaries to bannerWidth.
var guestBanner = ansi.Wordwrap(cmd.GuestNote, bannerWidth, "")

var errNotAuthenticated = errors.New("permission denied: the key used does not match the key that authenticated")

// identify works out who a session is from what authentication recorded.
// A session with a public key must carry the fingerprint that the
// public-key callback recorded for that same key: a client can offer one
// key and authenticate with another (CVE-2024-45337), and the seat must go
// to the key that actually signed.
func identify(ext map[string]string, key ssh.PublicKey, user string) (lobby.Player, error) {
	name := displayName(user)
	if key != nil {
		fp := gossh.FingerprintSHA256(key)
		if ext[extFingerprint] == "" || ext[extFingerprint] != fp {
			return lobby.Player{}, errNotAuthenticated
		}
		// The profile, found once the session is admitted, may bind
		// seats by another ID; until then the key is its own.
		return lobby.Player{ID: fp, Key: fp, Name: name}, nil
	}
	if id := ext[extGuest]; strings.HasPrefix(id, "guest:") && ext[extFingerprint] == "" {
		return lobby.Player{ID: id, Name: name, Guest: true}, nil
	}
	return lobby.Player{}, errNotAuthenticated
}

// displayName turns an SSH user name into a name fit for a game table:
// printable, at most 16 characters.
func displayName(user string) string {
	var b strings.Builder
	n := 0
	for _, r := range user {
		if n == 16 {
			break
		}
		if unicode.IsPrint(r) && !unicode.IsSpace(r) {
			b.WriteRune(r)
			n++
		}
	}
	if b.Len() == 0 {
		return "player"
	}
	return b.String()
}

func randomID() string {
	var b [10]byte
	_, _ = rand.Read(b[:])
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
}

type playerKey struct{}

func withPlayer(ctx ssh.Context, p lobby.Player) { ctx.SetValue(playerKey{}, p) }

// playerFrom returns the player checkIdentity found for the session.
func playerFrom(ctx context.Context) lobby.Player {
	p, _ := ctx.Value(playerKey{}).(lobby.Player)
	return p
}
