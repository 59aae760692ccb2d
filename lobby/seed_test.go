package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// TestSeedSecretUntilOver: a room's seed, which decides every card and
// roll, is in no room info, list or update while its game runs, and is
// published with the room once the game is over: played to its end, or
// ended by its host.
func TestSeedSecretUntilOver(t *testing.T) {
	ctx := context.Background()
	st := mem.New()
	l := newLobby(t, st)
	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	played, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	ended, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	if played.Practice || ended.Practice {
		t.Fatal("a room made without a seed is marked practice")
	}
	conns := map[string]map[int]*Conn{}
	for _, code := range []string{played.Code, ended.Code} {
		conns[code] = map[int]*Conn{}
		for _, p := range []Player{alice, bob} {
			c, err := l.Join(ctx, code, p)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(c.Close)
			conns[code][c.Seat()] = c
		}
	}
	w, err := l.Watch(ctx, played.Code, Player{ID: "key:carol"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// A few moves in, the game is live.
	for range 3 {
		for seat, c := range conns[played.Code] {
			if v := view(t, latest(t, c)); len(v.Legal) > 0 {
				raw, _ := json.Marshal(v.Legal[0])
				if err := c.Move(ctx, raw); err != nil {
					t.Fatalf("seat %d: %v", seat, err)
				}
			}
		}
	}
	for _, c := range []*Conn{conns[played.Code][0], conns[played.Code][1], w} {
		u := latest(t, c)
		checkSeedHidden(t, fmt.Sprintf("seat %d's update", c.Seat()), u.Room)
		if raw, _ := json.Marshal(u); strings.Contains(string(raw), strconv.FormatUint(played.Seed, 10)) {
			t.Errorf("seat %d's update holds the seed %d: %s", c.Seat(), played.Seed, raw)
		}
	}
	checkListsHideSeeds(t, l, alice, bob)
	if _, _, err := l.Replay(ctx, played.Code, Player{ID: "key:carol"}); err == nil {
		t.Fatal("a replay of a game still running")
	}

	// Over: played out, or ended by the host. Both publish the seed.
	playOut(t, conns[played.Code])
	if err := l.End(ctx, ended.Code, alice); err != nil {
		t.Fatal(err)
	}
	for _, m := range []store.Meta{played, ended} {
		info, err := l.Info(ctx, m.Code, Player{ID: "key:carol"})
		if err != nil {
			t.Fatal(err)
		}
		if !info.Over || info.Seed == nil || *info.Seed != m.Seed {
			t.Errorf("room %s over: %v, seed %v; want %d published", m.Code, info.Over, info.Seed, m.Seed)
		}
	}
	info, _, err := l.Replay(ctx, played.Code, Player{ID: "key:carol"})
	if err != nil || info.Seed == nil || *info.Seed != played.Seed {
		t.Fatalf("the replay of the finished game shows seed %v (%v); want %d", info.Seed, err, played.Seed)
	}
}

// checkSeedHidden checks that info, shown by what, holds no seed while
// its game runs.
func checkSeedHidden(t *testing.T, what string, info RoomInfo) {
	t.Helper()
	if info.Seed != nil || info.Practice {
		t.Errorf("%s shows room %s with seed %v, practice %v while its game runs", what, info.Code, info.Seed, info.Practice)
	}
	data, _ := json.Marshal(info)
	if strings.Contains(string(data), `"seed"`) {
		t.Errorf("%s: %s", what, data)
	}
}

// checkListsHideSeeds checks that the room lists of l show no running
// game's seed: the public list, alice's history and bob's games.
func checkListsHideSeeds(t *testing.T, l *Lobby, alice, bob Player) {
	t.Helper()
	ctx := context.Background()
	lists := map[string]func() ([]RoomInfo, error){
		"the public list": func() ([]RoomInfo, error) { return l.Rooms(ctx) },
		"alice's history": func() ([]RoomInfo, error) { return l.History(ctx, alice.ID) },
		"bob's games":     func() ([]RoomInfo, error) { return l.Mine(ctx, bob) },
	}
	for what, list := range lists {
		rooms, err := list()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for _, info := range rooms {
			checkSeedHidden(t, what, info)
		}
	}
}

// TestSeedsAreUnguessable: the seeds the server draws are 64 random bits:
// across 64 rooms every bit is both set and clear somewhere, which a seed
// from the clock, a counter or a 32-bit source fails (the chance that a
// fair draw fails is about 2^-57).
func TestSeedsAreUnguessable(t *testing.T) {
	ctx := context.Background()
	st := mem.New()
	l := newLobby(t, st)
	var ones, zeros uint64
	seen := map[uint64]bool{}
	for i := range 64 {
		m, err := l.Create(ctx, Player{ID: fmt.Sprintf("key:%d", i)}, CreateOptions{Seats: 2})
		if err != nil {
			t.Fatal(err)
		}
		stored, _, err := st.Load(ctx, m.Code, 0)
		if err != nil {
			t.Fatal(err)
		}
		if seen[stored.Seed] {
			t.Fatalf("seed %d drawn twice", stored.Seed)
		}
		seen[stored.Seed] = true
		ones, zeros = ones|stored.Seed, zeros|^stored.Seed
	}
	if ones != ^uint64(0) || zeros != ^uint64(0) {
		t.Fatalf("over 64 rooms the seeds' bits set %064b, clear %064b: some bit never changes", ones, zeros)
	}
}

// TestPracticeRoomCountsNowhere: a room made with a chosen seed is a
// practice room; it shows its seed from the start and, played to its
// end, moves no rating and adds to no record or profile, where the same
// game without a chosen seed does.
func TestPracticeRoomCountsNowhere(t *testing.T) {
	ctx := context.Background()
	st := mem.New()
	l := New(Config{Store: st, Games: []Game{soloTally()}})
	a, b := connect(t, l, "SHA256:a", "alice"), connect(t, l, "SHA256:b", "bob")

	practice, conns := playTable(t, l, CreateOptions{Seats: 2, Seed: 77, HasSeed: true}, a, b)
	solo, soloConns := playTable(t, l, CreateOptions{Seats: 1, Seed: 78, HasSeed: true}, a)
	for _, c := range []*Conn{conns[0], soloConns[0]} {
		u := until(t, c, func(u Update) bool { return u.Room.Over })
		if !u.Room.Practice || u.Room.Seed == nil || u.Room.Recording || len(u.Room.Ratings) != 0 || u.Room.Solo != nil {
			t.Fatalf("a finished practice room shows %+v", u.Room)
		}
	}
	for _, m := range []store.Meta{practice, solo} {
		if !m.Practice {
			t.Fatalf("room %s made with --seed is not practice", m.Code)
		}
		stored, _, err := st.Load(ctx, m.Code, 0)
		if err != nil {
			t.Fatal(err)
		}
		if o, err := l.recordRoom(ctx, stored); o != nil || err != nil {
			t.Fatalf("practice room %s recorded: %+v, %v", m.Code, o, err)
		}
		if o, err := st.Outcome(ctx, m.Code); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("practice room %s has an outcome: %+v, %v", m.Code, o, err)
		}
	}
	if recs, err := st.SoloRecords(ctx, a.ID); err != nil || len(recs) != 0 {
		t.Fatalf("solo records after a practice game: %+v, %v", recs, err)
	}
	if board, _ := st.Leaderboard(ctx, "tally", 10); len(board) != 0 {
		t.Fatalf("ratings after a practice game: %+v", board)
	}

	// The same table without a chosen seed counts.
	_, conns = playTable(t, l, CreateOptions{Seats: 2}, a, b)
	until(t, conns[0], func(u Update) bool { return len(u.Room.Ratings) == 2 })
	prof, err := l.PlayerProfile(ctx, a, "")
	if err != nil {
		t.Fatal(err)
	}
	if prof.Games != 1 || len(prof.Recent) != 1 || len(prof.ByGame) != 1 || prof.ByGame[0].Rating.Games != 1 {
		t.Fatalf("alice's profile after a practice game, a solo practice game and a rated game: %+v", prof)
	}
}

// TestOldRoomsAreNotPractice: a room stored before practice rooms existed
// has no mark, and its finished game counts as it did.
func TestOldRoomsAreNotPractice(t *testing.T) {
	var m store.Meta
	stored := `{"code":"K7PXMA","game":"factories","public":true,"host":"key:a","seats":[{"player":"key:a"},{"player":"key:b"}],` +
		`"seed":42,"started":true,"over":true,"result":{"scores":[31,28],"ranks":[1,2],"winners":[0]},"version":3}`
	if err := json.Unmarshal([]byte(stored), &m); err != nil {
		t.Fatal(err)
	}
	if m.Practice || !players.Counts(m) {
		t.Fatalf("an old finished room reads as practice %v, counts %v", m.Practice, players.Counts(m))
	}
}
