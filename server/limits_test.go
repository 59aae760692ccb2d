package server

import (
	"bytes"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/lobby"
)

// withLimits starts a server with lim instead of no limits.
func withLimits(lim Limits) func(*Server) {
	return func(s *Server) {
		s.cfg.Limits = lim
		s.gate = newGate(lim)
	}
}

// refusals is how many times the server refused for reason.
func (s *Server) refusals(reason string) int {
	var m dto.Metric
	if err := s.metrics.refusals.WithLabelValues(reason).Write(&m); err != nil {
		panic(err)
	}
	return int(m.GetCounter().GetValue())
}

// tryDial connects with key and returns the client, or the error and the
// banner the server sent before refusing.
func tryDial(addr string, key gossh.Signer) (*gossh.Client, string, error) {
	var mu sync.Mutex
	var banner strings.Builder
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: "alice", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second,
		BannerCallback: func(msg string) error {
			mu.Lock()
			defer mu.Unlock()
			banner.WriteString(msg)
			return nil
		},
	})
	mu.Lock()
	defer mu.Unlock()
	return c, banner.String(), err
}

// mustRefuse dials and expects a refusal that says want.
func mustRefuse(t *testing.T, addr string, key gossh.Signer, want string) {
	t.Helper()
	c, banner, err := tryDial(addr, key)
	if err == nil {
		c.Close()
		t.Fatalf("connected; want a refusal saying %q", want)
	}
	if !strings.Contains(banner, want) {
		t.Fatalf("refused (%v) with banner %q; want it to say %q", err, banner, want)
	}
}

// TCP connections that never start the handshake, or stop halfway, are
// dropped at the deadline, and the slots they held are free again.
func TestHandshakeDeadline(t *testing.T) {
	srv := startServer(t, withLimits(Limits{HandshakeTimeout: 300 * time.Millisecond, ConnsPerAddr: 3}))
	var conns []net.Conn
	for i := range 6 {
		c, err := net.Dial("tcp", srv.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if i%2 == 1 { // these stop after the version line
			io.WriteString(c, "SSH-2.0-stalling\r\n")
		}
		conns = append(conns, c)
	}
	for i, c := range conns {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err := io.Copy(io.Discard, c) // ends when the server closes
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("connection %d still open after 5s", i)
		}
	}
	waitUntil(t, "the dropped connections' slots to be freed", func() bool {
		srv.gate.mu.Lock()
		defer srv.gate.mu.Unlock()
		return srv.gate.addrs["127.0.0.1"].conns == 0
	})
	// The deadline counts the connections that were not refused first:
	// three of six were over the address's limit.
	waitUntil(t, "six handshake timeouts counted", func() bool { return srv.refusals("handshake_timeout") == 6 })
	// A real client finishes in time and, holding a session, is not cut
	// afterwards (one that holds none is: TestFirstSessionDeadline,
	// TestConnectionWithoutSessionsCloses).
	c := dialKey(t, srv.addr, "alice", newKey(t))
	if r := run(t, c, "whoami", ""); r.status != 0 {
		t.Fatalf("whoami: %+v", r)
	}
	hold, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	// A connection opened after c's and stalling is dropped at its
	// deadline: c's, which began earlier, has passed by then too.
	stall, err := net.Dial("tcp", srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer stall.Close()
	stall.SetReadDeadline(time.Now().Add(5 * time.Second))
	var ne net.Error
	if _, err := io.Copy(io.Discard, stall); errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("a stalling connection still open after 5s")
	}
	if r := run(t, c, "whoami", ""); r.status != 0 {
		t.Errorf("whoami after the deadline passed: %+v", r)
	}
}

// A connection that authenticates and then opens no session is dropped
// when the handshake deadline has passed again, not an idle timeout
// later; one that opened a session in time is not.
func TestFirstSessionDeadline(t *testing.T) {
	srv := startServer(t, withLimits(Limits{HandshakeTimeout: 300 * time.Millisecond}))
	idle := dialKey(t, srv.addr, "alice", newKey(t))
	ended := make(chan error, 1)
	go func() { ended <- idle.Wait() }()
	busy := dialKey(t, srv.addr, "bob", newKey(t))
	hold, err := busy.NewSession() // held open: see TestConnectionWithoutSessionsCloses
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	if r := run(t, busy, "whoami", ""); r.status != 0 {
		t.Fatalf("whoami: %+v", r)
	}
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("a connection without a session is still open after 5s")
	}
	if n := srv.refusals("no_session"); n != 1 {
		t.Errorf("%d no_session refusals counted, want 1", n)
	}
	if r := run(t, busy, "whoami", ""); r.status != 0 {
		t.Errorf("a connection that opened a session in time, later: %+v", r)
	}
}

func TestConnectionsPerAddress(t *testing.T) {
	srv := startServer(t, withLimits(Limits{ConnsPerAddr: 2}))
	key := newKey(t)
	a := dialKey(t, srv.addr, "alice", key)
	dialKey(t, srv.addr, "alice", newKey(t))
	mustRefuse(t, srv.addr, newKey(t), "too many connections from your address; try again in a minute")
	a.Close()
	waitUntil(t, "a slot to free up", func() bool {
		c, _, err := tryDial(srv.addr, key)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	if srv.refusals("conns_per_addr") == 0 {
		t.Error("the refusal was not counted")
	}
}

func TestConnectionRate(t *testing.T) {
	srv := startServer(t, withLimits(Limits{ConnRate: 3}))
	key := newKey(t)
	for range 3 {
		c, _, err := tryDial(srv.addr, key)
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
	}
	mustRefuse(t, srv.addr, key, "too many new connections from your address; try again in a minute")
	if n := srv.refusals("conn_rate"); n != 1 {
		t.Errorf("%d rate refusals counted, want 1", n)
	}
}

func TestConnectionsPerKey(t *testing.T) {
	srv := startServer(t, withLimits(Limits{ConnsPerKey: 2}))
	key := newKey(t)
	for range 2 {
		c := dialKey(t, srv.addr, "alice", key)
		if r := run(t, c, "whoami", ""); r.status != 0 {
			t.Fatal(r)
		}
	}
	third := dialKey(t, srv.addr, "alice", key)
	r := run(t, third, "whoami", "")
	if r.status != 1 || !strings.Contains(r.stderr, "too many connections with your key") {
		t.Errorf("a third connection with one key: %+v", r)
	}
	other := dialKey(t, srv.addr, "bob", newKey(t))
	if r := run(t, other, "whoami", ""); r.status != 0 {
		t.Errorf("another key: %+v", r)
	}
}

func TestSessionsLimit(t *testing.T) {
	srv := startServer(t, withLimits(Limits{Sessions: 2}))
	c := dialKey(t, srv.addr, "alice", newKey(t))
	code := strings.TrimSpace(run(t, c, "new --players 3", "").stdout)
	for range 2 {
		st := startPlay(t, c, "play "+code+" --watch")
		<-st.lines
	}
	// Refused as its channel opens, as OpenSSH prints it: "channel 2:
	// open failed: resource shortage: the server is full right now; …".
	if _, err := c.NewSession(); err == nil || !strings.Contains(err.Error(), "the server is full right now; try again in a few minutes") {
		t.Errorf("a third session: %v", err)
	}
}

// A line too long for play, with a newline or without one ever coming,
// ends that session with a clear error; the room goes on.
func TestMaxLine(t *testing.T) {
	srv := startServer(t, withLimits(Limits{MaxLine: 1024}))
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --players 2 --seed 9", "").stdout)
	r := run(t, alice, "play "+code, strings.Repeat("x", 10<<20)+"\n")
	if r.status != 1 || !strings.Contains(r.stdout, "a line longer than 1024 bytes") || !strings.Contains(r.stderr, "this session ends here") {
		t.Errorf("a 10 MB line: %+v", r)
	}
	// A line that never ends, from a client that keeps its input open.
	endless := startPlay(t, alice, "play "+code)
	endless.in.Write([]byte(strings.Repeat(`{"kind":`, 300)))
	var last line
	for l := range endless.lines {
		last = l
	}
	if !strings.Contains(last.Error, "a line longer than 1024 bytes") {
		t.Errorf("an endless line: the session ended with %+v", last)
	}
	b := startPlay(t, bob, "play "+code)
	a := startPlay(t, alice, "play "+code)
	for l := range b.lines {
		if l.Room.Started {
			break
		}
	}
	a.in.Close()
	if n := srv.refusals("line_too_long"); n != 2 {
		t.Errorf("%d long lines counted, want 2", n)
	}
}

// Input past the rate waits, and meanwhile the server answers everyone
// else at once.
func TestInputRate(t *testing.T) {
	srv := startServer(t, withLimits(Limits{InputRate: 2000}))
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --players 2", "").stdout)
	flood := startPlay(t, alice, "play "+code)
	<-flood.lines
	go flood.in.Write(bytes.Repeat([]byte(" \n"), 10_000)) // 20 kB: 8 kB at once, then 2 kB a second
	waitUntil(t, "the flood to be slowed", func() bool { return srv.refusals("input_rate") == 1 })
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	if r := run(t, bob, "rooms", ""); r.status != 0 || !strings.Contains(r.stdout, code) {
		t.Errorf("rooms during the flood: %+v", r)
	}
}

// Rooms per key per hour and open rooms per key, as `new` meets them.
func TestRoomLimits(t *testing.T) {
	srv := startServerLimited(t, lobby.Limits{RoomsPerHour: 3, OpenRooms: 2})
	key := newKey(t)
	alice := lobby.Player{ID: gossh.FingerprintSHA256(key.PublicKey())}
	c := dialKey(t, srv.addr, "alice", key)
	var codes []string
	for range 2 {
		codes = append(codes, strings.TrimSpace(run(t, c, "new --private", "").stdout))
	}
	r := run(t, c, "new", "")
	if r.status != 1 || !strings.Contains(r.stderr, "you have 2 unfinished rooms, the most allowed") {
		t.Errorf("a third open room: %+v", r)
	}
	if err := srv.lobby.End(t.Context(), codes[0], alice); err != nil {
		t.Fatal(err)
	}
	if r := run(t, c, "new", ""); r.status != 0 {
		t.Fatalf("after ending one: %+v", r)
	}
	if err := srv.lobby.End(t.Context(), codes[1], alice); err != nil {
		t.Fatal(err)
	}
	r = run(t, c, "new", "")
	if r.status != 1 || !strings.Contains(r.stderr, "you created 3 rooms in the last hour") {
		t.Errorf("a fourth room in the hour: %+v", r)
	}
	if srv.refusals("open_rooms") != 1 || srv.refusals("rooms_per_hour") != 1 {
		t.Errorf("refusals counted: open %d, per hour %d", srv.refusals("open_rooms"), srv.refusals("rooms_per_hour"))
	}
}

// Moves over the rate wait: ten lines past a burst of twenty at ten a
// second take a second to be answered, and every one is.
func TestMoveRateOverSSH(t *testing.T) {
	srv := startServerLimited(t, lobby.Limits{MovesPerSecond: 10})
	c := dialKey(t, srv.addr, "alice", newKey(t))
	code := strings.TrimSpace(run(t, c, "new --players 2", "").stdout)
	st := startPlay(t, c, "play "+code)
	<-st.lines
	start := time.Now()
	st.in.Write([]byte(strings.Repeat(`{"kind":"pass"}`+"\n", 30)))
	for i := range 30 { // refused by the rules: the game has not started
		if l := <-st.lines; l.Error == "" {
			t.Fatalf("line %d: %+v", i, l)
		}
	}
	if took := time.Since(start); took < 950*time.Millisecond {
		t.Errorf("thirty moves at ten a second, bursts of twenty, answered in %s", took)
	}
}

// Guests have a new identity on every connection, so their room quotas
// count by address: a guest from one address making a room on each new
// connection is refused past the quota, while a guest elsewhere and a
// player with a key at the same address have their own.
func TestGuestRoomLimits(t *testing.T) {
	srv := startServerLimited(t, lobby.Limits{RoomsPerHour: 3, OpenRooms: 2}, withLimits(Limits{ConnsPerAddr: 50}))
	guestNew := func(from int) result {
		t.Helper()
		c, err := dialGuestFrom(srv.addr, from)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return run(t, c, "new --private", "")
	}
	for i := range 2 {
		if r := guestNew(0); r.status != 0 {
			t.Fatalf("guest room %d: %+v", i+1, r)
		}
	}
	r := guestNew(0)
	if r.status != 1 || !strings.Contains(r.stderr, "guests from your address have 2 unfinished rooms, the most allowed") {
		t.Errorf("a third open room by a guest from the same address, on a new connection: %+v", r)
	}
	if r := guestNew(1); r.status != 0 {
		t.Errorf("a guest from another address: %+v", r)
	}
	key, _, err := dialFrom(srv.addr, 0, newKey(t))
	if err != nil {
		t.Fatal(err)
	}
	defer key.Close()
	if r := run(t, key, "new --private", ""); r.status != 0 {
		t.Errorf("a player with a key at the guests' address: %+v", r)
	}
	if n := srv.refusals("open_rooms"); n != 1 {
		t.Errorf("%d open_rooms refusals counted, want 1", n)
	}
}

// dialGuestFrom connects as a guest (no key) from a loopback address of
// its own, as dialFrom does with a key.
func dialGuestFrom(addr string, from int) (*gossh.Client, error) {
	guest := gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })
	c, _, err := dialFromAs(addr, from, "visitor", guest)
	return c, err
}

// The move rate is the seat's, however many sessions hold it: two
// sessions of one key on one seat, each sending twenty lines at once, get
// twenty at once between them and the rest at the rate.
func TestMoveRatePerSeat(t *testing.T) {
	srv := startServerLimited(t, lobby.Limits{MovesPerSecond: 10})
	key := newKey(t)
	code := strings.TrimSpace(run(t, dialKey(t, srv.addr, "alice", key), "new --players 2", "").stdout)
	var seats []*stream
	for range 2 { // one connection each, as two terminals would
		st := startPlay(t, dialKey(t, srv.addr, "alice", key), "play "+code)
		if l := <-st.lines; l.Seat != 0 {
			t.Fatalf("alice's session sat at %+v", l)
		}
		seats = append(seats, st)
	}
	start := time.Now()
	for _, st := range seats {
		st.in.Write([]byte(strings.Repeat(`{"kind":"pass"}`+"\n", 20)))
	}
	for _, st := range seats {
		for i := range 20 { // refused by the rules: the game has not started
			if l := st.answer(t); !strings.Contains(l.Error, "the game starts when every seat is taken") {
				t.Fatalf("line %d: %+v", i, l)
			}
		}
	}
	// Twenty at once, twenty more at ten a second: two seconds, less a
	// tenth for the first of them.
	if took := time.Since(start); took < 1800*time.Millisecond {
		t.Errorf("forty moves for one seat from two sessions, at ten a second in bursts of twenty, answered in %s", took)
	}
}

// A move that would wait past a second for its seat's allowance is not
// played, and the player is told why; the session goes on.
func TestMoveRateRefusesPastASecond(t *testing.T) {
	srv := startServerLimited(t, lobby.Limits{MovesPerSecond: 0.5}) // one in two seconds, bursts of one
	c := dialKey(t, srv.addr, "alice", newKey(t))
	code := strings.TrimSpace(run(t, c, "new --players 2", "").stdout)
	st := startPlay(t, c, "play "+code)
	<-st.lines
	start := time.Now()
	st.in.Write([]byte(strings.Repeat(`{"kind":"pass"}`+"\n", 2)))
	if l := st.answer(t); !strings.Contains(l.Error, "the game starts when every seat is taken") {
		t.Fatalf("the first move: %+v", l)
	}
	if l := st.answer(t); l.Error != "too many moves: at most 0.5 a second; that one was not played" {
		t.Fatalf("a move two seconds early: %+v", l)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("the refusal took %s: a move past the allowance must not wait", took)
	}
	if n := srv.refusals("move_rate"); n != 1 {
		t.Errorf("%d move_rate refusals counted, want 1", n)
	}
	// Two seconds on, the seat has its allowance back. Time passes on
	// purpose here, waiting for nothing: the allowance refills on the real
	// clock, and a slow machine only lets more of it pass.
	time.Sleep(2 * time.Second)
	st.in.Write([]byte(`{"kind":"pass"}` + "\n"))
	if l := st.answer(t); !strings.Contains(l.Error, "the game starts when every seat is taken") {
		t.Errorf("a move after two seconds: %+v", l)
	}
}

// answer is the next answer to a move (ok or error), past the updates
// the room pushes meanwhile.
func (s *stream) answer(t *testing.T) line {
	t.Helper()
	for l := range s.lines {
		if l.OK || l.Error != "" {
			return l
		}
	}
	t.Fatal("the session ended before answering")
	return line{}
}

// attempt runs cmd on c as run does, but hands back a session the server
// refused to open, or a connection that ended, as an error.
func attempt(c *gossh.Client, cmd string) (result, error) {
	s, err := newSession(c)
	if err != nil {
		return result{}, err
	}
	defer s.Close()
	var out, errOut bytes.Buffer
	s.Stdout, s.Stderr = &out, &errOut
	err = s.Run(cmd)
	r := result{stdout: out.String(), stderr: errOut.String()}
	var exit *gossh.ExitError
	if errors.As(err, &exit) {
		r.status, err = exit.ExitStatus(), nil
	}
	return r, err
}

// A connection with no traffic either way is closed after IdleTimeout.
func TestIdleTimeout(t *testing.T) {
	srv := startServer(t, func(s *Server) { s.srv.IdleTimeout = 300 * time.Millisecond })
	c := dialKey(t, srv.addr, "alice", newKey(t))
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("an idle connection still open after 5s")
	}
}

// Sessions on one connection: past the number open at once, and past the
// number opened in a minute, a session is refused as it opens, saying why;
// another connection is not held back.
func TestSessionsPerConnection(t *testing.T) {
	srv := startServer(t, withLimits(Limits{SessionsPerConn: 2, SessionRate: 3}))
	c := dialKey(t, srv.addr, "alice", newKey(t))
	code := strings.TrimSpace(run(t, c, "new --players 2", "").stdout) // the first of three this minute
	held := startPlay(t, c, "play "+code+" --watch")
	<-held.lines
	other := startPlay(t, c, "play "+code+" --watch")
	<-other.lines
	refusedWith := func(want string) {
		t.Helper()
		if _, err := attempt(c, "whoami"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a session past the limit: %v, want a refusal saying %q", err, want)
		}
	}
	refusedWith("too many sessions open on this connection; close some and try again")
	other.sess.Close()
	// Its place is free once the server has seen it close; the minute's
	// allowance is spent all the same.
	waitUntil(t, "the refusal for the minute", func() bool {
		_, err := attempt(c, "whoami")
		return err != nil && strings.Contains(err.Error(), "too many new sessions on this connection; try again in a minute")
	})
	if srv.refusals("sessions_per_conn") == 0 || srv.refusals("session_rate") != 1 {
		t.Errorf("refusals counted: %d open at once, %d per minute", srv.refusals("sessions_per_conn"), srv.refusals("session_rate"))
	}
	if r := run(t, dialKey(t, srv.addr, "bob", newKey(t)), "whoami", ""); r.status != 0 {
		t.Errorf("another connection: %+v", r)
	}
}
