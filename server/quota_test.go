package server

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/lobby"
)

// Rooms cost the store a record for a day, so the quotas count them per
// address as well as per key, and a key refused a profile makes none.
// Before, every throw-away key had a quota of its own, and the new key
// refused a profile still made its room ("the room is made, but you
// could not sit down"): 890 unfinished private rooms in 30 s from one
// address.
func TestThrowawayKeysMakeNoRooms(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lim    lobby.Limits
		rooms  int
		reason string
		told   string
	}{
		{"a key refused a profile", lobby.Limits{RoomsPerHour: 20, OpenRooms: 10, ProfilesPerHour: 4}, 4,
			"profiles_per_hour", "4 new players came from your address in the last hour"},
		{"unfinished rooms per address", lobby.Limits{RoomsPerHour: 20, OpenRooms: 10, AddrOpenRooms: 5}, 5,
			"addr_open_rooms", "players from your address have 5 unfinished rooms, the most allowed"},
		{"rooms per hour per address", lobby.Limits{RoomsPerHour: 20, OpenRooms: 10, AddrRoomsPerHour: 6}, 6,
			"addr_rooms_per_hour", "players from your address created 6 rooms in the last hour, the most allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := startServerLimited(t, tc.lim, withLimits(guardLimits))
			var told []string
			for range 10 {
				c := dialKey(t, srv.addr, "mallory", newKey(t)) // a new key each time
				if r := run(t, c, "new --players 2", ""); r.status != 0 {
					told = append(told, r.stderr)
				}
				c.Close()
			}
			metas, err := srv.store.List(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if len(metas) != tc.rooms {
				t.Errorf("10 new keys from one address made %d rooms, want %d", len(metas), tc.rooms)
			}
			if len(told) != 10-tc.rooms || !strings.Contains(strings.Join(told, ""), tc.told) {
				t.Errorf("the keys past the quota were told %q, want %d told %q", told, 10-tc.rooms, tc.told)
			}
			if n := srv.refusals(tc.reason); n != 10-tc.rooms {
				t.Errorf("%d %s refusals counted, want %d", n, tc.reason, 10-tc.rooms)
			}
			// A player from elsewhere makes rooms as before.
			elsewhere, _, err := dialFrom(srv.addr, 0, newKey(t))
			if err != nil {
				t.Fatal(err)
			}
			defer elsewhere.Close()
			if r := run(t, elsewhere, "new --players 2", ""); r.status != 0 {
				t.Errorf("a new player from another address: %+v", r)
			}
		})
	}
}

// A name wholly in one alphabet that reads as a name a profile holds in
// another is refused, both ways, and so is one that mixes alphabets.
// Before, Cyrillic "асе" sat beside Latin "ace", and "аdmin" (a Cyrillic
// а) beside the reserved "admin".
func TestLookalikeNamesAreRefused(t *testing.T) {
	srv := startServer(t, withLimits(guardLimits))
	name := func(want int, n string) string {
		t.Helper()
		r := run(t, dialKey(t, srv.addr, "player", newKey(t)), "name "+n, "")
		if r.status != want {
			t.Errorf("name %s: %+v, want status %d", n, r, want)
		}
		return r.stderr
	}
	name(0, "ace")
	if said := name(1, "асе"); !strings.Contains(said, `passes for "ace", a name taken`) { // Cyrillic
		t.Errorf("Cyrillic асе beside ace was told %q", said)
	}
	name(0, "мох") // Cyrillic, first
	if said := name(1, "MOX"); !strings.Contains(said, `passes for "мох"`) {
		t.Errorf("Latin MOX beside Cyrillic мох was told %q", said)
	}
	if said := name(1, "аdmin"); !strings.Contains(said, "mixes Cyrillic and Latin letters") {
		t.Errorf("аdmin with a Cyrillic а was told %q", said)
	}
	if said := name(1, "аԁміп"); !strings.Contains(said, `passes for "admin"`) { // all Cyrillic, and reserved in Latin
		t.Errorf("Cyrillic аԁміп was told %q", said)
	}
	name(0, "Дмитрий") // a Cyrillic name that passes for none
}
