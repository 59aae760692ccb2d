package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
)

// hintAnswer is play's answer to {"hint":true}.
type hintAnswer struct {
	Hint  []engine.Hint `json:"hint"`
	Error string        `json:"error"`
	About string        `json:"about"`
}

// next waits for the stream's next line that pick accepts.
func (s *stream) next(t *testing.T, what string, pick func(line) bool) line {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				t.Fatalf("the stream ended waiting for %s", what)
			}
			if pick(l) {
				return l
			}
		case <-timeout:
			t.Fatalf("no %s", what)
		}
	}
}

// TestPlayHint: {"hint":true} in the play protocol answers a solo
// player with three of their legal moves, best first, each with its worth,
// and marks the room; a seat in a rated game and a spectator are refused.
func TestPlayHint(t *testing.T) {
	srv := startServer(t)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))

	solo := strings.TrimSpace(run(t, alice, "new --players 1", "").stdout)
	p := startPlay(t, alice, "play "+solo)
	first := p.next(t, "the first view", func(l line) bool { return len(l.View) > 0 })
	var v factories.View
	if err := json.Unmarshal(first.View, &v); err != nil {
		t.Fatal(err)
	}
	p.send(t, map[string]bool{"hint": true})
	answer := p.next(t, "the hint", func(l line) bool { return strings.Contains(string(l.raw), `"hint"`) })
	var h hintAnswer
	if err := json.Unmarshal(answer.raw, &h); err != nil || h.Error != "" || len(h.Hint) != 3 {
		t.Fatalf("hint answer %s (%v); want three moves", answer.raw, err)
	}
	for i, hint := range h.Hint {
		legal := slices.ContainsFunc(v.Legal, func(m factories.Move) bool {
			data, err := json.Marshal(m)
			return err == nil && string(data) == string(hint.Move)
		})
		if !legal {
			t.Errorf("hinted move %d, %s, is not among the view's legal moves", i+1, hint.Move)
		}
		if i > 0 && hint.Worth > h.Hint[i-1].Worth {
			t.Errorf("hinted move %d is worth %v, more than the one before it (%v)", i+1, hint.Worth, h.Hint[i-1].Worth)
		}
	}
	info, err := srv.lobby.Info(t.Context(), solo, lobby.Player{})
	if err != nil || !info.Hinted {
		t.Errorf("the solo room after a hint: hinted %v, err %v; want it marked", info.Hinted, err)
	}
	p.sess.Close()

	rated := strings.TrimSpace(run(t, alice, "new --players 2", "").stdout)
	a, b := startPlay(t, alice, "play "+rated), startPlay(t, bob, "play "+rated)
	b.next(t, "bob's first view", func(l line) bool { return len(l.View) > 0 })
	a.next(t, "alice's first view", func(l line) bool { return len(l.View) > 0 })
	a.send(t, map[string]bool{"hint": true})
	refused := a.next(t, "the refusal", func(l line) bool { return l.About == "hint" })
	if !strings.Contains(refused.Error, "rated") {
		t.Errorf("a hint in a rated game: %s; want it refused as rated", refused.raw)
	}
	carol := dialKey(t, srv.addr, "carol", newKey(t))
	w := startPlay(t, carol, "play "+rated+" --watch")
	w.next(t, "the spectator's first update", func(l line) bool { return l.Room.Code != "" })
	w.send(t, map[string]bool{"hint": true})
	if l := w.next(t, "the spectator's refusal", func(l line) bool { return l.About == "hint" }); !strings.Contains(l.Error, "players' own moves") {
		t.Errorf("a spectator's hint: %s; want it refused", l.raw)
	}
	if info, err := srv.lobby.Info(t.Context(), rated, lobby.Player{}); err != nil || info.Hinted {
		t.Errorf("the rated room: hinted %v, err %v; want it unmarked", info.Hinted, err)
	}
}
