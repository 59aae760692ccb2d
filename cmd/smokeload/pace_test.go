package main

import (
	mrand "math/rand/v2"
	"strings"
	"testing"
	"time"
)

// The interval gives the rate asked: a room of four at 2 moves a minute
// each, half its actions playing a move, acts every 3.75 s; and before
// anything is known the share is taken as a half, never as nothing.
func TestActionInterval(t *testing.T) {
	if got := actionInterval(2, 4, 0.5); got != 3750*time.Millisecond {
		t.Errorf("interval %v, want 3.75s", got)
	}
	if got := playShare(0, 0); got != playShare0 {
		t.Errorf("share with no actions %v, want %v", got, playShare0)
	}
	if got := playShare(1000, 400); got < 0.39 || got > 0.41 {
		t.Errorf("share of 400 in 1000 actions %v, want about 0.4", got)
	}
	if got := playShare(1000, 0); got != minPlayShare {
		t.Errorf("share with no move played %v, want the floor %v", got, minPlayShare)
	}
}

// --rate runs a room on a schedule: the waits add up to the intervals
// (±50% each) whatever the actions took, an action that comes late is
// counted late, and a room a whole interval behind starts again from
// then rather than catching up in a burst.
func TestRoomPaceSchedule(t *testing.T) {
	p := &pacer{rate: 2}
	p.actions.Store(1000)
	p.plays.Store(500) // a half: 3.75 s for four players
	iv := actionInterval(2, 4, playShare(1000, 500))
	r := p.room(4, mrand.New(mrand.NewPCG(1, 2)), 7)
	now := time.Unix(1000, 0)
	first, late := r.wait(now)
	if first < 0 || first > iv || late != 0 {
		t.Fatalf("first wait %v (late %v), want within one interval %v", first, late, iv)
	}
	now = now.Add(first)
	var total time.Duration
	for i := range 200 {
		due := r.due
		if d := due.Sub(now); d < iv/2 || d > iv*3/2 {
			t.Fatalf("action %d due %v after the last, want %v ±50%%", i, d, iv)
		}
		now = now.Add(100 * time.Millisecond) // the action's own time
		w, late := r.wait(now)
		if late != 0 || now.Add(w) != due {
			t.Fatalf("action %d: wait %v (late %v), want to its time", i, w, late)
		}
		total += due.Sub(now.Add(-100 * time.Millisecond))
		now = due
	}
	if mean := total / 200; mean < iv*9/10 || mean > iv*11/10 {
		t.Errorf("mean interval %v, want about %v", mean, iv)
	}
	// An action that ends past the next one's time: that one is late.
	due := r.due
	now = due.Add(time.Second)
	if w, late := r.wait(now); w != 0 || late != time.Second || p.rebased.Load() != 0 {
		t.Errorf("a second late: wait %v, late %v, rebased %d", w, late, p.rebased.Load())
	}
	// More than an interval late: counted, and the schedule restarts.
	now = r.due.Add(iv + time.Second)
	if w, late := r.wait(now); w != 0 || late != iv+time.Second || p.rebased.Load() != 1 {
		t.Errorf("an interval late: wait %v, late %v, rebased %d", w, late, p.rebased.Load())
	}
	if d := r.due.Sub(now); d < iv/2 || d > iv*3/2 {
		t.Errorf("after a restart the next action is due in %v, want %v ±50%%", d, iv)
	}
	r.done(true)
	r.done(false)
	if p.actions.Load() != 1002 || p.plays.Load() != 501 {
		t.Errorf("counted %d actions, %d plays", p.actions.Load(), p.plays.Load())
	}
}

// --think waits a think time ±50% after each action, as before, and
// draws it from the room's own generator as before, so the keys pressed
// stay the same.
func TestRoomPaceThink(t *testing.T) {
	p := &pacer{think: 2800 * time.Millisecond}
	r := p.room(4, mrand.New(mrand.NewPCG(3, 0xcafe)), 3)
	before := mrand.New(mrand.NewPCG(3, 0xcafe))
	for range 100 {
		w, late := r.wait(time.Unix(0, 0))
		if want := p.think/2 + time.Duration(before.Int64N(int64(p.think)+1)); w != want || late != 0 {
			t.Fatalf("wait %v (late %v), want %v as before", w, late, want)
		}
	}
}

// The report says what was meant and what was played, and calls the
// players behind below 90% of it.
func TestPaceReport(t *testing.T) {
	// --think 3s: 20 actions a room a minute meant; 400 rooms of four
	// over a minute made 16 each, 40% of them a move.
	p := &pacer{think: 3 * time.Second}
	p.actions.Store(6400)
	p.plays.Store(2560)
	r := p.pace(time.Minute, 400, 1600, 2560, nil)
	if r.IntendedActionsPerRoomMinute != 20 || r.ActionsPerRoomMinute != 16 || r.MovesPerAction != 0.4 ||
		r.IntendedMovesPerPlayerMinute != 2 || r.MovesPerPlayerMinute != 1.6 || !r.Behind {
		t.Errorf("think: %+v", r)
	}
	var out strings.Builder
	r.write(&out)
	if !strings.Contains(out.String(), "meant 2.0 moves a minute a player") || !strings.Contains(out.String(), "BEHIND: the players played 80%") {
		t.Errorf("think, the table says:\n%s", out.String())
	}
	// --rate 2, the server counting 1.9 a player: not behind.
	p = &pacer{rate: 2}
	p.actions.Store(8000)
	p.plays.Store(3200)
	late := []time.Duration{0, 0, time.Millisecond, 5 * time.Millisecond}
	r = p.pace(time.Minute, 400, 1600, 3040, late)
	if r.TargetMovesPerPlayerMinute != 2 || r.IntendedActionsPerRoomMinute != 20 || r.MovesPerPlayerMinute != 1.9 ||
		r.Behind || r.Late.Count != 4 || r.Late.Max != 5 {
		t.Errorf("rate: %+v", r)
	}
	// The clients' count when the server's is not known.
	if r = p.pace(time.Minute, 400, 1600, 0, late); r.MovesPerPlayerMinute != 2 {
		t.Errorf("rate, the clients' count: %+v", r)
	}
	// No rooms played (the lobby): nothing to say.
	if r = p.pace(time.Minute, 0, 0, 0, nil); r.IntendedActionsPerRoomMinute != 0 || r.Behind {
		t.Errorf("no rooms: %+v", r)
	}
}

// Once open, a screen keeps none of its output, only its times; the
// output since a watch is kept only where it is to be read.
func TestScreenKeepsOnlyWhatIsRead(t *testing.T) {
	s := &screen{changed: make(chan struct{}, 1)}
	s.Write([]byte("\x1b[1mwelcome\x1b[0m"))
	if string(s.text) != "\x1b[1mwelcome\x1b[0m" {
		t.Fatalf("before it opens a screen keeps its text, got %q", s.text)
	}
	s.opened()
	s.Write([]byte("a frame"))
	if len(s.text) != 0 || s.received() != int64(len("\x1b[1mwelcome\x1b[0m")+len("a frame")) {
		t.Errorf("after it opened: text %q, %d bytes counted", s.text, s.received())
	}
	from := time.Now()
	s.watch(from)
	s.Write([]byte("other's frame"))
	if len(s.recent) != 0 || s.first.IsZero() {
		t.Errorf("watched: recent %q, first %v", s.recent, s.first)
	}
	s.watchText(time.Now())
	s.Write([]byte("\x1b[31m✗ nothing to play right now\x1b[0m"))
	if got := s.sinceWatch(); got != "✗ nothing to play right now" {
		t.Errorf("watched for text: %q", got)
	}
}

// An enter's answer is what the mover's screen says first: a move played
// ("sending …", "played: …"), or a refusal or a second enter asked; a
// redraw saying neither (the menu, a hint) is no answer yet.
func TestAnswerOf(t *testing.T) {
	for _, tc := range []struct {
		text             string
		played, answered bool
	}{
		{"", false, false},
		{"  Build  Sell  hint: build the Forge", false, false},
		{"✗ nothing to play right now", false, true},
		{"press enter again to play the move marked ⏎; any other key cancels", false, true},
		{"sending build Forge…", true, true},
		{"played: build Forge", true, true},
		{"menu sending build Forge… ✗ not played: build Forge is no longer on offer", false, true},
		{"played: build Forge … ✗ nothing to play right now", true, true},
		{"✗ nothing to play right now … played: build Forge", false, true},
	} {
		if played, answered := answerOf(tc.text); played != tc.played || answered != tc.answered {
			t.Errorf("%q: played %v answered %v, want %v %v", tc.text, played, answered, tc.played, tc.answered)
		}
	}
}
