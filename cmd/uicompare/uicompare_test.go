package main

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestMoveChangesTheMoversLines(t *testing.T) {
	var tb table
	before := tb.lines(0, termWidth, termHeight)
	for range logLines + 2 {
		tb.move(2)
	}
	after := tb.lines(0, termWidth, termHeight)
	if len(before) != termHeight || len(after) != termHeight {
		t.Fatalf("lines: %d before, %d after; want %d", len(before), len(after), termHeight)
	}
	changed := 0
	for i := range after {
		if text(after[i]) != text(before[i]) {
			changed++
		}
	}
	if changed < 5 || changed > 15 {
		t.Errorf("a move changed %d lines; the game changes about ten", changed)
	}
	if tb.goods[2] != logLines+2 || tb.goods[0] != 0 {
		t.Errorf("goods %v: only seat 3 moved, %d times", tb.goods, logLines+2)
	}
	if len(tb.log) != logLines || !strings.Contains(tb.log[logLines-1], "move 8") {
		t.Errorf("log %q: want the last %d moves, newest last", tb.log, logLines)
	}
}

func TestRenderPadsEveryLineToTheWidth(t *testing.T) {
	var tb table
	tb.move(0)
	out := render(tb.lines(1, 100, 30), 100, func(_ int, s string) string { return "\x1b[1m" + s + "\x1b[m" })
	lines := strings.Split(out, "\n")
	if len(lines) != 30 {
		t.Fatalf("%d lines, want 30", len(lines))
	}
	for i, l := range lines {
		if w := utf8.RuneCountInString(ansi.Strip(l)); w != 100 {
			t.Errorf("line %d is %d cells wide, want 100: %q", i, w, ansi.Strip(l))
		}
	}
}

func TestSeatKeepsOnlyTheNewestTable(t *testing.T) {
	h := newHub()
	rm, s := h.join("r")
	_, other := h.join("r")
	rm.move(other)
	rm.move(other)
	got := s.next(context.Background()).(tableMsg)
	if got.t.version != 2 {
		t.Errorf("seat read version %d, want the newest, 2", got.t.version)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if m := s.next(ctx); m != nil {
		t.Errorf("after reading the newest, next gave %v; want nil once the session ends", m)
	}
}

// TestVariantsServeBothApps runs each variant's server in this process
// and drives it over SSH: the table's first frame is the board, a move
// on one seat redraws all four, a key on the counter redraws it.
func TestVariantsServeBothApps(t *testing.T) {
	for _, v := range variants {
		t.Run(v.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			srv := serveHere(t, v)
			terms, err := openTerms(ctx, srv.SSH, 5, func(i int) string {
				if i == 4 {
					return "counter"
				}
				return "table t"
			}, 50*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			defer closeTerms(terms)
			for _, w := range terms[:4] {
				w.mu.Lock()
				shown := ansi.Strip(string(w.head))
				w.mu.Unlock()
				if !strings.Contains(shown, "MARKETPLACE") || !strings.Contains(shown, "LOG") {
					t.Fatalf("first frame is not the board: %.300q", shown)
				}
			}
			now := time.Now()
			for _, w := range terms {
				w.watch(now)
			}
			if err := terms[1].press("m"); err != nil {
				t.Fatal(err)
			}
			if err := terms[4].press("+"); err != nil {
				t.Fatal(err)
			}
			for _, w := range terms {
				if _, err := w.firstOutput(ctx); err != nil {
					t.Fatalf("%s drew nothing after the move and the key: %v", w.name, err)
				}
			}
		})
	}
}

func TestServeRefusesAnUnknownCommand(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv := serveHere(t, variants[0])
	w, err := openTerm(ctx, srv.SSH, "chess")
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	if err := w.sess.Wait(); err == nil {
		t.Error("the session ended well; want an exit status for an unknown app")
	}
	if !strings.Contains(string(w.head), "counter or table ROOM") {
		t.Errorf("output %q does not say which apps there are", w.head)
	}
}

// serveHere runs serve for v until the test ends.
func serveHere(t *testing.T, v variant) serverAddrs {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- serve(v.Name, inR, outW) }()
	t.Cleanup(func() {
		inW.Close()
		if err := <-done; err != nil {
			t.Errorf("serve %s: %v", v.Name, err)
		}
	})
	var addrs serverAddrs
	if err := json.NewDecoder(outR).Decode(&addrs); err != nil {
		t.Fatal(err)
	}
	return addrs
}

func text(spans []span) string {
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(s.text)
	}
	return b.String()
}
