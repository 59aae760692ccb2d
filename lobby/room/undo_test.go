package room

import (
	"fmt"
	"slices"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// TestUndoLog: the log part alone. An undo drops the lines of the seat's
// last standing move from every seat's log, tells the undoer what it took
// back and the others only that a move was taken back; a move taken back
// stands no more, so a second undo reaches the move before.
func TestUndoLog(t *testing.T) {
	seats := []store.Seat{{Name: "ann"}, {Name: "ben"}}
	var u undoLog
	u.record(0, 0, false, []engine.Event{{Seat: 0, Text: "took a card", Private: "took the 7"}})
	u.record(1, 1, false, []engine.Event{{Seat: 1, Text: "took a card"}})
	u.record(2, 0, false, []engine.Event{{Seat: 0, Text: "took another", Private: "took the 3"}})
	u.record(3, 0, false, []engine.Event{{Seat: 0, Kind: engine.Undo, Text: "took back a move"}})
	if got, want := worded(&u, 0, seats), []string{"You took the 7", "ben took a card", "You took back: took the 3"}; !slices.Equal(got, want) {
		t.Errorf("ann's log %q, want %q", got, want)
	}
	if got, want := worded(&u, 1, seats), []string{"ann took a card", "You took a card", "ann took back a move"}; !slices.Equal(got, want) {
		t.Errorf("ben's log %q, want %q", got, want)
	}
	u.record(4, 0, false, []engine.Event{{Seat: 0, Kind: engine.Undo, Text: "took back a move"}})
	if got, want := worded(&u, engine.Spectator, seats), []string{"ben took a card", "ann took back a move", "ann took back a move"}; !slices.Equal(got, want) {
		t.Errorf("a spectator's log after two undos %q, want %q", got, want)
	}
	// Ann has nothing standing: a third undo takes nothing from the log.
	u.record(5, 0, false, []engine.Event{{Seat: 0, Kind: engine.Undo, Text: "took back a move"}})
	if n := len(u.events); n != 4 {
		t.Errorf("after an undo with nothing standing the log has %d lines, want 4", n)
	}
	for i := range logSize + 10 {
		u.record(6+i, 1, false, []engine.Event{{Seat: 1, Text: "took a card"}})
	}
	if len(u.events) != logSize || len(u.standing[1]) != logSize {
		t.Errorf("a long game keeps %d lines and %d standing moves, want %d of each", len(u.events), len(u.standing[1]), logSize)
	}
}

// worded is the log's lines for seat, without the bots' marks.
func worded(u *undoLog, seat int, seats []store.Seat) []string {
	lines, _ := u.wordedFor(seat, seats)
	return lines
}

// TestLogCreditsTheBot: a move a bot played for a seat's person says so
// in every seat's log, and is listed as the bot's; what the game did
// after it for that seat (its roll as the work phase begins) is not the
// bot's (issue 36, point 11); old records, without the mark, read as the
// person's own.
func TestLogCreditsTheBot(t *testing.T) {
	seats := []store.Seat{{Name: "ann"}, {Name: "carol"}}
	var u undoLog
	u.record(0, 1, true, []engine.Event{{Seat: 1, Text: "built a card", Private: "built Manufactory"}, {Seat: -1, Text: "the round ends"},
		{Seat: 1, Text: "rolled 6 1"}})
	u.record(1, 1, false, []engine.Event{{Seat: 1, Text: "took a card"}})
	for _, c := range []struct {
		seat int
		want []string
	}{
		{0, []string{"the bot played for carol: built a card", "the round ends", "carol rolled 6 1", "carol took a card"}},
		{1, []string{"the bot played for you: built Manufactory", "the round ends", "You rolled 6 1", "You took a card"}},
	} {
		lines, byBot := u.wordedFor(c.seat, seats)
		if !slices.Equal(lines, c.want) || !slices.Equal(byBot, []int{0}) {
			t.Errorf("seat %d reads %q with the bot's lines %v; want %q and [0]", c.seat, lines, byBot, c.want)
		}
	}
}

// TestUndoLogWordsWhatWasTakenBack: the undoer's line carries, for their
// language, the words of each event of the move taken back; a move
// whose events have no words leaves it to the English text.
func TestUndoLogWordsWhatWasTakenBack(t *testing.T) {
	take := engine.Say("factories.log.take", engine.CardArg("Card", "Dojo"))
	roll := engine.Say("factories.log.roll", engine.Str("Dice", "6 1"))
	undo := engine.Event{Seat: 0, Kind: engine.Undo, Text: "took back a move", Words: engine.Say("log.undo")}
	var u undoLog
	u.record(0, 0, false, []engine.Event{{Seat: 0, Text: "took Dojo from the marketplace", Words: take}, {Seat: 0, Text: "rolled 6 1", Words: roll}})
	u.record(1, 0, false, []engine.Event{undo})
	got := u.entries()[0]
	want := engine.Say("log.tookback", engine.StepsArg("Did", take, roll))
	if w := got.WordsFor(0); w.ID != want.ID || fmt.Sprint(w) != fmt.Sprint(want) {
		t.Errorf("the undoer's words %v; want %v", w, want)
	}
	if w := got.WordsFor(1); w.ID != "log.undo" {
		t.Errorf("another seat's words %v; want log.undo", w)
	}
	u.record(2, 0, false, []engine.Event{{Seat: 0, Text: "took a card"}})
	u.record(3, 0, false, []engine.Event{undo})
	if got := u.entries()[1]; got.WordsFor(0).ID != "" || got.For(0) != "took back: took a card" {
		t.Errorf("an undo of a move without words: %v, %q", got.WordsFor(0), got.For(0))
	}
}
