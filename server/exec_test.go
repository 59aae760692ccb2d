package server

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/lobby"
)

func TestRoomsJSON(t *testing.T) {
	srv := startServer(t)
	c := dialKey(t, srv.addr, "alice", newKey(t))

	r := run(t, c, "rooms --json", "")
	if r.status != 0 || strings.TrimSpace(r.stdout) != "[]" {
		t.Fatalf("rooms --json with no rooms: status %d, %q; want []", r.status, r.stdout)
	}
	r = run(t, c, "new --players 3 --seed 7", "")
	public := strings.TrimSpace(r.stdout)
	if !strings.Contains(r.stderr, "A practice room: its seed 7 is shown to everyone") {
		t.Errorf("new --seed says %q", r.stderr)
	}
	private := strings.TrimSpace(run(t, c, "new --private", "").stdout)
	solo := strings.TrimSpace(run(t, c, "new --players 1 --difficulty hard", "").stdout)

	r = run(t, c, "rooms --json", "")
	var rooms []lobby.RoomInfo
	if err := json.Unmarshal([]byte(r.stdout), &rooms); err != nil {
		t.Fatalf("rooms --json: %v in %q", err, r.stdout)
	}
	got := map[string]lobby.RoomInfo{}
	for _, room := range rooms {
		got[room.Code] = room
	}
	if _, ok := got[private]; ok {
		t.Errorf("private room %s is listed", private)
	}
	// The seed chosen with --seed makes a practice room, which shows it;
	// a room drawn its own seed keeps it secret until the game is over.
	if room, ok := got[public]; !ok || len(room.Seats) != 3 || room.Seed == nil || *room.Seed != 7 || !room.Practice || !room.Open() {
		t.Errorf("public room %s listed as %+v", public, room)
	}
	if room, ok := got[solo]; !ok || len(room.Seats) != 1 || !strings.Contains(string(room.Options), "hard") || room.Seed != nil || room.Practice {
		t.Errorf("solo room %s listed as %+v", solo, room)
	}

	table := run(t, c, "rooms", "").stdout
	for _, want := range []string{"CODE", "GAME", public, solo, "factories", "waiting for players", "practice, seed 7"} {
		if !strings.Contains(table, want) {
			t.Errorf("rooms table lacks %q:\n%s", want, table)
		}
	}
}

// Bad input gets a clear message and exit status 1, never a panic, and
// the server keeps serving.
func TestExecErrors(t *testing.T) {
	srv := startServer(t)
	c := dialKey(t, srv.addr, "alice", newKey(t))
	code := strings.TrimSpace(run(t, c, "new", "").stdout)
	tests := []struct {
		cmd, stderr string
	}{
		{"frobnicate", `unknown command "frobnicate"`},
		{"new --players 9", "1 to 5 seats"},
		{"new --players 0", "1 to 5 seats"},
		{"new --players two", "invalid value"},
		{"new --players 1 --difficulty extreme", "choose easy, medium, hard or insane"},
		{"new --difficulty easy --players 3", "--difficulty is only for games of 1 seat"},
		{"new --game chess", `--game "chess": choose factories`},
		{"new --seed -1", "invalid value"},
		{"new --players 1 --bots greedy", "leave at least one seat for a person"},
		{"new --players 3 --bots genius", `no bot "genius": choose greedy or random`},
		{"new --colour red", "flag provided but not defined"},
		{"new extra", `unexpected argument "extra"`},
		{"rooms --yaml", "flag provided but not defined"},
		{"play", "missing room CODE"},
		{"play NOSUCH", "no room"},
		{"play " + code + " " + code, "unexpected argument"},
		{"join " + code, "ssh -t"},
		{"watch " + code, "ssh -t"},
		{"replay " + code, "ssh -t"},
		{"join", "missing room CODE"},
		{"lobby", "needs a terminal"},
		{"help nothing", `no command "nothing"`},
	}
	for _, tt := range tests {
		r := run(t, c, tt.cmd, "")
		if r.status != 1 || !strings.Contains(r.stderr, tt.stderr) {
			t.Errorf("%s: status %d, stderr %q; want status 1 and %q", tt.cmd, r.status, r.stderr, tt.stderr)
		}
	}
	if r := run(t, c, "play NOSUCH", ""); !strings.Contains(r.stdout, `{"error":"no room`) {
		t.Errorf("play of a missing room printed %q on stdout, want a JSON error line", r.stdout)
	}
	if r := run(t, c, "rooms", ""); r.status != 0 {
		t.Errorf("server unwell after bad input: %+v", r)
	}
}

func TestHelp(t *testing.T) {
	srv := startServer(t)
	c := dialKey(t, srv.addr, "alice", newKey(t))
	for _, cmd := range []string{"", "help", "--help"} {
		r := run(t, c, cmd, "")
		if r.status != 0 || !strings.Contains(r.stdout, "play     play (or watch)") || !strings.Contains(r.stdout, "ssh -t") {
			t.Errorf("%q: status %d, help:\n%s", cmd, r.status, r.stdout)
		}
	}
	r := run(t, c, "help new", "")
	if !strings.Contains(r.stdout, "--difficulty easy|medium|hard|insane") || !strings.Contains(r.stdout, "factories: Fantastic Factories, 1 to 5 seats") {
		t.Errorf("help new:\n%s", r.stdout)
	}
	// An option that means nothing without another says which.
	if !strings.Contains(r.stdout, "default alone (with --capitalists on)") {
		t.Errorf("help new does not say arthur needs capitalists:\n%s", r.stdout)
	}
}

// Guests come in by keyboard-interactive, are told how to take a seat
// back (their seat word), and get a fresh identity each time.
func TestGuests(t *testing.T) {
	srv := startServer(t)
	var told string
	guest := gossh.KeyboardInteractive(func(name, instruction string, questions []string, echos []bool) ([]string, error) {
		told = instruction
		return nil, nil
	})
	c := dial(t, srv.addr, "visitor", guest)
	if !strings.Contains(told, "seat word") {
		t.Errorf("guest was told %q", told)
	}
	r := run(t, c, "whoami", "")
	// A guest's name is not the login (a guest logging in as root would
	// be "root"): "guest-" and four letters of the guest's identity.
	if !strings.Contains(r.stdout, "id:   guest:") || !regexp.MustCompile(`name: guest-[a-z2-7]{4}\n`).MatchString(r.stdout) {
		t.Errorf("guest whoami:\n%s", r.stdout)
	}
	again := run(t, dial(t, srv.addr, "visitor", guest), "whoami", "").stdout
	if again == r.stdout {
		t.Error("two guest connections share an identity")
	}
	if r := run(t, c, "history", ""); !strings.Contains(r.stdout, "Guests have no history") {
		t.Errorf("guest history: %q", r.stdout)
	}
	// Guests can still play.
	code := strings.TrimSpace(run(t, c, "new --players 1 --difficulty easy", "").stdout)
	st := startPlay(t, c, "play "+code)
	l := <-st.lines
	if l.Error != "" || l.Seat != 0 || len(l.View) == 0 {
		t.Errorf("guest's first update: %+v", l)
	}
	st.in.Close()
}

func TestIdentityIsTheAuthenticatingKey(t *testing.T) {
	srv := startServer(t)
	first, second := newKey(t), newKey(t)
	c := dial(t, srv.addr, "alice", gossh.PublicKeys(first, second))
	r := run(t, c, "whoami", "")
	if want := "id:   " + gossh.FingerprintSHA256(first.PublicKey()); !strings.Contains(r.stdout, want) {
		t.Errorf("whoami with two keys offered:\n%s\nwant %s", r.stdout, want)
	}
}

func TestIdentify(t *testing.T) {
	key := newKey(t).PublicKey()
	other := newKey(t).PublicKey()
	fp := gossh.FingerprintSHA256(key)
	tests := []struct {
		name    string
		ext     map[string]string
		key     gossh.PublicKey
		want    lobby.Player
		refused bool
	}{
		{"the key that authenticated", map[string]string{extFingerprint: fp}, key, lobby.Player{ID: fp, Key: fp, Name: "alice"}, false},
		{"another key than the one that authenticated", map[string]string{extFingerprint: fp}, other, lobby.Player{}, true},
		{"a key but no recorded fingerprint", nil, key, lobby.Player{}, true},
		{"a key and a guest id", map[string]string{extGuest: "guest:abc"}, key, lobby.Player{}, true},
		{"a guest", map[string]string{extGuest: "guest:abc"}, nil, lobby.Player{ID: "guest:abc", Name: "alice", Guest: true}, false},
		{"a guest with a fingerprint left over", map[string]string{extGuest: "guest:abc", extFingerprint: fp}, nil, lobby.Player{}, true},
		{"nothing at all", nil, nil, lobby.Player{}, true},
	}
	for _, tt := range tests {
		got, err := identify(tt.ext, tt.key, "alice")
		if (err != nil) != tt.refused || got != tt.want {
			t.Errorf("%s: got %+v, %v", tt.name, got, err)
		}
	}
}

func TestDisplayName(t *testing.T) {
	for in, want := range map[string]string{
		"alice": "alice", "": "player", "a b\x1b[31m": "ab[31m", "averyveryverylongname": "averyveryverylon",
	} {
		if got := displayName(in); got != want {
			t.Errorf("displayName(%q) = %q, want %q", in, got, want)
		}
	}
}

// The commands as a shell user types them, over real SSH: CMD --help is
// `help CMD`, names in any case, a typo is told the nearest command, and
// with a terminal a refusal is wrapped at words to its width (one line a
// message without one), its exit status 1.
func TestExecAsAShellUserTypes(t *testing.T) {
	srv := startServer(t)
	c := dialKey(t, srv.addr, "alice", newKey(t))
	want := run(t, c, "help new", "")
	for _, cmd := range []string{"new --help", "NEW -h", "new --players 3 --help"} {
		if r := run(t, c, cmd, ""); r.status != 0 || r.stdout != want.stdout || r.stdout == "" {
			t.Errorf("%s: status %d, %q; want what `help new` prints", cmd, r.status, r.stdout)
		}
	}
	if r := run(t, c, "rooom", ""); r.status != 1 || !strings.Contains(r.stderr, "Did you mean `rooms`?") {
		t.Errorf("rooom: status %d, %q", r.status, r.stderr)
	}
	if r := run(t, c, "Rooms --json", ""); r.status != 0 || strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("Rooms --json: status %d, %q", r.status, r.stdout)
	}
	var who struct{ Name, ID string }
	if r := run(t, c, "whoami --json", ""); r.status != 0 || json.Unmarshal([]byte(r.stdout), &who) != nil || who.Name != "alice" || !strings.HasPrefix(who.ID, "SHA256:") {
		t.Errorf("whoami --json: status %d, %q", r.status, r.stdout)
	}

	// No room: a long refusal, on one line without a terminal.
	plain := run(t, c, "play NOSUCH", "")
	if plain.status != 1 || strings.Count(plain.stderr, "\n") != 1 || len(plain.stderr) <= 60 {
		t.Fatalf("play NOSUCH: status %d, %q; want one line of a long message", plain.status, plain.stderr)
	}
	plain.stderr = strings.Replace(plain.stderr, "smokestack play:", "smokestack watch:", 1)
	const cmd = "watch NOSUCH"
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.RequestPty("xterm-256color", 24, 60, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	s.Stdout = &out
	var exit *gossh.ExitError
	if err := s.Run(cmd); !errors.As(err, &exit) || exit.ExitStatus() != 1 {
		t.Fatalf("%s with a terminal: %v; want exit status 1", cmd, err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\r\n"), "\r\n")
	for _, l := range lines {
		if len([]rune(l)) > 60 {
			t.Errorf("a line wider than the terminal's 60 columns: %q", l)
		}
	}
	if len(lines) < 2 || strings.Join(strings.Fields(out.String()), " ") != strings.Join(strings.Fields(plain.stderr), " ") {
		t.Errorf("with a 60-column terminal:\n%s\nwant the words of\n%s\nwrapped", out.String(), plain.stderr)
	}
}
