package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/bolt"
)

// soakEnv, when set to a duration ("3m"), runs TestSoak for that long;
// .ci/run does. Without it the test is skipped.
const soakEnv = "SMOKESTACK_SOAK"

// soakSlot is a place at which games are played one after another: the
// rooms it has had, and what the players saw in them.
type soakSlot struct {
	mu    sync.Mutex
	seats int
	seed  uint64
	codes []string // every room the slot has had; the last is in play
	// seen is, per room, the last update each player was shown.
	seen map[string]map[string]playLine
}

func (s *soakSlot) current() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.codes) == 0 {
		return ""
	}
	return s.codes[len(s.codes)-1]
}

func (s *soakSlot) saw(code, who string, l playLine) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[code] == nil {
		s.seen[code] = map[string]playLine{}
	}
	s.seen[code][who] = l
}

// TestSoak lets random clients loose on a real server for SMOKESTACK_SOAK:
// legal and illegal moves, garbage, dropped connections, and a SIGTERM
// restart halfway. Then every room's stored log, replayed by the engine
// alone, must give each player exactly the view they were last shown.
func TestSoak(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv(soakEnv))
	if err != nil || d <= 0 {
		t.Skipf("set %s=3m (a duration) to run the soak", soakEnv)
	}
	dir := filepath.Join(t.TempDir(), "data")
	srv := startServeProcess(t, dir)
	var addr atomic.Value
	addr.Store(srv.addr)

	slots := []*soakSlot{{seats: 2, seed: 1}, {seats: 3, seed: 2}, {seats: 2, seed: 3}, {seats: 4, seed: 4}}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var wg sync.WaitGroup
	var stats soakStats
	for i, slot := range slots {
		slot.seen = map[string]map[string]playLine{}
		for seat := range slot.seats {
			c := &soakClient{t: t, name: fmt.Sprintf("p%d-%d", i, seat), slot: slot, addr: &addr, stats: &stats,
				rnd: rand.New(rand.NewPCG(uint64(i), uint64(seat))), host: seat == 0}
			c.key = newClientKey(t)
			wg.Go(func() { c.run(ctx) })
		}
	}
	// Halfway: a restart, as a deploy does it.
	select {
	case <-time.After(d / 2):
	case <-ctx.Done():
	}
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-srv.exited:
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop within 30s of SIGTERM")
	}
	if !srv.cmd.ProcessState.Success() {
		t.Fatalf("the server exited with %v:\n%s", srv.cmd.ProcessState, srv.logs)
	}
	srv = startServeProcess(t, dir)
	addr.Store(srv.addr)
	wg.Wait()
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-srv.exited
	if strings.Contains(srv.logs.String(), "panic") {
		t.Errorf("a panic in the server's log:\n%s", srv.logs)
	}

	st, err := bolt.Open(filepath.Join(dir, "rooms.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	checked := 0
	for _, slot := range slots {
		for code, seen := range slot.seen {
			checked += checkReplay(t, st, code, seen)
		}
	}
	t.Logf("soak %s: %d moves played, %d refused, %d garbage lines, %d drops, %d rooms, %d players' last views replayed",
		d, stats.moves.Load(), stats.refused.Load(), stats.garbage.Load(), stats.drops.Load(), len(slots)+int(stats.rooms.Load()), checked)
	if stats.moves.Load() == 0 || stats.drops.Load() == 0 || checked == 0 {
		t.Error("the soak did too little to show anything")
	}
}

type soakStats struct {
	moves, refused, garbage, drops, rooms atomic.Int64
}

// checkReplay replays room code's stored log and compares each player's
// last view with the engine's at that version; it returns how many.
func checkReplay(t *testing.T, st store.Store, code string, seen map[string]playLine) int {
	t.Helper()
	meta, moves, err := st.Load(context.Background(), code, 0)
	if err != nil {
		t.Errorf("room %s: %v", code, err)
		return 0
	}
	rules := factories.Rules
	views := map[int]map[int]json.RawMessage{} // version -> seat -> view
	want := map[int]bool{}
	for _, l := range seen {
		if len(l.View) > 0 {
			want[l.Version] = true
		}
	}
	if !meta.Started {
		return 0
	}
	state, err := rules.New(len(meta.Seats), meta.Options, meta.Seed)
	if err != nil {
		t.Fatalf("room %s: %v", code, err)
	}
	record := func(v int) {
		if !want[v] {
			return
		}
		views[v] = map[int]json.RawMessage{}
		for seat := range meta.Seats {
			views[v][seat], _ = rules.View(state, seat)
		}
	}
	record(0)
	for i, rec := range moves {
		if state, _, err = rules.Apply(state, rec.Seat, rec.Move); err != nil {
			t.Fatalf("room %s: stored move %d does not replay: %v", code, i, err)
		}
		record(i + 1)
	}
	n := 0
	for who, l := range seen {
		if len(l.View) == 0 {
			continue
		}
		if l.Version > len(moves) {
			t.Errorf("room %s: %s saw version %d, but only %d moves are stored", code, who, l.Version, len(moves))
			continue
		}
		var got, exp any
		json.Unmarshal(l.View, &got)
		json.Unmarshal(views[l.Version][l.Seat], &exp)
		if !reflect.DeepEqual(got, exp) {
			t.Errorf("room %s: %s's last view (seat %d, version %d) is not what the stored log replays to", code, who, l.Seat, l.Version)
		}
		n++
	}
	return n
}

// soakClient is one random player.
type soakClient struct {
	t     *testing.T
	name  string
	key   gossh.Signer
	slot  *soakSlot
	addr  *atomic.Value
	stats *soakStats
	rnd   *rand.Rand
	host  bool // creates the slot's rooms
}

func (c *soakClient) run(ctx context.Context) {
	for ctx.Err() == nil {
		c.visit(ctx)
		time.Sleep(time.Duration(c.rnd.IntN(200)) * time.Millisecond) // paces the load: a player's pause between visits
	}
}

// visit is one connection: sit down, play randomly, and leave by the game
// ending, a drop, or the server going.
func (c *soakClient) visit(ctx context.Context) {
	nc, err := net.DialTimeout("tcp", c.addr.Load().(string), 5*time.Second)
	if err != nil {
		return
	}
	defer nc.Close()
	cc, chans, reqs, err := gossh.NewClientConn(nc, "soak", &gossh.ClientConfig{User: c.name,
		Auth: []gossh.AuthMethod{gossh.PublicKeys(c.key)}, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		return
	}
	client := gossh.NewClient(cc, chans, reqs)
	defer client.Close()
	code := c.slot.current()
	if c.host && (code == "" || c.over(code)) {
		out, err := runOn(client, fmt.Sprintf("new --players %d --seed %d", c.slot.seats, c.slot.seed+uint64(c.rnd.IntN(1000))))
		if err != nil {
			return
		}
		code = strings.TrimSpace(out)
		c.slot.mu.Lock()
		c.slot.codes = append(c.slot.codes, code)
		c.slot.mu.Unlock()
		c.stats.rooms.Add(1)
	}
	if code == "" {
		return
	}
	sess, err := client.NewSession()
	if err != nil {
		return
	}
	defer sess.Close()
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	if sess.Start("play "+code) != nil {
		return
	}
	lines := make(chan playLine, 16)
	go func() {
		defer close(lines)
		dec := json.NewDecoder(out)
		for {
			var l playLine
			if dec.Decode(&l) != nil {
				return
			}
			lines <- l
		}
	}()
	var l playLine   // the newest update
	pending := false // a line is out, until its ok or error comes
	for {
		var next playLine
		var ok bool
		select {
		case next, ok = <-lines:
		case <-ctx.Done():
			return
		}
		if !ok {
			return
		}
		switch {
		case next.OK:
			pending = false
		case next.Error != "":
			// A stale or illegal move, or garbage: choose again from the
			// newest view, or the table could wait on this seat forever.
			pending = false
			c.stats.refused.Add(1)
		default:
			l = next
			c.slot.saw(code, c.name, l)
		}
		if l.Room.Over {
			return
		}
		if pending || len(lines) > 0 {
			continue // act once the answer is in, on the newest view
		}
		var v factories.View
		json.Unmarshal(l.View, &v)
		switch r := c.rnd.Float64(); {
		case r < 0.02: // the network drops, no goodbye
			c.stats.drops.Add(1)
			if tc, ok := nc.(*net.TCPConn); ok {
				tc.SetLinger(0)
			}
			return
		case r < 0.08: // garbage and illegal moves
			c.stats.garbage.Add(1)
			junk := []string{`{"kind":`, "\xff\xfe\x00", `{"kind":"build","card":999}`, `{"kind":"pass","seat":3}`, `[]`, strings.Repeat("z", 200)}
			in.Write([]byte(junk[c.rnd.IntN(len(junk))] + "\n"))
			pending = true
		case len(v.Legal) > 0:
			b, _ := json.Marshal(v.Legal[c.rnd.IntN(len(v.Legal))])
			in.Write(append(b, '\n'))
			c.stats.moves.Add(1)
			pending = true
		}
	}
}

// over reports whether the players saw room code end.
func (c *soakClient) over(code string) bool {
	c.slot.mu.Lock()
	defer c.slot.mu.Unlock()
	for _, l := range c.slot.seen[code] {
		if l.Room.Over {
			return true
		}
	}
	return false
}

func runOn(client *gossh.Client, cmd string) (string, error) {
	s, err := client.NewSession()
	if err != nil {
		return "", err
	}
	defer s.Close()
	out, err := s.Output(cmd)
	return string(out), err
}
