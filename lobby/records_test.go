package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/openskill"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// soloTally is tally with a solo opponent, as a game's registration names
// one (Fantastic Factories' The Machine).
func soloTally() Game {
	g := tallyGame()
	g.SoloOpponent = func(map[string]string) string { return "The Counter" }
	return g
}

// until waits for the connection's newest update to satisfy ok.
func until(t *testing.T, c *Conn, ok func(Update) bool) Update {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		u := latest(t, c)
		if ok(u) {
			return u
		}
		if time.Now().After(deadline) {
			t.Fatalf("no such update within 5s; the last: %+v", u.Room)
		}
		seen.Store(c, next(t, c))
	}
}

// recorded opens room code on l and waits until l has recorded it (or
// found it recorded).
func recorded(t *testing.T, l *Lobby, code string, p Player) RoomInfo {
	t.Helper()
	var info RoomInfo
	eventually(t, "room "+code+" recorded", func() bool {
		var err error
		if info, err = l.Info(context.Background(), code, p); err != nil {
			t.Fatal(err)
		}
		return !info.Recording
	})
	return info
}

// playTable seats players in a new public room of seats (bots in the
// rest) and plays it to the end; it returns the room and its seats'
// connections.
func playTable(t *testing.T, l *Lobby, o CreateOptions, players ...Player) (store.Meta, []*Conn) {
	t.Helper()
	ctx := context.Background()
	o.Public = true
	m, err := l.Create(ctx, players[0], o)
	if err != nil {
		t.Fatal(err)
	}
	conns := map[int]*Conn{}
	var list []*Conn
	for _, p := range players {
		c, err := l.Join(ctx, m.Code, p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		conns[c.Seat()], list = c, append(list, c)
	}
	if len(o.Bots) == 0 {
		playOut(t, conns)
		return m, list
	}
	// Bots move on their own: wait for them.
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		over, played := true, false
		for _, c := range list {
			v := view(t, latest(t, c))
			over = over && v.Over
			if len(v.Legal) > 0 {
				raw, _ := json.Marshal(v.Legal[0])
				if err := c.Move(ctx, raw); err != nil {
					t.Fatal(err)
				}
				played = true
			}
		}
		if over {
			return m, list
		}
		if !played { // a bot's turn, or news of the end still to come
			seen.Store(list[0], next(t, list[0]))
		}
	}
	t.Fatal("the game with bots did not end")
	return m, list
}

// TestRatedGame: a finished game between two people moves both ratings by
// the Plackett-Luce update from their places, once, and the room then
// shows everyone the change.
func TestRatedGame(t *testing.T) {
	ctx := context.Background()
	st := mem.New()
	l := newLobby(t, st)
	a, b := connect(t, l, "SHA256:a", "alice"), connect(t, l, "SHA256:b", "bob")
	m, conns := playTable(t, l, CreateOptions{Seats: 2}, a, b)
	u := until(t, conns[1], func(u Update) bool { return len(u.Room.Ratings) == 2 })
	res := u.Room.Result
	model := players.RatingModel()
	want := model.Rate([][]openskill.Rating{{model.New()}, {model.New()}}, res.Ranks)
	got, err := st.Ratings(ctx, "tally", []string{a.ID, b.ID})
	if err != nil {
		t.Fatal(err)
	}
	for seat, p := range []Player{a, b} {
		r, w := got[p.ID], want[seat][0]
		if r.Mu != w.Mu || r.Sigma != w.Sigma || r.Games != 1 {
			t.Errorf("seat %d (place %d): rating %+v, want %+v after one game", seat, res.Ranks[seat], r, w)
		}
		sr := u.Room.Ratings[seat]
		if sr.Name != p.Name || math.Abs(sr.Rating-r.Ordinal()) > 1e-9 || math.Abs(sr.Change-r.Ordinal()) > 1e-6 || sr.Games != 1 {
			t.Errorf("seat %d shows %+v; rating %v, a newcomer's ordinal is 0", seat, sr, r.Ordinal())
		}
	}
	if res.Ranks[0] != res.Ranks[1] && (got[a.ID].Mu > got[b.ID].Mu) != (res.Ranks[0] < res.Ranks[1]) {
		t.Errorf("places %v but ratings %v, %v", res.Ranks, got[a.ID].Mu, got[b.ID].Mu)
	}

	// Recorded once: again by this lobby, by another instance's lobby
	// opening the room, and by several at once.
	l2 := newLobby(t, st)
	if info := recorded(t, l2, m.Code, a); len(info.Ratings) != 2 || info.Ratings[0] != u.Room.Ratings[0] {
		t.Fatalf("the room on another instance shows %+v, want %+v", info.Ratings, u.Room.Ratings)
	}
	meta, _, err := st.Load(ctx, m.Code, 0)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if _, err := l2.recordRoom(ctx, meta); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if again, _ := st.Ratings(ctx, "tally", []string{a.ID, b.ID}); again[a.ID] != got[a.ID] || again[b.ID] != got[b.ID] {
		t.Fatalf("recording the room again changed the ratings: %+v, then %+v", got, again)
	}

	top, err := l.Top(ctx, "tally", b, 10)
	if err != nil || len(top) != 2 || top[0].Rating < top[1].Rating || top[0].Rank != 1 || top[1].Rank != 2 {
		t.Fatalf("top: %+v, %v", top, err)
	}
	for _, s := range top {
		if s.You != (s.Name == b.Name) || s.Games != 1 {
			t.Errorf("top line %+v as bob sees it", s)
		}
	}
}

// TestGamesNotRated: a game stopped by its host, a game of one person
// against bots and a game with a guest move no rating.
func TestGamesNotRated(t *testing.T) {
	ctx := context.Background()
	st := mem.New()
	l := New(Config{Store: st, Games: []Game{tallyGame()}, BotDelay: time.Millisecond})
	a, b := connect(t, l, "SHA256:a", "alice"), connect(t, l, "SHA256:b", "bob")
	guest, _ := l.Identify(ctx, Player{ID: "guest:zzzz", Guest: true})

	ended, err := l.Create(ctx, a, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Player{a, b} {
		c, err := l.Join(ctx, ended.Code, p)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	if err := l.End(ctx, ended.Code, a); err != nil {
		t.Fatal(err)
	}
	bots, conns := playTable(t, l, CreateOptions{Seats: 2, Bots: []string{"first"}}, a)
	withGuest, _ := playTable(t, l, CreateOptions{Seats: 2}, b, guest)
	until(t, conns[0], func(u Update) bool { return u.Room.Over })
	for _, code := range []string{ended.Code, bots.Code, withGuest.Code} {
		if info := recorded(t, l, code, a); len(info.Ratings) != 0 {
			t.Errorf("room %s shows ratings %+v", code, info.Ratings)
		}
		if o, err := st.Outcome(ctx, code); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("room %s was recorded: %+v, %v", code, o, err)
		}
	}
	if board, _ := st.Leaderboard(ctx, "tally", 10); len(board) != 0 {
		t.Fatalf("ratings after unrated games: %+v", board)
	}
}

// TestSoloRecord: a solo game is not rated; it counts in the player's
// record against the opponent the game's registration names.
func TestSoloRecord(t *testing.T) {
	ctx := context.Background()
	st := mem.New()
	l := New(Config{Store: st, Games: []Game{soloTally()}})
	a := connect(t, l, "SHA256:a", "alice")
	_, conns := playTable(t, l, CreateOptions{Seats: 1}, a)
	u := until(t, conns[0], func(u Update) bool { return u.Room.Solo != nil })
	want := store.SoloRecord{Game: "tally", Opponent: "The Counter", Wins: 1, Best: u.Room.Result.Scores[0]}
	if *u.Room.Solo != want || len(u.Room.Ratings) != 0 {
		t.Fatalf("after a solo game the room shows %+v and ratings %+v; want %+v", *u.Room.Solo, u.Room.Ratings, want)
	}
	playTable(t, l, CreateOptions{Seats: 1}, a)
	eventually(t, "two solo wins recorded", func() bool {
		recs, err := st.SoloRecords(ctx, a.ID)
		return err == nil && len(recs) == 1 && recs[0].Wins == 2
	})
	if board, _ := st.Leaderboard(ctx, "tally", 10); len(board) != 0 {
		t.Fatalf("a solo game was rated: %+v", board)
	}
}

// TestProfileAndMine: a profile counts finished games, wins, scores and
// the cards the player ended with; others see only public games in it.
// Mine lists the rooms waiting on the player's move.
func TestProfileAndMine(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	a, b := connect(t, l, "SHA256:a", "alice"), connect(t, l, "SHA256:b", "bob")
	pub, conns := playTable(t, l, CreateOptions{Seats: 2}, a, b)
	until(t, conns[0], func(u Update) bool { return len(u.Room.Ratings) == 2 })
	priv, err := l.Create(ctx, a, CreateOptions{Seats: 1})
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Join(ctx, priv.Code, a)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	playOut(t, map[int]*Conn{0: c})

	own, err := l.PlayerProfile(ctx, a, "")
	if err != nil {
		t.Fatal(err)
	}
	seen, err := l.PlayerProfile(ctx, b, "ALICE")
	if err != nil {
		t.Fatal(err)
	}
	var wins, tableScore int
	cards := map[string]int{}
	for _, code := range []string{pub.Code, priv.Code} {
		info, err := l.Info(ctx, code, a)
		if err != nil {
			t.Fatal(err)
		}
		seat := info.SeatOf(a.ID)
		if info.Result.Won(seat) {
			wins++
		}
		if code == pub.Code {
			tableScore = info.Result.Scores[seat] // a solo game has its own line, not the average
		}
		for _, card := range slices.Compact(slices.Sorted(slices.Values(info.Result.Holdings[seat]))) {
			cards[card]++
		}
	}
	if own.Name != "alice" || own.Games != 2 || own.Wins != wins || own.Keys != 1 || len(own.ByGame) != 1 {
		t.Fatalf("alice's own profile: %+v; want 2 games, %d wins", own, wins)
	}
	gs := own.ByGame[0]
	if gs.Games != 1 || gs.AverageScore != float64(tableScore) || gs.Rating == nil || gs.Rating.Games != 1 {
		t.Fatalf("alice's tally record: %+v", gs)
	}
	for i, f := range gs.Favourites {
		if cards[f.Card] != f.Games || i > 0 && f.Games > gs.Favourites[i-1].Games {
			t.Fatalf("favourites %+v; counted %v", gs.Favourites, cards)
		}
	}
	if len(own.Recent) != 2 || own.Recent[0].Code != priv.Code || len(seen.Recent) != 1 || seen.Recent[0].Code != pub.Code || seen.Keys != 0 {
		t.Fatalf("recent games: alice sees %+v, bob sees %+v (keys %d)", own.Recent, seen.Recent, seen.Keys)
	}
	if _, err := l.PlayerProfile(ctx, a, "nobody"); err == nil {
		t.Fatal("the profile of nobody")
	}

	// Mine: a room is listed for the seat that may move, not the other.
	m, err := l.Create(ctx, a, CreateOptions{Seats: 2, Public: true, Seed: 1, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := l.Join(ctx, m.Code, a)
	defer ca.Close()
	cb, _ := l.Join(ctx, m.Code, b)
	defer cb.Close()
	u := until(t, ca, func(u Update) bool { return u.Room.Started })
	turn := view(t, u).Turn
	mover, waiter := a, b
	if turn == 1 {
		mover, waiter = b, a
	}
	if mine, err := l.Mine(ctx, mover); err != nil || len(mine) != 1 || mine[0].Code != m.Code || !mine[0].YourMove(mover.ID) {
		t.Fatalf("mine for the seat to move: %+v, %v", mine, err)
	}
	if mine, err := l.Mine(ctx, waiter); err != nil || len(mine) != 0 {
		t.Fatalf("mine for the seat that waits: %+v, %v", mine, err)
	}
}

// TestRecordsAcrossInstances: two instances sharing Redis see the same
// names, links and ratings, and a game finished on one is recorded once
// though both open it.
func TestRecordsAcrossInstances(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t)
	sa, sb := openRedis(t, srv), openRedis(t, srv)
	a, b := newLobby(t, sa), newLobby(t, sb)
	u := room.NewCode() // a shared Redis may hold other tests' players
	ann := newPlayer(t, a, "SHA256:ann"+u, "ann"+u)
	if again := connect(t, b, "SHA256:ann"+u, "whoever"); again.Name != ann.Name || again.ID != ann.ID {
		t.Fatalf("ann on the other instance is %+v, want %+v", again, ann)
	}
	bo := newPlayer(t, b, "SHA256:bo"+u, "ann"+u)
	if bo.Name == ann.Name {
		t.Fatalf("a second key took ann's name on the other instance: %q", bo.Name)
	}
	code, _, err := a.LinkCode(ctx, ann)
	if err != nil {
		t.Fatal(err)
	}
	laptop := connect(t, b, "SHA256:laptop"+u, "ann")
	if _, err := b.Link(ctx, laptop, code); err != nil {
		t.Fatalf("a code from one instance on the other: %v", err)
	}
	if again := connect(t, a, "SHA256:laptop"+u, "ann"); again.ID != ann.ID {
		t.Fatalf("the linked key on the first instance is %+v", again)
	}

	m, conns := playTable(t, a, CreateOptions{Seats: 2}, ann, bo)
	until(t, conns[0], func(u Update) bool { return len(u.Room.Ratings) == 2 })
	recorded(t, b, m.Code, bo) // what b's load set off is over
	board, err := b.Top(ctx, "tally", bo, 10)
	if err != nil || len(board) < 2 {
		t.Fatalf("top on the other instance: %+v, %v", board, err)
	}
	for _, s := range board {
		if (s.Name == ann.Name || s.Name == bo.Name) && s.Games != 1 {
			t.Fatalf("after one game recorded on both instances %s has %d games", s.Name, s.Games)
		}
	}
}
