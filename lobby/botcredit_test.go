package lobby

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store/mem"
)

// TestBotMoveCredited: ann's clock runs out and the bot plays her turn.
// Her log, ben's and the replay say the bot played for her, and list the
// line as the bot's; a room loaded afresh from the store reads the same,
// and her own moves after it are hers again.
func TestBotMoveCredited(t *testing.T) {
	st := mem.New()
	tb := newTable(t, Config{Store: st, BotDelay: 10 * time.Second}, CreateOptions{Seats: 2, Clock: time.Minute}, ann, ben)
	tb.clk.advance(time.Minute)
	tb.clk.advance(10 * time.Second) // the bot's pause
	u := tb.await(ben, "the bot's move for ann", func(i RoomInfo) bool { return slices.Equal(i.Acting, []int{1}) })
	bots := func(u Update) []string {
		var out []string
		for _, i := range u.LogByBot {
			out = append(out, u.Log[i])
		}
		return out
	}
	if got := bots(u); len(got) != 1 || !strings.HasPrefix(got[0], "the bot played for ann: ") {
		t.Fatalf("ben's log %q, the bot's lines %q", u.Log, got)
	}
	mine := latest(t, tb.conns["ann"])
	if got := bots(mine); len(got) != 1 || !strings.HasPrefix(got[0], "the bot played for you: ") || slices.ContainsFunc(mine.Log, func(l string) bool { return strings.HasPrefix(l, "You ") }) {
		t.Fatalf("ann's log %q, the bot's lines %q", mine.Log, got)
	}
	if err := tb.move(ben, "take"); err != nil {
		t.Fatal(err)
	}
	tb.await(ann, "ann's next turn", func(i RoomInfo) bool { return len(i.Acting) == 2 })
	if err := tb.move(ann, "done"); err != nil {
		t.Fatal(err)
	}

	// Another server loads the room from the store: the same log.
	l := New(Config{Store: st, Games: []Game{tallyGame()}, Now: tb.clk.Now, AfterFunc: tb.clk.AfterFunc})
	c, err := l.Watch(context.Background(), tb.code, cal)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := latest(t, c)
	if got := bots(w); len(got) != 1 || !strings.HasPrefix(got[0], "the bot played for ann: ") || !strings.HasPrefix(w.Log[len(w.Log)-1], "ann ") {
		t.Fatalf("a spectator of the reloaded room reads %q, the bot's lines %q", w.Log, got)
	}
	if err := l.End(context.Background(), tb.code, ann); err != nil {
		t.Fatal(err)
	}
	// The replay as a spectator reads it (ann's own reads "for you").
	_, frames, err := l.Replay(context.Background(), tb.code, cal)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) < 4 || frames[1].Bot != "first" || frames[2].Bot != "" || frames[3].Bot != "" ||
		!strings.HasPrefix(frames[1].Log[0], "the bot played for ann: ") || strings.Contains(frames[3].Log[0], "bot") {
		t.Fatalf("the replay's frames: %+v", frames)
	}
}
