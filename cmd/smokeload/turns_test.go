package main

import "testing"

// The next actor is one whose title says they may act, the players after
// the last to play a move first; a refused player is asked again only
// once the room plays a move or their title changes; and with nobody
// left, the room still acts, in rotation.
func TestTurnsChooseWhoMayAct(t *testing.T) {
	acting := func(titles uint64) seatView { return seatView{known: true, acting: true, titles: titles} }
	waiting := func(titles uint64) seatView { return seatView{known: true, titles: titles} }
	tn := newTurns(4)
	// A market turn: only seat 2 may act, whoever played last.
	seats := []seatView{waiting(1), waiting(1), acting(1), waiting(1)}
	if k := tn.next(seats); k != 2 {
		t.Fatalf("market, seat 2 acting: chose %d", k)
	}
	tn.answered(2, answerPlayed, 2)
	// A phase everyone plays at once: the players after the last mover
	// first, the mover last.
	seats = []seatView{acting(2), acting(2), acting(3), acting(2)}
	if k := tn.next(seats); k != 3 {
		t.Fatalf("all acting after seat 2's move: chose %d, want 3", k)
	}
	// 3 is refused (a stale title): 0 next, and 3 not again, even after
	// others are refused, until something changes.
	tn.answered(3, answerRefused, 2)
	if k := tn.next(seats); k != 0 {
		t.Fatalf("after 3's refusal: chose %d, want 0", k)
	}
	tn.answered(0, answerNone, 2) // unanswered: taken as refused
	if k := tn.next(seats); k != 1 {
		t.Fatalf("after 0 went unanswered: chose %d, want 1", k)
	}
	tn.answered(1, answerRefused, 2)
	if k := tn.next(seats); k != 2 {
		t.Fatalf("3, 0, 1 refused: chose %d, want 2", k)
	}
	// A second enter asked for is no refusal: 2 is asked again.
	tn.answered(2, answerAsked, 3)
	if k := tn.next(seats); k != 2 {
		t.Fatalf("2 asked for a second enter: chose %d, want 2 again", k)
	}
	// 3's title changes: asked again, refused since or not.
	seats[3] = acting(3)
	if k := tn.next(seats); k != 3 {
		t.Fatalf("3's title changed: chose %d, want 3", k)
	}
	// A move played forgets every refusal: after 3's move, 0 comes first.
	tn.answered(3, answerPlayed, 3)
	if k := tn.next(seats); k != 0 {
		t.Fatalf("after 3's move: chose %d, want 0", k)
	}
	// Nobody may act (the game over): the room still acts, in rotation
	// from the last asked, so the keys still come and the pace holds.
	seats = []seatView{waiting(4), waiting(4), waiting(4), waiting(4)}
	for _, want := range []int{1, 2, 3, 0} {
		if k := tn.next(seats); k != want {
			t.Fatalf("nobody acting: chose %d, want %d", k, want)
		}
		tn.answered(want, answerRefused, 4)
	}
}

// Without titles (bell and title off) the answers alone decide: the
// refused are skipped until a move is played, then those after its
// player come first.
func TestTurnsWithoutTitles(t *testing.T) {
	tn := newTurns(3)
	seats := make([]seatView, 3)
	var chose []int
	for _, a := range []enterAnswer{answerRefused, answerRefused, answerPlayed, answerRefused, answerPlayed, answerPlayed} {
		k := tn.next(seats)
		chose = append(chose, k)
		tn.answered(k, a, 0)
	}
	// 0 refused, 1 refused, 2 plays; then 0 refused, 1 plays; then 2.
	want := []int{0, 1, 2, 0, 1, 2}
	for i := range want {
		if chose[i] != want[i] {
			t.Fatalf("chose %v, want %v", chose, want)
		}
	}
	// Everyone refused: forgotten, and asked in rotation.
	for range 3 {
		tn.answered(tn.next(seats), answerRefused, 0)
	}
	if k := tn.next(seats); k != 0 {
		t.Errorf("all refused: chose %d, want 0 (rotation after 2)", k)
	}
}

// The window title is followed through output cut anywhere, even inside
// its opening sequence; a title is either "your move" or not.
func TestTitleScan(t *testing.T) {
	out := "\x1b[22;2t\x1b[H frame one \x1b]2;room AB · smokestack\a\x1b[2J frame two" +
		"\x1b]2;your move · room AB · smokestack\a the menu \x1b]2;your move · room AB · smokestack\x1b\\ end"
	for cut := range len(out) + 1 {
		var ts titleScan
		ts.feed([]byte(out[:cut]))
		ts.feed([]byte(out[cut:]))
		if v := ts.view(); !v.known || !v.acting || v.titles != 3 {
			t.Fatalf("cut at %d: %+v, title %q", cut, v, ts.title)
		}
	}
	var ts titleScan
	if v := ts.view(); v.known || v.acting {
		t.Errorf("no title yet: %+v", v)
	}
	ts.feed([]byte("\x1b]2;room AB · smokestack\a"))
	if v := ts.view(); !v.known || v.acting || v.titles != 1 {
		t.Errorf("a waiting title: %+v", v)
	}
	// A title never ended is not kept growing.
	ts.feed([]byte("\x1b]2;"))
	for range 100 {
		ts.feed([]byte("0123456789"))
	}
	if len(ts.rest) > maxTitle {
		t.Errorf("an unended title kept %d bytes", len(ts.rest))
	}
}

// An enter's answer, for choosing the next actor: a second enter asked
// for is told from a refusal.
func TestEnterAnswerOf(t *testing.T) {
	for _, tc := range []struct {
		text string
		want enterAnswer
	}{
		{"  Build  Sell", answerNone},
		{"sending build Forge…", answerPlayed},
		{"✗ nothing to play right now", answerRefused},
		{"⏎ Build Robot, discarding Harvester  press enter again to play the move marked ⏎; any other key cancels", answerAsked},
		{"✗ nothing to play right now … press enter again", answerRefused},
		{"sending build Forge… ✗ not played: build Forge is no longer on offer", answerRefused},
	} {
		if got := enterAnswerOf(tc.text); got != tc.want {
			t.Errorf("%q: %d, want %d", tc.text, got, tc.want)
		}
	}
}
