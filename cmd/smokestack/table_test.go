package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
)

// The restart tests seat people at a table over real SSH, speaking the
// `play` protocol of docs/protocol.md, and play one move at a time by a
// fixed rule, so that a game is the same on every run whatever happens to
// the server or the connections in between.

// playLine is one line a `play` session prints: an update, an ok or an error.
type playLine struct {
	lobby.Update
	Error string `json:"error"`
	OK    bool   `json:"ok"`
}

// player is a person: a name and a key, which is all it takes to get a
// seat back.
type player struct {
	name string
	key  gossh.Signer
	seat int

	nc     net.Conn // under client, so the test can cut it
	client *gossh.Client
	in     io.WriteCloser
	lines  chan playLine // nil while away; closed when the session ends
	last   playLine      // the newest update
}

// table is a room and the people at it, with the game they play kept
// alongside in the pure engine.
type table struct {
	t       *testing.T
	addr    string
	hostKey gossh.PublicKey // the server's, demanded again after a restart
	code    string
	seats   []*player

	// ref is the game the server should have: the seed and every move the
	// server acknowledged, applied by the engine with no server, store or
	// restart in between. It is the uninterrupted run the tests compare
	// against; computing it in-process rather than by a second server run
	// keeps the comparison independent of the code under test, deterministic
	// and cheap.
	ref factories.State
	// check compares a player's newest view with the reference's.
	check  func(p *player)
	moves  int
	next   int          // the seat asked first for the next move
	worked map[int]bool // seats that did more than "done" in this work phase
}

// newTable creates a room for len(names) seats with seed and seats each
// name in order through `play`, waiting until the game has started.
func newTable(t *testing.T, addr string, seed uint64, names ...string) *table {
	t.Helper()
	ref, err := factories.New(factories.Config{Players: len(names), Undo: true}, seed) // as rooms play it
	if err != nil {
		t.Fatal(err)
	}
	tb := openTable(t, addr, fmt.Sprintf("new --players %d --seed %d", len(names), seed), names...)
	tb.ref, tb.check = ref, tb.checkView
	tb.sync()
	return tb
}

// openTable creates a room with the exec command create (`new …`) and
// seats each name in order through `play`, one seat each.
func openTable(t *testing.T, addr, create string, names ...string) *table {
	t.Helper()
	tb := &table{t: t, addr: addr, worked: map[int]bool{}}
	var people []*player
	for _, name := range names {
		people = append(people, &player{name: name, key: newClientKey(t), seat: -1})
	}
	tb.dial(people[0])
	sess, err := people[0].client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sess.Output(create)
	if err != nil {
		t.Fatalf("%s: %v", create, err)
	}
	tb.code = strings.TrimSpace(string(out))
	tb.seats = make([]*player, len(names))
	for _, p := range people {
		tb.sitDown(p)
		if tb.seats[p.seat] != nil {
			t.Fatalf("%s and %s both got seat %d", tb.seats[p.seat].name, p.name, p.seat)
		}
		tb.seats[p.seat] = p
	}
	return tb
}

// dial connects p's SSH client, keeping the TCP connection under it.
func (tb *table) dial(p *player) {
	tb.t.Helper()
	nc, err := net.DialTimeout("tcp", tb.addr, 10*time.Second)
	if err != nil {
		tb.t.Fatal(err)
	}
	hostKey := func(_ string, _ net.Addr, k gossh.PublicKey) error {
		if tb.hostKey == nil {
			tb.hostKey = k
		} else if !bytes.Equal(k.Marshal(), tb.hostKey.Marshal()) {
			return fmt.Errorf("the host key changed")
		}
		return nil
	}
	nc.SetDeadline(time.Now().Add(15 * time.Second)) // for the handshake only
	cc, chans, reqs, err := gossh.NewClientConn(nc, tb.addr, &gossh.ClientConfig{
		User: p.name, Auth: []gossh.AuthMethod{gossh.PublicKeys(p.key)}, HostKeyCallback: hostKey,
	})
	if err != nil {
		nc.Close()
		tb.t.Fatalf("%s: ssh: %v", p.name, err)
	}
	nc.SetDeadline(time.Time{})
	client := gossh.NewClient(cc, chans, reqs)
	p.nc, p.client = nc, client
	tb.t.Cleanup(func() { client.Close() })
}

// sitDown starts `play CODE` for p, dialling first if p has no connection,
// and reads the update that says which seat p holds.
func (tb *table) sitDown(p *player) {
	t := tb.t
	t.Helper()
	if p.client == nil {
		tb.dial(p)
	}
	sess, err := p.client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if p.in, err = sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Start("play " + tb.code); err != nil {
		t.Fatal(err)
	}
	lines := make(chan playLine, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var l playLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				l.Error = fmt.Sprintf("test: line is not JSON: %v: %q", err, sc.Text())
			}
			lines <- l
		}
	}()
	p.lines = lines
	first := tb.await(p, "an update", func(playLine) bool { return true })
	if p.seat >= 0 && first.Seat != p.seat {
		t.Fatalf("%s came back to seat %d, not their seat %d", p.name, first.Seat, p.seat)
	}
	p.seat = first.Seat
}

// restart kills srv with SIGKILL, lets every session end, starts the
// server again on dir and sits everyone back down: each must land in their
// own seat at the version acknowledged before the kill, seeing the view
// the reference shows it.
func (tb *table) restart(srv *serveProcess, dir string) {
	t := tb.t
	t.Helper()
	srv.kill(t)
	for _, p := range tb.seats {
		tb.leave(p) // the server is gone: every session ends
	}
	tb.addr = startServeProcess(t, dir).addr
	for _, p := range tb.seats {
		tb.sitDown(p) // fails unless p lands in their own seat
		if p.last.Version != tb.moves {
			t.Fatalf("%s is back at version %d; %d moves were acknowledged before the kill", p.name, p.last.Version, tb.moves)
		}
	}
	tb.sync()
}

// leave waits for p's session to end, its connection cut by the test or
// the server, and leaves p away, to sit down again with a new connection.
func (tb *table) leave(p *player) {
	tb.t.Helper()
	timeout := time.After(15 * time.Second)
	for open := true; open; {
		select {
		case _, open = <-p.lines:
		case <-timeout:
			tb.t.Fatalf("%s's session did not end with its connection", p.name)
		}
	}
	p.client.Close()
	p.client, p.lines = nil, nil
}

// await reads p's lines until one that is an update or an ok satisfies ok,
// keeping the newest update; an error line or the session ending fails.
func (tb *table) await(p *player, what string, ok func(playLine) bool) playLine {
	t := tb.t
	t.Helper()
	timeout := time.After(15 * time.Second)
	for {
		select {
		case l, open := <-p.lines:
			switch {
			case !open:
				t.Fatalf("%s's session ended while waiting for %s; last update at version %d", p.name, what, p.last.Version)
			case l.Error != "":
				t.Fatalf("%s got %q while waiting for %s", p.name, l.Error, what)
			case !l.OK:
				p.last = l
			}
			if ok(l) {
				return l
			}
		case <-timeout:
			t.Fatalf("%s: timed out waiting for %s; last update at version %d", p.name, what, p.last.Version)
		}
	}
}

// present lists the seats whose players are connected, in seat order.
func (tb *table) present() []*player {
	return slices.DeleteFunc(slices.Clone(tb.seats), func(p *player) bool { return p.lines == nil })
}

// sync waits until every present player has seen the current version and
// checks (check) that each sees exactly what its seat sees of the
// reference game.
func (tb *table) sync() {
	tb.t.Helper()
	for _, p := range tb.present() {
		if p.last.Version != tb.moves || len(p.last.View) == 0 {
			tb.await(p, fmt.Sprintf("version %d", tb.moves), func(l playLine) bool {
				return !l.OK && l.Version == tb.moves && len(l.View) > 0
			})
		}
		tb.check(p)
	}
}

// checkView compares p's newest view with the reference game's view of p's
// seat, both normalised through JSON.
func (tb *table) checkView(p *player) {
	tb.t.Helper()
	var got factories.View
	if err := json.Unmarshal(p.last.View, &got); err != nil {
		tb.t.Fatalf("%s: view: %v", p.name, err)
	}
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(factories.ViewOf(tb.ref, p.seat))
	if !bytes.Equal(gotJSON, wantJSON) {
		tb.t.Fatalf("%s (seat %d) at version %d sees\n%s\nbut the same moves without interruption give\n%s",
			p.name, p.seat, tb.moves, gotJSON, wantJSON)
	}
}

// step plays one move: the first present seat from next on with legal
// moves chooses by the rule, the server acknowledges it, and every present
// player sees it. It reports whether a move was played.
func (tb *table) step() bool {
	t := tb.t
	t.Helper()
	n := len(tb.seats)
	var p *player
	var view factories.View
	for i := range n {
		q := tb.seats[(tb.next+i)%n]
		if q.lines == nil {
			continue
		}
		view = factories.View{}
		if err := json.Unmarshal(q.last.View, &view); err != nil {
			t.Fatal(err)
		}
		if len(view.Legal) > 0 {
			p = q
			break
		}
	}
	if p == nil {
		return false
	}
	m := choose(view.Legal)
	if tb.ref.Phase != factories.WorkPhase {
		clear(tb.worked)
	} else if m.Kind != factories.Done {
		tb.worked[p.seat] = true
	}
	raw, _ := json.Marshal(m)
	if _, err := p.in.Write(append(raw, '\n')); err != nil {
		t.Fatalf("%s: send %s: %v", p.name, raw, err)
	}
	u := tb.await(p, fmt.Sprintf("the update for %s", raw), func(l playLine) bool { return !l.OK && l.Version > tb.moves })
	if u.Version != tb.moves+1 {
		t.Fatalf("%s played %s at version %d and the server went to version %d", p.name, raw, tb.moves, u.Version)
	}
	if !u.Room.Over { // after the last move the server may end the session instead
		tb.await(p, "ok", func(l playLine) bool { return l.OK })
	}
	next, _, err := factories.Apply(tb.ref, p.seat, m)
	if err != nil {
		t.Fatalf("the server accepted %s from seat %d, the engine refuses it: %v", raw, p.seat, err)
	}
	tb.ref, tb.moves, tb.next = next, tb.moves+1, (p.seat+1)%n
	tb.sync()
	return true
}

// playUntil plays until done reports true, failing if the game ends or
// stalls first.
func (tb *table) playUntil(what string, done func() bool) {
	tb.t.Helper()
	for !done() {
		if tb.ref.Phase == factories.GameOver || !tb.step() {
			tb.t.Fatalf("never reached %s: %d moves, phase %s", what, tb.moves, tb.ref.Phase)
		}
	}
}

// midWork reports whether the game stands in the middle of a work phase:
// some seats done, and some not done that have already made moves in it.
func (tb *table) midWork() bool {
	if tb.ref.Phase != factories.WorkPhase {
		return false
	}
	done, working := 0, 0
	for seat, p := range tb.ref.Players {
		switch {
		case p.Done:
			done++
		case tb.worked[seat]:
			working++
		}
	}
	return done > 0 && working > 0
}

// finish plays to the end and checks the final scores everyone was shown
// against the uninterrupted game's.
func (tb *table) finish() {
	t := tb.t
	t.Helper()
	tb.playUntil("the end of the game", func() bool { return tb.ref.Phase == factories.GameOver })
	want := factories.Scores(tb.ref)
	for _, p := range tb.seats {
		var v factories.View
		if err := json.Unmarshal(p.last.View, &v); err != nil {
			t.Fatal(err)
		}
		if !p.last.Room.Over || !slices.Equal(v.Scores, want) {
			t.Errorf("%s's last update: over %v, scores %+v; want %+v", p.name, p.last.Room.Over, v.Scores, want)
		}
	}
	t.Logf("room %s over after %d moves, %d rounds; scores %+v", tb.code, tb.moves, tb.ref.Round, want)
}

// ruleOrder is the fixed rule every seat plays by: the first legal move of
// the earliest kind here. It is not good play, but it is deterministic and
// ends a game in a few hundred moves.
var ruleOrder = []factories.MoveKind{
	factories.Build, factories.Activate, factories.Choose, factories.SetDice, factories.DiscardDown,
	factories.Place, factories.Take, factories.Hire, factories.Pass, factories.Done,
}

func choose(legal []factories.Move) factories.Move {
	rank := func(m factories.Move) int {
		if i := slices.Index(ruleOrder, m.Kind); i >= 0 {
			return i
		}
		return len(ruleOrder) // a kind this rule does not know: last
	}
	return slices.MinFunc(legal, func(a, b factories.Move) int { return rank(a) - rank(b) })
}
