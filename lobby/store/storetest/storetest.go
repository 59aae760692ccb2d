// Package storetest holds a store driver to the contract the lobby relies
// on, as testing/fstest holds a file system: each driver's own test calls
// Run with a way to open it.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// Run holds the stores open makes to the contract of every part: rooms,
// profiles, ratings, chat and bans, and, when the store has a Cluster, its
// counts of failed lookups (Misses). Each part's test opens a store of its
// own; several may share what lies behind them (one Redis), as every test
// uses codes, keys and names of its own.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	parts := []struct {
		name string
		run  func(t *testing.T, s store.Store)
	}{
		{"create and load", func(t *testing.T, s store.Store) { roomsCreate(t, s) }},
		{"append compare-and-set", func(t *testing.T, s store.Store) { roomsAppend(t, s) }},
		{"appends together", func(t *testing.T, s store.Store) { appendsTogether(t, s) }},
		{"save meta compare-and-set", func(t *testing.T, s store.Store) { roomsSaveMeta(t, s) }},
		{"moves since", func(t *testing.T, s store.Store) { roomsMovesSince(t, s) }},
		{"list", func(t *testing.T, s store.Store) { roomsList(t, s) }},
		{"delete", func(t *testing.T, s store.Store) { roomsDelete(t, s) }},
		{"lists follow a room", listsFollowRoom},
		{"list pages", listsPages},
		{"due rooms", listsDue},
		{"profiles", func(t *testing.T, s store.Store) { profiles(t, s) }},
		{"profile burst", func(t *testing.T, s store.Store) { profileBurst(t, s) }},
		{"drop profile", func(t *testing.T, s store.Store) { dropProfile(t, s) }},
		{"ratings", func(t *testing.T, s store.Store) { ratings(t, s) }},
		{"leaderboard", func(t *testing.T, s store.Store) { leaderboard(t, s) }},
		{"rating race", func(t *testing.T, s store.Store) { ratingRace(t, s) }},
		{"chat", func(t *testing.T, s store.Store) { chat(t, s) }},
		{"bans", func(t *testing.T, s store.Store) { bans(t, s) }},
		{"uptime", func(t *testing.T, s store.Store) { uptime(t, s) }},
		{"cluster", func(t *testing.T, s store.Store) {
			if c := s.Cluster(); c != nil {
				RunMisses(t, c)
			}
		}},
	}
	for _, p := range parts {
		t.Run(p.name, func(t *testing.T) { p.run(t, open(t)) })
	}
}

// RunMisses holds m's counts of failed lookups to the contract: counted
// per name in a window the first miss opens, and turns that follow each
// other. The lobby's own count of a single node runs it too.
func RunMisses(t *testing.T, m store.Misses) {
	t.Run("failed lookups", func(t *testing.T) { missWindows(t, m) })
	t.Run("failed lookups' turns", func(t *testing.T) { missTurns(t, m) })
}

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 890000000, time.UTC)

// newCode returns a code no other test uses, in the alphabet of room codes.
func newCode() string {
	const alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

func testMeta() store.Meta {
	return store.Meta{Code: newCode(), Game: "a-game", Public: true, Host: "key:h",
		Seats:   []store.Seat{{Player: "key:h", Name: "hana"}, {Bot: "greedy", Name: "greedy bot 2"}},
		Options: json.RawMessage(`{"difficulty":"hard"}`), Seed: 1<<63 + 12345, Practice: true,
		Created: t0, Updated: t0, Version: 1}
}

func rec(seat int, move string, at time.Time) store.Record {
	return store.Record{Seat: seat, Move: json.RawMessage(move), At: at}
}

func mustCreate(t *testing.T, s store.Rooms) store.Meta {
	t.Helper()
	m := testMeta()
	if err := s.Create(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	return m
}
