package players

import (
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	good := map[string]string{
		"alice":           "alice",
		"  Bob Smith  ":   "Bob Smith",
		"o'brien-2":       "o'brien-2",
		"Zoë":             "Zoë",
		"Zoe\u0308":       "Zoë", // composed as it is kept
		"李雷":              "李雷",
		"x1":              "x1",
		"Дмитрий":         "Дмитрий", // one alphabet
		"Σωκράτης":        "Σωκράτης",
		"李雷韓梅梅李雷":         "李雷韓梅梅李雷", // 14 columns
		"sixteen-letters": "sixteen-letters",
	}
	for in, want := range good {
		if got, err := CheckName(in); err != nil || got != want {
			t.Errorf("CheckName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := map[string]string{
		"a":                             "2 to 16 characters",
		"seventeen-letters":             "2 to 16 characters",
		"ali\x1b[31mce":                 "control characters or escape sequences",
		"bob\x07":                       "control characters",
		"ali\u202ece":                   "direction-changing characters (U+202E)",
		"ali\u200bce":                   "invisible",
		"ali\u00a0ce":                   "invisible",
		"ali\u2028ce":                   "invisible",
		"ali😀ce":                        "cannot be in a name",
		"a\u0336l\u0336i\u0336c\u0336e": "cannot be in a name", // a combining strike-through
		"1234":                          "at least one letter",
		"-alice":                        "starts and ends with a letter or a digit",
		"alice.":                        "starts and ends",
		"al  ice":                       "single spaces",
		"guest-k7qz":                    "for guests",
		"GUEST-abc":                     "for guests",
		"root":                          "reserved",
		"Admin":                         "reserved",
		"ａｄｍｉｎ":                         "compatibility form: write \"a\"", // full-width letters
		"\ufdfa\ufdfa":                  "compatibility form",              // a ligature as wide as a dozen letters
		"ﬁsh":                           "compatibility form",
		"\u0430dmin":                    "mixes Cyrillic and Latin letters", // a Cyrillic а
		"p\u0430ypal":                   "mixes Latin and Cyrillic",
		"\u03bfscar":                    "mixes Greek and Latin",
		"李雷韓梅梅李雷韓梅梅":                    "at most 16 columns wide",
	}
	for in, want := range bad {
		if got, err := CheckName(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckName(%q) = %q, %v; want a refusal saying %q", in, got, err, want)
		}
	}
}

func TestSameName(t *testing.T) {
	for _, pair := range [][2]string{{"Alice", "alice"}, {"ａｌｉｃｅ", "alice"}, {"ZOË", "zoe\u0308"}} {
		if !SameName(pair[0], pair[1]) {
			t.Errorf("%q and %q count as different names", pair[0], pair[1])
		}
	}
	if SameName("alice", "alicia") {
		t.Error("alice and alicia count as the same name")
	}
}

func TestLoginAndGuestNames(t *testing.T) {
	for login, want := range map[string]string{"alice": "alice", "root": "", "ubuntu": "", "x": "", "bob\x1b[2J": ""} {
		if got := loginName(login); got != want {
			t.Errorf("loginName(%q) = %q, want %q", login, got, want)
		}
	}
	if got := GuestName("guest:k7qzabcdef"); got != "guest-k7qz" {
		t.Errorf("GuestName = %q, want guest-k7qz", got)
	}
}

func TestLookalikes(t *testing.T) {
	for name, want := range map[string][]string{
		"асе":   {"ace"}, // Cyrillic а, с, е
		"ace":   {"асе"}, // Greek has no c
		"BOB":   {"вов", "βοβ"},
		"мох 2": {"mox 2"},
		"alice": {"аӏісе"},
		"zoë":   nil, // ë has no look-alike
		"李雷":    nil,
	} {
		got := lookalikes(name)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("lookalikes(%q) = %q, want %q", name, got, want)
		}
	}
}
