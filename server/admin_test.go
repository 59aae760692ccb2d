package server

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/lobby"
)

// impostor offers one key and signs with another: the shape of
// CVE-2024-45337, where a server that remembers the offered key instead of
// the one that signed hands the offered key's identity to whoever holds
// the signing key.
type impostor struct {
	offered gossh.PublicKey
	signer  gossh.Signer
}

func (i impostor) PublicKey() gossh.PublicKey { return i.offered }

func (i impostor) Sign(rand io.Reader, data []byte) (*gossh.Signature, error) {
	return i.signer.Sign(rand, data)
}

// withOperators makes keys operators, and logs to log.
func withOperators(log io.Writer, keys ...gossh.Signer) func(*Server) {
	return func(s *Server) {
		s.cfg.Operators = Operators{}
		for _, k := range keys {
			s.cfg.Operators[gossh.FingerprintSHA256(k.PublicKey())] = "ops"
		}
		s.log = slog.New(slog.NewTextHandler(log, nil))
	}
}

// A client that offers key A and signs with key B is B: never A's seat,
// rooms or name, and never A's operator rights.
func TestOfferOneKeySignWithAnother(t *testing.T) {
	a, b := newKey(t), newKey(t)
	srv := startServer(t, withOperators(io.Discard, a))
	alice := dialKey(t, srv.addr, "alice", a)
	code := strings.TrimSpace(run(t, alice, "new --players 2 --private", "").stdout)
	sat := startPlay(t, alice, "play "+code)
	if l := <-sat.lines; l.Seat != 0 {
		t.Fatalf("alice sat at %d", l.Seat)
	}
	sat.in.Close()
	for range sat.lines {
	}

	// Signing for A with B's key fails, and the server hangs up: a
	// client cannot try A and then fall back on B in one handshake.
	for _, auth := range [][]gossh.Signer{{impostor{a.PublicKey(), b}}, {impostor{a.PublicKey(), b}, b}} {
		if c, err := gossh.Dial("tcp", srv.addr, &gossh.ClientConfig{User: "alice",
			Auth: []gossh.AuthMethod{gossh.PublicKeys(auth...)}, HostKeyCallback: gossh.InsecureIgnoreHostKey()}); err == nil {
			c.Close()
			t.Fatal("a signature by B passed for key A")
		}
	}
	// B on its own key, logged in as alice, is B.
	mallory := dialKey(t, srv.addr, "alice", b)
	if r := run(t, mallory, "whoami", ""); !strings.Contains(r.stdout, gossh.FingerprintSHA256(b.PublicKey())) ||
		strings.Contains(r.stdout, gossh.FingerprintSHA256(a.PublicKey())) {
		t.Errorf("whoami: %+v", r)
	}
	if r := run(t, mallory, "history", ""); strings.Contains(r.stdout, code) {
		t.Errorf("B's history lists A's room:\n%s", r.stdout)
	}
	if r := run(t, mallory, "admin sessions", ""); r.status != 1 || !strings.Contains(r.stderr, `unknown command "admin"`) {
		t.Errorf("B as an operator: %+v", r)
	}
	st := startPlay(t, mallory, "play "+code)
	l := <-st.lines
	if l.Seat != 1 || l.Room.Seats[0].Name != "alice" {
		t.Errorf("B joined as seat %d; seats %+v", l.Seat, l.Room.Seats)
	}
	info, _ := srv.lobby.Info(t.Context(), code, lobby.Player{})
	if !info.IsHost(gossh.FingerprintSHA256(a.PublicKey())) {
		t.Error("the room's host changed")
	}
}

// Operators see and steer the server; everyone else does not know the
// admin command exists; every action is logged with who did it.
func TestAdminCommands(t *testing.T) {
	op, bobKey := newKey(t), newKey(t)
	var logs screen // the log, as a screen collects it
	srv := startServer(t, withOperators(&logs, op))
	admin := dialKey(t, srv.addr, "ops", op)
	bob := dialKey(t, srv.addr, "bob", bobKey)
	bobFP := gossh.FingerprintSHA256(bobKey.PublicKey())

	if h := run(t, admin, "help", "").stdout; !strings.Contains(h, "admin") {
		t.Errorf("an operator's help lacks admin:\n%s", h)
	}
	if h := run(t, bob, "help", "").stdout; strings.Contains(h, "admin") {
		t.Errorf("a player's help shows admin:\n%s", h)
	}
	for _, cmd := range []string{"admin", "admin rooms", "help admin"} {
		if r := run(t, bob, cmd, ""); r.status != 1 || !strings.Contains(r.stderr, `command "admin"`) {
			t.Errorf("bob runs %s: %+v", cmd, r)
		}
	}

	// Bob reads Polish from here on: his terminal is told in Polish, his
	// play session's JSON stays English.
	if r := run(t, bob, "lang pl", ""); r.status != 0 {
		t.Fatalf("lang pl: %+v", r)
	}
	code := strings.TrimSpace(run(t, bob, "new --players 2 --private", "").stdout)
	st := startPlay(t, bob, "play "+code)
	<-st.lines
	_, scr := ptySession(t, bob, "", 100, 30)
	scr.waitFor(t, "smokestack")

	r := run(t, admin, "admin sessions", "")
	playID, _ := playSession(r.stdout, bobFP)
	if playID == "" {
		t.Fatalf("admin sessions does not list bob's play session:\n%s", r.stdout)
	}
	if r := run(t, admin, "admin rooms", ""); !strings.Contains(r.stdout, code[:lobby.CodeLength]) {
		t.Errorf("admin rooms lacks the private room %s:\n%s", code, r.stdout)
	}
	if r := run(t, admin, "admin announce back in five minutes", ""); !strings.Contains(r.stdout, "shown on 1 terminal") {
		t.Errorf("announce: %+v", r)
	}
	scr.waitFor(t, "ogłoszenie: back in five minutes")

	if r := run(t, admin, "admin kick "+playID, ""); r.status != 0 {
		t.Fatalf("kick: %+v", r)
	}
	var last line
	for l := range st.lines {
		last = l
	}
	if last.Error != kickNote.Error() {
		t.Errorf("the kicked session ended with %+v", last)
	}

	if r := run(t, admin, "admin end "+code, ""); r.status != 0 {
		t.Errorf("end: %+v", r)
	}
	if info, _ := srv.lobby.Info(t.Context(), code, lobby.Player{}); !info.Over || info.Ended != "ended by an operator" {
		t.Errorf("room after admin end: over %v, %q", info.Over, info.Ended)
	}

	// A ban closes the key's sessions here and keeps it out.
	if r := run(t, admin, "admin ban "+bobFP+" --for 1h", ""); r.status != 0 || !strings.Contains(r.stdout, "closed 1 session") {
		t.Fatalf("ban: %+v", r)
	}
	scr.waitFor(t, "ten serwer cię nie przyjmuje") // in bob's language
	again := dialKey(t, srv.addr, "bob", bobKey)
	if r := run(t, again, "rooms", ""); r.status != 1 || !strings.Contains(r.stderr, "does not accept you") {
		t.Errorf("banned key: %+v", r)
	}
	if r := run(t, admin, "admin unban "+bobFP, ""); r.status != 0 {
		t.Errorf("unban: %+v", r)
	}
	if r := run(t, again, "rooms", ""); r.status != 0 {
		t.Errorf("unbanned key: %+v", r)
	}
	// An address ban turns connections away before they log in.
	if r := run(t, admin, "admin ban 127.0.0.0/8", ""); r.status != 0 {
		t.Fatalf("ban the address: %+v", r)
	}
	mustRefuse(t, srv.addr, newKey(t), "does not accept you")
	// The operator's open connection still works, to lift it.
	if r := run(t, admin, "admin unban 127.0.0.0/8", ""); r.status != 0 {
		t.Fatalf("unban the address: %+v", r)
	}

	for _, tt := range []struct{ cmd, stderr string }{
		{"admin", "missing what to do"},
		{"admin frobnicate", `no admin command "frobnicate"`},
		{"admin kick nosuch", `no session "nosuch"`},
		{"admin ban bob", "neither a key fingerprint"},
		{"admin ban 10.0.0.1 --for -1h", "cannot be negative"},
		{"admin unban 10.0.0.9", "was not banned"},
		{"admin end NOSUCH", "no room"},
		{"admin announce", "missing the TEXT"},
	} {
		if r := run(t, admin, tt.cmd, ""); r.status != 1 || !strings.Contains(r.stderr, tt.stderr) {
			t.Errorf("%s: %+v, want %q", tt.cmd, r, tt.stderr)
		}
	}
	if n := strings.Count(logs.raw(), "msg=admin by=ops key="+gossh.FingerprintSHA256(op.PublicKey())); n < 10 {
		t.Errorf("%d admin actions logged with who did them:\n%s", n, logs.raw())
	}
}

// playSession finds the play session of the key fp in what admin sessions
// printed: its ID and its row.
func playSession(sessions, fp string) (id, row string) {
	for _, row := range strings.Split(sessions, "\n") {
		if strings.Contains(row, fp) && strings.Contains(row, "play") {
			return strings.Fields(row)[0], row
		}
	}
	return "", ""
}

func TestLoadOperators(t *testing.T) {
	k := newKey(t)
	path := filepath.Join(t.TempDir(), "operators")
	line := string(gossh.MarshalAuthorizedKey(k.PublicKey()))
	os.WriteFile(path, []byte("# the ops\n\n"+strings.TrimSpace(line)+" hana@laptop\n"), 0o600)
	ops, err := LoadOperators(path)
	if err != nil || ops[gossh.FingerprintSHA256(k.PublicKey())] != "hana@laptop" || len(ops) != 1 {
		t.Errorf("LoadOperators: %v, %v", ops, err)
	}
	os.WriteFile(path, []byte("ssh-ed25519 garbage\n"), 0o600)
	if _, err := LoadOperators(path); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a bad line: %v", err)
	}
}
