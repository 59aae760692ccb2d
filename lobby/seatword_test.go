package lobby

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/room"
)

// guest is a guest's connection: a fresh identity each time, from addr.
func guest(n int, addr string) Player {
	return Player{ID: "guest:" + string(rune('a'+n)), Name: "gus", Guest: true, Addr: addr, From: addr}
}

// TestGuestSeatWord: a guest is shown a seat word at sit-down. Coming back
// as a new guest identity, from the same address and within the grace
// period, the room's code and the word take the seat back; a wrong word,
// another address or a late return do not, and a wrong word counts as a
// failed lookup.
func TestGuestSeatWord(t *testing.T) {
	ctx := context.Background()
	const home, away = "203.0.113.7", "198.51.100.9"
	tb := newTable(t, Config{Limits: Limits{LookupMisses: 20, LookupWindow: time.Hour}}, CreateOptions{Seats: 2, Public: true}, ann)
	tb.conns["gus"] = tb.join(guest(0, home))
	word := latest(t, tb.conns["gus"]).SeatWord
	if !room.SeatWordPattern.MatchString(word) {
		t.Fatalf("gus's seat word %q", word)
	}
	if w := latest(t, tb.conns["ann"]).SeatWord; w != "" {
		t.Fatalf("ann, who has a key, sees a seat word %q", w)
	}
	tb.leave(Player{Name: "gus"})
	tb.await(ann, "gus away", func(i RoomInfo) bool { return !i.Seats[1].AwaySince.IsZero() })

	wrong := "nope-" + strings.SplitN(word, "-", 2)[1]
	_, err := tb.l.Join(ctx, tb.code+" "+wrong, guest(1, home))
	if err == nil || !strings.Contains(err.Error(), "no seat in room") {
		t.Fatalf("a wrong word: %v", err)
	}
	if n, _, _ := tb.l.misses().Misses(ctx, "addr:"+home, tb.clk.Now()); n != 1 {
		t.Fatalf("a wrong word counted %d failed lookups", n)
	}
	_, err2 := tb.l.Join(ctx, tb.code+" "+word, guest(2, away))
	if err2 == nil || err2.Error() != err.Error() {
		t.Fatalf("the right word from another address: %v; want what a wrong word is told", err2)
	}
	tb.clk.advance(DefaultGrace - time.Second)
	c, err := tb.l.Join(ctx, tb.code+" "+word, guest(3, home))
	if err != nil || c.Seat() != 1 {
		t.Fatalf("gus back with his word: %v, %v", c, err)
	}
	if u := latest(t, c); u.SeatWord != word || u.Room.Seats[1].Name != "gus" || !u.Room.Seats[1].Connected {
		t.Fatalf("gus back: word %q, seat %+v", u.SeatWord, u.Room.Seats[1])
	}
	c.Close()
	tb.clk.advance(DefaultGrace + time.Second)
	if _, err := tb.l.Join(ctx, tb.code+" "+word, guest(4, home)); err == nil || !strings.Contains(err.Error(), "no seat in room") {
		t.Fatalf("the word after the grace period: %v", err)
	}
}

// TestGuestSeatWordPrivate: in a private room the word stands for the
// invite's secret, and a wrong word is told exactly what a code with no
// room is; past the lookup limit the guest is refused for good.
func TestGuestSeatWordPrivate(t *testing.T) {
	ctx := context.Background()
	const home = "203.0.113.7"
	tb := newTable(t, Config{Limits: Limits{LookupMisses: 2, LookupWindow: time.Hour}}, CreateOptions{Seats: 2}, ann)
	tb.conns["gus"] = tb.join(guest(0, home))
	word := latest(t, tb.conns["gus"]).SeatWord
	tb.leave(Player{Name: "gus"})
	code, _, _ := ParseInvite(tb.code)

	_, err := tb.l.Join(ctx, code+" "+"nope-10", guest(1, home))
	_, none := tb.l.Join(ctx, "ZZZZZZ", guest(1, home))
	if err == nil || none == nil || err.Error() != strings.Replace(none.Error(), "ZZZZZZ", code, 1) {
		t.Fatalf("a wrong word in a private room: %v; a code with no room: %v", err, none)
	}
	c, err := tb.l.Join(ctx, code+" "+word, guest(2, home))
	if err != nil || c.Seat() != 1 {
		t.Fatalf("gus back with the code and his word, no secret: %v, %v", c, err)
	}
	c.Close()
	_, err = tb.l.Join(ctx, code+" "+"nope-11", guest(3, home))
	var refusal *LimitError
	if !errors.As(err, &refusal) || !refusal.Final {
		t.Fatalf("the third miss, past a limit of 2: %v", err)
	}
	if _, err := tb.l.Join(ctx, code+" "+word, guest(4, home)); !errors.As(err, &refusal) {
		t.Fatalf("the right word from an address past the limit: %v", err)
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{2 * time.Minute: "2m", 90 * time.Second: "1m30s", 24 * time.Hour: "24h",
		5 * time.Second: "5s", 90 * time.Minute: "1h30m", time.Hour + time.Second: "1h0m1s"} {
		if got := ShortDuration(d); got != want {
			t.Errorf("ShortDuration(%v) = %q; want %q", d, got, want)
		}
	}
	for d, want := range map[time.Duration]string{0: "0:00", 200 * time.Millisecond: "0:01", time.Second: "0:01",
		102 * time.Second: "1:42", time.Hour + 2*time.Minute + 5*time.Second: "1:02:05", -time.Second: "0:00"} {
		if got := ClockText(d); got != want {
			t.Errorf("ClockText(%v) = %q; want %q", d, got, want)
		}
	}
}
