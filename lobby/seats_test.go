package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestSameKeyTwoSessions(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	p := Player{ID: "key:p", Name: "pat"}
	meta, err := l.Create(ctx, p, CreateOptions{Seats: 1, Seed: 11, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	c1, err := l.Join(ctx, meta.Code, p)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := l.Join(ctx, meta.Code, p)
	if err != nil {
		t.Fatal(err)
	}
	if c1.Seat() != 0 || c2.Seat() != 0 {
		t.Fatalf("same key got seats %d and %d", c1.Seat(), c2.Seat())
	}
	v := view(t, latest(t, c1))
	take := json.RawMessage(`{"kind":"take"}`)
	// Both sessions send the same move at once: exactly one is played.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, c := range []*Conn{c1, c2} {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = c.Move(ctx, take) }()
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) {
		t.Fatalf("want exactly one of two identical moves accepted, got %v / %v", errs[0], errs[1])
	}
	u1, u2 := latest(t, c1), latest(t, c2)
	if u1.Version != 1 || string(u1.View) != string(u2.View) {
		t.Fatalf("sessions disagree or move counted twice: versions %d/%d", u1.Version, u2.Version)
	}
	if got := view(t, u1); len(got.Hand) != len(v.Hand)+1 {
		t.Fatalf("hand grew from %d to %d", len(v.Hand), len(got.Hand))
	}
}

func TestAwayBotStandInAndReclaim(t *testing.T) {
	ctx := context.Background()
	clk := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	l := New(Config{Store: mem.New(), Games: []Game{tallyGame()}, Now: clk.Now})
	host, guest := Player{ID: "key:h", Name: "hana"}, Player{ID: "key:g", Name: "gus"}
	meta, err := l.Create(ctx, host, CreateOptions{Seats: 2, Seed: 5, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	h, _ := l.Join(ctx, meta.Code, host)
	g, err := l.Join(ctx, meta.Invite(), guest)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.AddBot(ctx, meta.Code, host, 1, "first"); err == nil {
		t.Fatal("host replaced a player who is still connected")
	}
	g.Close()
	clk.advance(2 * time.Minute)
	u := latest(t, h)
	if s := u.Room.Seats[1]; s.Connected || !s.AwaySince.Equal(clk.now.Add(-2*time.Minute)) {
		t.Fatalf("seat after gus left: %+v", s)
	}
	if err := l.AddBot(ctx, meta.Code, guest, 1, "first"); err == nil {
		t.Fatal("gus, away, handed his own seat to a bot")
	}
	// Past the grace period hana, the only one at the table, votes: the
	// seat goes to the bot at once.
	if err := l.AddBot(ctx, meta.Code, host, 1, "first"); err != nil {
		t.Fatal(err)
	}
	// The bot now plays seat 1 whenever it may act; hana plays seat 0.
	deadline := time.Now().Add(10 * time.Second)
	for {
		v := view(t, latest(t, h))
		if v.Round >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("bot did not play: round %d turn %d acting %v", v.Round, v.Turn, latest(t, h).Room.Acting)
		}
		if len(v.Legal) > 0 {
			raw, _ := json.Marshal(pick(v.Legal))
			if err := h.Move(ctx, raw); err != nil && !strings.Contains(err.Error(), "turn") {
				t.Fatal(err)
			}
		}
		seen.Store(h, next(t, h)) // hana's move's update, or the bot's
	}
	// Gus comes back with the same key and takes his seat back.
	g2, err := l.Join(ctx, meta.Code, guest)
	if err != nil || g2.Seat() != 1 {
		t.Fatalf("reclaim: seat %v err %v", g2, err)
	}
	if s := latest(t, g2).Room.Seats[1]; s.Bot != "" || s.Name != "gus" || !s.Connected {
		t.Fatalf("seat after reclaim: %+v", s)
	}
	if err := l.End(ctx, meta.Code, guest); err == nil {
		t.Fatal("a non-host ended the game")
	}
	if err := l.End(ctx, meta.Code, host); err != nil {
		t.Fatal(err)
	}
	if u := latest(t, g2); !u.Room.Over || u.Room.Ended == "" {
		t.Fatalf("after End: %+v", u.Room)
	}
	if err := g2.Move(ctx, json.RawMessage(`{"kind":"done"}`)); err == nil {
		t.Fatal("move accepted after the host ended the game")
	}
}

func pick(legal []tally.Move) tally.Move { return legal[0] }

func TestBotsOnlyFinishAtOnce(t *testing.T) {
	ctx := context.Background()
	l := New(Config{Store: mem.New(), Games: []Game{tallyGame()}, BotDelay: time.Hour})
	host := Player{ID: "key:h", Name: "hana"}
	meta, err := l.Create(ctx, host, CreateOptions{Seats: 3, Seed: 9, HasSeed: true, Bots: []string{"first", "first"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Create(ctx, host, CreateOptions{Seats: 2, Bots: []string{"a", "b"}}); err == nil {
		t.Fatal("a room of bots only was created")
	}
	// The host fills the last seat with a bot too: with no people at the
	// table, bots ignore the hour-long pace and the game runs to its end.
	if err := l.AddBot(ctx, meta.Code, host, 0, "first"); err != nil {
		t.Fatal(err)
	}
	w, _ := l.Watch(ctx, meta.Invite(), Player{ID: "key:w"})
	deadline := time.Now().Add(30 * time.Second)
	for !latest(t, w).Room.Over {
		if time.Now().After(deadline) {
			t.Fatalf("bot game did not finish: %+v", latest(t, w).Room)
		}
		seen.Store(w, next(t, w)) // the bots' next move
	}
}

func TestPrivateRoomsAndExpiry(t *testing.T) {
	ctx := context.Background()
	clk := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	st := mem.New()
	l := New(Config{Store: st, Games: []Game{tallyGame()}, Expire: time.Hour, Now: clk.Now})
	p := Player{ID: "key:p", Name: "pat"}
	pub, _ := l.Create(ctx, p, CreateOptions{Seats: 2, Public: true})
	priv, _ := l.Create(ctx, p, CreateOptions{Seats: 2})
	done, _ := l.Create(ctx, p, CreateOptions{Seats: 1})
	rooms, _ := l.Rooms(ctx)
	if len(rooms) != 1 || rooms[0].Code != pub.Code {
		t.Fatalf("public listing shows %+v", rooms)
	}
	if _, err := l.Join(ctx, "ZZZZZZ", p); err == nil {
		t.Fatal("joined a room that does not exist")
	}
	c, err := l.Join(ctx, strings.ToLower(priv.Code[:3])+"-"+priv.Code[3:], p)
	if err != nil {
		t.Fatalf("join by typed code: %v", err)
	}
	d, _ := l.Join(ctx, done.Code, p)
	if err := l.End(ctx, done.Code, p); err != nil {
		t.Fatal(err)
	}
	d.Close()
	clk.advance(2 * time.Hour)
	l.ExpireRooms(ctx)
	left, _ := st.List(ctx)
	codes := map[string]bool{}
	for _, m := range left {
		codes[m.Code] = true
	}
	// The public room expired; the private one has a session here; the
	// finished one stays in history.
	if codes[pub.Code] || !codes[priv.Code] || !codes[done.Code] {
		t.Fatalf("after expiry: %v", codes)
	}
	c.Close()
	l.ExpireRooms(ctx)
	if _, _, err := st.Load(ctx, priv.Code, 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("abandoned private room survived: %v", err)
	}
}

func TestCodesAreUnambiguousAndDistinct(t *testing.T) {
	seen := map[string]bool{}
	for range 2000 {
		c := room.NewCode()
		if len(c) != CodeLength || strings.ContainsAny(c, "01ILO") || c != NormalizeCode(strings.ToLower(c)) {
			t.Fatalf("bad code %q", c)
		}
		if seen[c] {
			t.Fatalf("code %q repeated within 2000", c)
		}
		seen[c] = true
	}
}
