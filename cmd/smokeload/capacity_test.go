package main

import (
	"strings"
	"testing"
	"time"
)

// Samples past their window are reported as censored: counted, and any
// figure that lands on one shown as "> window", never as the window.
func TestCapacityReportShowsCensoredSamples(t *testing.T) {
	var key, move []time.Duration
	for i := range 98 {
		key = append(key, time.Duration(i+1)*time.Millisecond)
	}
	for i := range 199 {
		move = append(move, time.Duration(i+1)*10*time.Millisecond)
	}
	r := capResult{Sessions: 4, Rooms: 1, Connected: 4, Think: "2s", Moves: 50, KeyMisses: 2, MoveCensored: 1, EntersUnseen: 3,
		Errors:     map[string]int{"the game screen did not open within 30s": 2},
		KeyToOwn:   summarise(append(key, keyWindow, keyWindow)),
		MoveToRest: summarise(append(move, moveWindow))}
	var out strings.Builder
	if err := r.writeTable(&out); err != nil {
		t.Fatal(err)
	}
	table := out.String()
	for _, want := range []string{
		// 100 samples, two censored at 10 s: the p99 is one of them.
		"key to own frame           100     50.0ms  > 10000ms  > 10000ms         2",
		// 200 samples, one censored: the p99 is the 198th, 1,980 ms.
		"move to others' frame      200   1000.0ms   1980.0ms  > 15000ms         1",
		"keys not redrawn within 10s 2",
		"moves not shown to another player within 15s 1",
		"enters not answered on the mover's own screen within 2s 3",
		"errors 2",
		"error 2: the game screen did not open within 30s",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q:\n%s", want, table)
		}
	}
}
