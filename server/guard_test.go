package server

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/internal/ratelog"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
)

// guardLimits turn the per-address limits on, so failed lookups are
// counted by address as well as by key, and bound sessions per connection.
var guardLimits = Limits{ConnsPerAddr: 50, SessionsPerConn: 4}

// logBurstsTo makes a server log to out, and hold back repeats for every
// instead of the server's ten seconds.
func logBurstsTo(out io.Writer, every time.Duration) func(*Server) {
	return func(s *Server) {
		l := slog.New(slog.NewTextHandler(out, nil))
		s.log = l
		s.refusal = ratelog.New(l, every)
		s.metrics.log.Store(s.refusal)
	}
}

// lastCounts waits until every session has ended and the refusals' log
// has written the count of every burst: what was held back is out.
func lastCounts(t *testing.T, srv *testServer) {
	t.Helper()
	waitUntil(t, "every session ended", func() bool { return len(srv.sessions()) == 0 })
	waitUntil(t, "the last bursts' counts", func() bool { return !srv.refusal.Holding() })
}

// guess is a random room code, almost surely nobody's.
func guess(i int) string { return fmt.Sprintf("Z%05d", i)[:lobby.CodeLength] }

// One connection opening many sessions to guess codes, as an attacker
// did: the sessions past the connection's allowance are refused as they
// open, the first guesses are answered at once, later ones more and more
// slowly, one after another, and past the limit the client is told in one line and the
// connection ends. A friend with the invite joins at once all the while,
// and after; the guesser cannot join even with the right invite.
func TestGuessingIsSlowedThenCutOff(t *testing.T) {
	lim := lobby.Limits{LookupMisses: 12, LookupWindow: time.Hour, LookupBackoff: 40 * time.Millisecond}
	srv := startServerLimited(t, lim, withLimits(guardLimits))
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	invite := strings.TrimSpace(run(t, alice, "new --players 3 --private", "").stdout)
	if len(lobby.NormalizeCode(invite)) != lobby.CodeLength+lobby.SecretLength {
		t.Fatalf("new --private printed %q, want an invite", invite)
	}
	a := startPlay(t, alice, "play "+invite)
	<-a.lines

	guesser := dialKey(t, srv.addr, "mallory", newKey(t))
	ended := make(chan struct{})
	go func() { guesser.Wait(); close(ended) }()
	var mu sync.Mutex
	var misses, cutLines, refused int
	var firstMiss, slowestMiss time.Duration
	tally := func(r result, err error, took time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case strings.Contains(r.stdout, "no room"):
			misses++
			if firstMiss == 0 {
				firstMiss = took
			}
			slowestMiss = max(slowestMiss, took)
		case strings.Contains(r.stderr, "too many wrong room codes from your address: try again in 60 minutes"):
			cutLines++
		case err != nil && strings.Contains(err.Error(), "too many sessions open on this connection"):
			refused++
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 16 { // more at once than the connection may hold open
		wg.Go(func() {
			for {
				select {
				case <-ended:
					return
				default:
				}
				start := time.Now()
				r, err := attempt(guesser, "play "+guess(int(next.Add(1)))+" --watch")
				tally(r, err, time.Since(start))
			}
		})
	}
	select {
	case <-ended:
	case <-time.After(30 * time.Second):
		t.Fatal("the guessing connection was never cut off")
	}
	wg.Wait()

	t.Logf("%d misses (the first took %s, the slowest %s), %d sessions refused as they opened, %d told they were cut off",
		misses, firstMiss.Round(time.Millisecond), slowestMiss.Round(time.Millisecond), refused, cutLines)
	// The misses waiting in the other sessions when the last is refused
	// are not answered.
	if misses > lim.LookupMisses || misses < lim.LookupMisses-guardLimits.SessionsPerConn+1 {
		t.Errorf("%d guesses answered before the cut; want %d, less those waiting in the other sessions", misses, lim.LookupMisses)
	}
	if cutLines == 0 {
		t.Error("no session was told why the connection ended")
	}
	if srv.refusals("lookup_backoff") == 0 || slowestMiss < 4*lim.LookupBackoff {
		t.Errorf("the guesses were not slowed: %d slowed, the slowest took %s", srv.refusals("lookup_backoff"), slowestMiss)
	}
	if refused == 0 || srv.refusals("sessions_per_conn") == 0 {
		t.Error("sixteen sessions at once on one connection were not refused past four")
	}

	// The guesser, back on a new connection, is refused even with the
	// right invite, and cut off again.
	again := dialKey(t, srv.addr, "mallory", newKey(t))
	if r, _ := attempt(again, "play "+invite); !strings.Contains(r.stderr, "too many wrong room codes") {
		t.Errorf("the guesser back with the invite: %+v", r)
	}
	// A friend elsewhere joins at once, and is shown the invite to share.
	slowed := srv.refusals("lookup_backoff")
	bob, _, err := dialFrom(srv.addr, 0, newKey(t)) // from 127.0.0.2
	if err != nil {
		t.Fatal(err)
	}
	defer bob.Close()
	start := time.Now()
	b := startPlay(t, bob, "play "+strings.ToLower(invite))
	first := <-b.lines
	t.Logf("the friend's first update came %s after asking", time.Since(start).Round(time.Millisecond))
	if first.Error != "" || first.Seat < 0 || first.Invite != invite {
		t.Errorf("the friend's first line: %+v", first)
	}
	if srv.refusals("lookup_backoff") != slowed {
		t.Error("the friend's join was slowed")
	}
}

// A friend with the invite joins at once while a guesser from elsewhere
// is being slowed: with the guesser's current miss waiting four seconds,
// the friend's first update comes within a generous two.
func TestFriendJoinsWhileGuesserIsSlowed(t *testing.T) {
	lim := lobby.Limits{LookupMisses: 12, LookupWindow: time.Hour, LookupBackoff: 500 * time.Millisecond}
	srv := startServerLimited(t, lim, withLimits(guardLimits))
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	invite := strings.TrimSpace(run(t, alice, "new --players 3 --private", "").stdout)
	guesser := dialKey(t, srv.addr, "mallory", newKey(t))
	var answered atomic.Int64
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := attempt(guesser, "play "+guess(i)+" --watch"); err != nil {
				return
			}
			answered.Add(1)
		}
	}()
	// Three misses are free, then they wait 0.5, 1 and 2 s; the seventh,
	// counted as it starts, waits 4 s.
	waitUntil(t, "the guesser's seventh miss to start its wait", func() bool { return srv.refusals("lookup_backoff") >= 4 })
	before := answered.Load()
	friend, _, err := dialFrom(srv.addr, 0, newKey(t)) // from 127.0.0.2
	if err != nil {
		t.Fatal(err)
	}
	defer friend.Close()
	start := time.Now()
	f := startPlay(t, friend, "play "+invite)
	first := <-f.lines
	took := time.Since(start)
	t.Logf("the friend's first update came %s after asking, the guesser's miss waiting 4s", took.Round(time.Millisecond))
	if first.Error != "" || first.Seat < 0 {
		t.Fatalf("the friend with the invite: %s", first.raw)
	}
	if answered.Load() != before {
		t.Fatal("the guesser's slow miss was answered before the friend: the friend's join did not overlap it")
	}
	if took > 2*time.Second {
		t.Errorf("the friend's join took %s while the guesser was slowed", took)
	}
}

// A private room cannot be joined, watched or opened on screen with its
// code alone: the answer is the same as for a code with no room. With the
// invite it can; its players come back with the code; they, the host and
// a spectator who came in with the invite are shown it, never a list.
func TestPrivateRoomNeedsItsInvite(t *testing.T) {
	srv := startServer(t)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	carol := dialKey(t, srv.addr, "carol", newKey(t))
	r := run(t, alice, "new --players 2 --private", "")
	invite := strings.TrimSpace(r.stdout)
	code, secret, ok := lobby.ParseInvite(invite)
	if !ok || secret == "" || !strings.Contains(r.stderr, "It is private: share the whole invite") {
		t.Fatalf("new --private: %+v", r)
	}
	nobody := "ZZZZZZ"
	if code == nobody {
		nobody = "YYYYYY"
	}
	same := func(got, missing string) {
		t.Helper()
		want := strings.ReplaceAll(missing, nobody, code)
		if got != want {
			t.Errorf("with the code alone: %q; want what a code with no room gets: %q", got, want)
		}
	}
	for _, cmd := range []string{"play %s", "play %s --watch"} {
		got, missing := run(t, carol, fmt.Sprintf(cmd, code), ""), run(t, carol, fmt.Sprintf(cmd, nobody), "")
		if got.status != 1 {
			t.Errorf("%s: %+v", fmt.Sprintf(cmd, code), got)
		}
		same(got.stdout, missing.stdout)
		same(got.stderr, missing.stderr)
	}
	_, scr := ptySession(t, carol, "watch "+code, 100, 30)
	scr.waitFor(t, "no room")
	_, scr = ptySession(t, carol, "join "+code, 100, 30)
	scr.waitFor(t, "no room")

	// Carol watches with the invite; bob sits down with it and the game
	// starts when alice, the host, takes her seat with the code alone.
	w := startPlay(t, carol, "play "+invite+" --watch")
	b := startPlay(t, bob, "play "+strings.ToLower(code+"-"+secret[:6]+"-"+secret[6:]))
	if l := <-b.lines; l.Error != "" || l.Invite != invite {
		t.Fatalf("bob with the invite: %+v", l)
	}
	a := startPlay(t, alice, "play "+code)
	if l := <-a.lines; l.Error != "" || l.Invite != invite {
		t.Fatalf("alice, the host, with the code: %+v", l)
	}
	// Bob comes back with the code alone, as a player of the room.
	b.in.Close()
	b2 := startPlay(t, bob, "play "+code)
	if l := <-b2.lines; l.Error != "" || l.Seat < 0 {
		t.Fatalf("bob back with the code: %+v", l)
	}
	for l := range w.lines {
		if l.Error != "" || l.Seat >= 0 || l.Invite != invite {
			t.Fatalf("the spectator who came in with the invite: %s", l.raw)
		}
		if l.Room.Started {
			break
		}
	}
	for _, cmd := range []string{"rooms --json", "rooms --playing --json", "history --json"} {
		if r := run(t, bob, cmd, ""); strings.Contains(r.stdout, secret) {
			t.Errorf("%s shows the secret: %s", cmd, r.stdout)
		}
	}
}

// A private room from before invites is given one when it is loaded: its
// host is shown it, a friend joins the free seat with it, and a spectator
// who came in with it sees it on the board, to come back with, where the
// code alone would not do.
func TestPrivateRoomFromBeforeInvitesOverSSH(t *testing.T) {
	srv := startServer(t)
	key := newKey(t)
	alice := dialKey(t, srv.addr, "alice", key)
	fp := gossh.FingerprintSHA256(key.PublicKey())
	now := time.Now().UTC()
	old := store.Meta{Code: "K7PXMA", Game: "factories", Host: fp, Seats: []store.Seat{{Player: fp, Name: "alice"}, {}},
		Seed: 11, Created: now, Updated: now, Version: 1}
	if err := srv.store.Create(t.Context(), old); err != nil {
		t.Fatal(err)
	}
	carol := dialKey(t, srv.addr, "carol", newKey(t))
	if r := run(t, carol, "play K7PXMA --watch", ""); !strings.Contains(r.stdout, "no room") {
		t.Errorf("a stranger with the old room's code: %+v", r)
	}
	a := startPlay(t, alice, "play K7PXMA")
	first := <-a.lines
	code, secret, _ := lobby.ParseInvite(first.Invite)
	if first.Error != "" || first.Seat != 0 || code != "K7PXMA" || len(secret) != lobby.SecretLength {
		t.Fatalf("the host of the old room: %s", first.raw)
	}
	if m, _, err := srv.store.Load(t.Context(), "K7PXMA", 0); err != nil || m.Secret != secret {
		t.Fatalf("the stored room has secret %q (%v), the host was shown %q", m.Secret, err, secret)
	}
	b := startPlay(t, dialKey(t, srv.addr, "bob", newKey(t)), "play "+first.Invite)
	for l := range b.lines {
		if l.Error != "" || l.Invite != first.Invite {
			t.Fatalf("bob with the invite: %s", l.raw)
		}
		if l.Room.Started {
			break
		}
	}
	_, scr := ptySession(t, carol, "watch "+first.Invite, 100, 30)
	scr.waitFor(t, "room "+first.Invite+" · watching")
}

// Ten thousand guesses over one connection, as in the attack that showed
// the problem, make a few dozen log lines: the sessions past the
// connection's allowance are refused as they open and, like the guesses
// slowed down, logged once per burst with a count; only the sessions the
// limits let in are logged one by one.
func TestRefusalsLogBounded(t *testing.T) {
	var out screen            // a log, written by many goroutines
	const every = time.Second // the server's is 10s
	logTo := logBurstsTo(&out, every)
	lim := Limits{ConnsPerAddr: 20, SessionsPerConn: 4, SessionRate: 10}
	srv := startServerLimited(t, lobby.Limits{LookupMisses: 20, LookupWindow: time.Hour, LookupBackoff: 20 * time.Millisecond},
		withLimits(lim), logTo)
	c := dialKey(t, srv.addr, "mallory", newKey(t))
	const want = 10_000
	var refused, admitted atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for refused.Load() < want {
				r, err := attempt(c, "play "+guess(int(refused.Load()))+" --watch")
				switch {
				case err != nil && !strings.Contains(err.Error(), "too many"):
					t.Errorf("the connection ended: %v", err)
					return
				case err == nil:
					admitted.Add(1)
				}
				if err != nil || r.status != 0 {
					refused.Add(1)
				}
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	lastCounts(t, srv)
	lines := strings.Split(strings.TrimSpace(out.text()), "\n")
	t.Logf("%d guesses refused in %s (%d sessions got in) made %d log lines", refused.Load(), took.Round(time.Millisecond), admitted.Load(), len(lines))
	// Two lines for each session let in, and per kind of refusal one at
	// once and one a second: well under a hundred for a few seconds.
	if bound := 2*int(admitted.Load()) + 4*(2+int(took/every)); len(lines) > bound || len(lines) > 100 {
		t.Errorf("%d refused guesses made %d log lines, more than %d:\n%s", refused.Load(), len(lines), bound, strings.Join(lines[:min(len(lines), 100)], "\n"))
	}
	counted := 0
	for _, l := range lines {
		if strings.Contains(l, "repeated=") {
			counted++
		}
	}
	if counted == 0 {
		t.Error("no line counts the refusals it stands for")
	}
}

// With the default limits, a guesser coming back on new connection after
// new connection once cut off writes a bounded log: the sessions of a key
// or address refused lately are logged once per burst with a count, like
// the refusals, not two lines each (which made 125 session lines against 2
// refusal lines in ten seconds). 10,000 refused attempts over fifty
// connections make a few dozen lines.
func TestRefusedLogVolumeOverManyConnections(t *testing.T) {
	var out screen            // a log, written by many goroutines
	const every = time.Second // the server's is 10s
	logTo := logBurstsTo(&out, every)
	lim := lobby.DefaultLimits()
	lim.LookupBackoff = 0 // the back-off only slows the guesses; what is logged is the same
	srv := startServerLimited(t, lim, withLimits(DefaultLimits()), logTo)
	const want, conns, perConn = 10_000, 50, 200
	var refused, admitted, dialled atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for range 5 { // five connections at a time, from one address
		wg.Go(func() {
			for refused.Load() < want && dialled.Add(1) <= conns {
				c, _, err := dialFrom(srv.addr, 0, newKey(t))
				if err != nil {
					refused.Add(1)
					continue
				}
				var tries atomic.Int64
				var inner sync.WaitGroup
				for range 8 { // within the sessions a connection may hold open
					inner.Go(func() {
						for tries.Add(1) <= perConn && refused.Load() < want {
							r, err := attempt(c, "play "+guess(int(refused.Load()))+" --watch")
							if err == nil {
								admitted.Add(1)
							}
							if err != nil || r.status != 0 {
								refused.Add(1)
							}
						}
					})
				}
				inner.Wait()
				c.Close()
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	lastCounts(t, srv)
	lines := strings.Split(strings.TrimSpace(out.text()), "\n")
	sessionLines := 0
	for _, l := range lines {
		if strings.Contains(l, "session start") || strings.Contains(l, "session end") {
			sessionLines++
		}
	}
	t.Logf("%d attempts refused over %d connections in %s (%d sessions got in) made %d log lines, %d of them sessions'",
		refused.Load(), min(dialled.Load(), conns), took.Round(time.Millisecond), admitted.Load(), len(lines), sessionLines)
	if refused.Load() < want {
		t.Fatalf("only %d attempts were refused", refused.Load())
	}
	// The sessions before the first cut-off one by one (twenty misses, and
	// those in flight), then for each kind, refusals and sessions alike, a
	// line at once and one a second.
	if bound := 2*(lim.LookupMisses+8) + 8*(2+int(took/every)); len(lines) > bound {
		t.Errorf("%d refused attempts made %d log lines, more than %d:\n%s", refused.Load(), len(lines), bound, strings.Join(lines[:min(len(lines), 120)], "\n"))
	}
}

// The lobby's join prompt and the screen commands count misses too: past
// the limit the terminal is restored, the line said below it, and the
// connection ends, taking the client's other sessions with it and no one
// else's.
func TestLookupLimitInTheTerminal(t *testing.T) {
	srv := startServerLimited(t, lobby.Limits{LookupMisses: 2, LookupWindow: time.Hour}, withLimits(guardLimits))
	c := dialKey(t, srv.addr, "mallory", newKey(t))
	ended := make(chan struct{})
	go func() { c.Wait(); close(ended) }()
	code := strings.TrimSpace(run(t, c, "new", "").stdout)
	mine := startPlay(t, c, "play "+code+" --watch") // lives until the connection ends
	<-mine.lines
	alices := startPlay(t, dialKey(t, srv.addr, "alice", newKey(t)), "play "+code+" --watch")
	<-alices.lines

	if r, _ := attempt(c, "play ZZZZZZ --watch"); !strings.Contains(r.stdout, "no room") { // the first miss
		t.Fatalf("play of no room: %+v", r)
	}
	_, replay := ptySession(t, c, "replay YYYYYY", 100, 30) // the second
	replay.waitFor(t, "no room")
	_, scr := ptySession(t, c, "", 100, 30)
	scr.waitFor(t, "OPEN SEATS")
	scr.in.Write([]byte("c"))
	scr.waitFor(t, "JOIN A ROOM")
	scr.in.Write([]byte("XXXXXX\r")) // the third: past the limit
	scr.waitFor(t, "too many wrong room codes from your address: try again in 60 minutes")
	raw := scr.raw()
	if strings.LastIndex(raw, "\x1b[?1049l") > strings.LastIndex(raw, "too many wrong room codes") {
		t.Error("the line came before the terminal was restored")
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the connection is still open")
	}
	var last line
	for l := range mine.lines {
		last = l
	}
	if !strings.Contains(last.Error, "too many wrong room codes") {
		t.Errorf("the connection's other session ended with %+v", last)
	}
	select {
	case l, ok := <-alices.lines:
		if !ok || l.Error != "" {
			t.Errorf("alice's session, on a connection of her own, ended: %+v", l)
		}
	default:
	}
	if srv.refusals("lookup_limit") != 1 {
		t.Errorf("%d cut-offs counted", srv.refusals("lookup_limit"))
	}
}
