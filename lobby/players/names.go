package players

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/rivo/uniseg"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
	"golang.org/x/text/unicode/norm"
)

// Names are what the table shows of a person. A player's name is kept
// with their profile (identity.go), unique among profiles however it is
// cased or written (full-width letters, composed or not), so that one
// player cannot take another's name; guests are "guest-" and four letters
// of their connection's identity. Seats take the name their player has
// when they sit down or come back, with a suffix when another seat of the
// room already shows it (the lobby's seat names).

// Name lengths, in characters.
const (
	MinNameLength = 2
	MaxNameLength = 16
)

// genericNames are SSH logins that say nothing of a person ("root",
// "ubuntu"): not taken as anyone's name, so a server's guests and
// newcomers are not all "root", and nobody passes for the operator.
var genericNames = []string{
	"admin", "administrator", "android", "centos", "debian", "default", "docker", "ec2-user", "fedora",
	"git", "guest", "mod", "moderator", "nobody", "operator", "pi", "player", "root", "server", "smokestack",
	"ssh", "sysadmin", "system", "test", "ubuntu", "user", "vagrant", "www-data",
}

// guestPrefix starts every guest's name, and no player's.
const guestPrefix = "guest-"

// CheckName checks a name a player chose and returns it as it is kept:
// trimmed of surrounding spaces and in composed form. A refusal says
// what is wrong, for the player.
func CheckName(name string) (string, error) {
	name = norm.NFC.String(strings.TrimSpace(name))
	if n := len([]rune(name)); n < MinNameLength || n > MaxNameLength {
		return "", engine.Refuse(fmt.Sprintf("a name has %d to %d characters", MinNameLength, MaxNameLength),
			engine.Say("lobby.nameLength", engine.Num("Min", MinNameLength), engine.Num("Max", MaxNameLength)))
	}
	rs := []rune(name)
	letters := 0
	var scripts []string // of those whose letters pass for one another's
	for _, r := range rs {
		switch {
		case (unicode.IsLetter(r) || unicode.IsDigit(r)) && norm.NFKC.String(string(r)) != string(r):
			// Full-width letters, ligatures such as U+FDFA (drawn as
			// wide as a dozen letters), superscripts: forms of other
			// characters, drawn unlike them.
			return "", engine.Refuse(fmt.Sprintf("%q is another character's compatibility form: write %q", r, norm.NFKC.String(string(r))),
				engine.Say("lobby.nameCompat", engine.Str("Char", fmt.Sprintf("%q", r)), engine.Str("Plain", fmt.Sprintf("%q", norm.NFKC.String(string(r))))))
		case r == '\x1b' || unicode.IsControl(r):
			return "", engine.Refuse("a name cannot hold control characters or escape sequences", engine.Say("lobby.nameControl"))
		case unicode.Is(unicode.Bidi_Control, r) || unicode.In(r, unicode.Cf, unicode.Zs, unicode.Zl, unicode.Zp) && r != ' ':
			return "", engine.Refuse(fmt.Sprintf("a name cannot hold invisible or direction-changing characters (U+%04X)", r),
				engine.Say("lobby.nameInvisible", engine.Str("Char", fmt.Sprintf("U+%04X", r))))
		case unicode.IsLetter(r):
			letters++
			if sc := lookalikeScript(r); sc != "" && !slices.Contains(scripts, sc) {
				scripts = append(scripts, sc)
			}
		case unicode.IsDigit(r) || strings.ContainsRune(" -_.'", r):
		default:
			return "", engine.Refuse(fmt.Sprintf("%q cannot be in a name: use letters, digits, spaces and - _ . '", r),
				engine.Say("lobby.nameChar", engine.Str("Char", fmt.Sprintf("%q", r))))
		}
	}
	switch {
	case len(scripts) > 1:
		// "аdmin" with a Cyrillic "а" passes for "admin".
		return "", engine.Refuse(fmt.Sprintf("a name mixes %s letters, which pass for one another: write it in one alphabet", strings.Join(scripts, " and ")),
			engine.Say("lobby.nameScripts"))
	case uniseg.StringWidth(name) > MaxNameLength:
		return "", engine.Refuse(fmt.Sprintf("a name is at most %d columns wide on a terminal, and wide letters take two: this one takes %d", MaxNameLength, uniseg.StringWidth(name)),
			engine.Say("lobby.nameWidth", engine.Num("Max", MaxNameLength), engine.Num("Width", uniseg.StringWidth(name))))
	case letters == 0:
		return "", engine.Refuse("a name needs at least one letter", engine.Say("lobby.nameLetter"))
	case !isWordRune(rs[0]) || !isWordRune(rs[len(rs)-1]):
		return "", engine.Refuse("a name starts and ends with a letter or a digit", engine.Say("lobby.nameEnds"))
	case strings.Contains(name, "  "):
		return "", engine.Refuse("a name has single spaces between its words", engine.Say("lobby.nameSpaces"))
	case strings.HasPrefix(store.NameKey(name), guestPrefix):
		return "", engine.Refuse(fmt.Sprintf("names starting with %q are for guests", guestPrefix),
			engine.Say("lobby.nameGuest", engine.Str("Prefix", fmt.Sprintf("%q", guestPrefix))))
	case slices.Contains(genericNames, store.NameKey(name)):
		return "", engine.Refuse(fmt.Sprintf("%q is reserved: choose another name", name),
			engine.Say("lobby.nameReserved", engine.Str("Name", fmt.Sprintf("%q", name))))
	}
	return name, nil
}

// lookalikeScript is the script of r among those whose letters pass for
// one another's (Latin "a", Cyrillic "а", Greek "α"), or "".
func lookalikeScript(r rune) string {
	for _, sc := range lookalikeScripts {
		if unicode.Is(sc.table, r) {
			return sc.name
		}
	}
	return ""
}

var lookalikeScripts = []struct {
	name  string
	table *unicode.RangeTable
}{{"Latin", unicode.Latin}, {"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek}, {"Armenian", unicode.Armenian}, {"Cherokee", unicode.Cherokee}}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// SameName reports whether two names count as the same name.
func SameName(a, b string) bool { return store.NameKey(a) == store.NameKey(b) }

// loginName is the name a new key's player starts with: the SSH login
// they connected as, when it is a fit name and not a generic one; ""
// otherwise.
func loginName(login string) string {
	name, err := CheckName(login)
	if err != nil {
		return ""
	}
	return name
}

// GuestName is the name of the guest whose identity is id ("guest:k7qz…"):
// "guest-k7qz".
func GuestName(id string) string {
	tail := strings.TrimPrefix(id, "guest:")
	if len(tail) > 4 {
		tail = tail[:4]
	}
	if tail == "" {
		tail = "anon"
	}
	return guestPrefix + tail
}

// IsGuest reports whether id is a guest's: guests play, but have no
// profile and are never rated.
func IsGuest(id string) bool { return strings.HasPrefix(id, "guest:") }
