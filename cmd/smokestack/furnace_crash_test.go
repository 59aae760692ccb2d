package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
)

// rulesTable is a table whose reference game is kept through the game's
// engine.Ruleset, as rooms keep it, so it plays any game: each seat picks
// from its view's legal moves by a fixed rule, and every view is checked
// against the Ruleset's own view of the same seed and moves.
type rulesTable struct {
	*table
	rules engine.Ruleset
	state engine.State
}

// newRulesTable creates a room of rules' game for len(names) seats with
// seed and options (flags for `new`, and the same as JSON for the
// reference), seats each name in order and checks the first views.
func newRulesTable(t *testing.T, addr string, rules engine.Ruleset, seed uint64, flags string, options json.RawMessage, names ...string) *rulesTable {
	t.Helper()
	state, err := rules.New(len(names), options, seed)
	if err != nil {
		t.Fatal(err)
	}
	create := fmt.Sprintf("new --game %s --players %d --seed %d %s", rules.Name(), len(names), seed, flags)
	rt := &rulesTable{table: openTable(t, addr, create, names...), rules: rules, state: state}
	rt.check = rt.checkView
	rt.sync()
	return rt
}

// checkView compares p's newest view with the reference's view of p's
// seat, both normalised through JSON.
func (rt *rulesTable) checkView(p *player) {
	rt.t.Helper()
	want, err := rt.rules.View(rt.state, p.seat)
	if err != nil {
		rt.t.Fatal(err)
	}
	if got, want := normal(rt.t, p.last.View), normal(rt.t, want); !bytes.Equal(got, want) {
		rt.t.Fatalf("%s (seat %d) at version %d sees\n%s\nbut the same moves without interruption give\n%s", p.name, p.seat, rt.moves, got, want)
	}
}

func normal(t *testing.T, data json.RawMessage) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return out
}

// step plays one move: the first present seat from next on with legal
// moves picks one by the fixed rule, the server acknowledges it, and every
// present player sees it. It reports whether a move was played.
func (rt *rulesTable) step() bool {
	t := rt.t
	t.Helper()
	n := len(rt.seats)
	for i := range n {
		p := rt.seats[(rt.next+i)%n]
		if p.lines == nil {
			continue
		}
		var view struct{ Legal []json.RawMessage }
		if err := json.Unmarshal(p.last.View, &view); err != nil {
			t.Fatal(err)
		}
		if len(view.Legal) == 0 {
			continue
		}
		// Not good play, but varied and the same on every run.
		m := view.Legal[(rt.moves*7)%len(view.Legal)]
		if _, err := p.in.Write(append(append([]byte{}, m...), '\n')); err != nil {
			t.Fatalf("%s: send %s: %v", p.name, m, err)
		}
		u := rt.await(p, fmt.Sprintf("the update for %s", m), func(l playLine) bool { return !l.OK && l.Version > rt.moves })
		if u.Version != rt.moves+1 {
			t.Fatalf("%s played %s at version %d and the server went to version %d", p.name, m, rt.moves, u.Version)
		}
		if !u.Room.Over {
			rt.await(p, "ok", func(l playLine) bool { return l.OK })
		}
		next, _, err := rt.rules.Apply(rt.state, p.seat, m)
		if err != nil {
			t.Fatalf("the server accepted %s from seat %d, the engine refuses it: %v", m, p.seat, err)
		}
		rt.state, rt.moves, rt.next = next, rt.moves+1, (p.seat+1)%n
		rt.sync()
		return true
	}
	return false
}

// status is the reference game's status.
func (rt *rulesTable) status() engine.Status {
	st, err := rt.rules.Status(rt.state)
	if err != nil {
		rt.t.Fatal(err)
	}
	return st
}

// playUntil plays until done reports true, failing if the game ends or
// stalls first.
func (rt *rulesTable) playUntil(what string, done func() bool) {
	rt.t.Helper()
	for !done() {
		if rt.status().Over || !rt.step() {
			rt.t.Fatalf("never reached %s: %d moves", what, rt.moves)
		}
	}
}

// finish plays to the end: every player's last update is the room over,
// with the view (and so the scores) of the uninterrupted game.
func (rt *rulesTable) finish() {
	rt.t.Helper()
	rt.playUntil("the end of the game", func() bool { return rt.status().Over })
	for _, p := range rt.seats {
		if !p.last.Room.Over {
			rt.t.Errorf("%s's last update is not the game over", p.name)
		}
	}
	rt.t.Logf("room %s over after %d moves; result %+v", rt.code, rt.moves, rt.status().Result)
}

// A server killed with SIGKILL in the middle of a Furnace auction (round
// 2, discs on the market, the Agent's among them) loses nothing: restarted
// on the same data directory it takes the same keys back to the same seats
// at the same version and view, and the game ends exactly as the same
// moves end it uninterrupted.
func TestSIGKILLMidFurnaceAuction(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	srv := startServeProcess(t, dir)
	rt := newRulesTable(t, srv.addr, furnace.Rules, 17, "--capitalists on", json.RawMessage(`{"capitalists":"on"}`), "alice", "bob")
	midAuction := func() bool {
		s, ok := rt.state.(furnace.State)
		if !ok {
			t.Fatalf("the reference game holds %T", rt.state)
		}
		agent := false
		for _, l := range s.Market {
			for _, d := range l.Discs {
				agent = agent || d.Seat == furnace.AgentSeat
			}
		}
		return s.Phase == furnace.AuctionPhase && s.Round == 2 && agent && s.Placed%2 == 1
	}
	rt.playUntil("the middle of the second auction", midAuction)
	rt.restart(srv, dir)
	if !midAuction() {
		t.Fatal("the restarted game is no longer mid-auction")
	}
	rt.finish()
}
