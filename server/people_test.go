package server

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/players"
)

var defaultName = regexp.MustCompile(`^player-[0-9a-f]{4}\n$`)

// tap passes a play stream's lines on and keeps the last update.
func tap(s *stream) (*stream, func() line) {
	var mu sync.Mutex
	var last line
	out := &stream{sess: s.sess, in: s.in, lines: make(chan line, 64)}
	go func() {
		defer close(out.lines)
		for l := range s.lines {
			if l.Room.Code != "" { // an update, not an ok, error or chat line
				mu.Lock()
				last = l
				mu.Unlock()
			}
			out.lines <- l
		}
	}()
	return out, func() line { mu.Lock(); defer mu.Unlock(); return last }
}

// playGame plays room code to its end through `play`, one greedy bot per
// client, and returns each client's last line.
func playGame(t *testing.T, code string, clients ...*gossh.Client) []line {
	t.Helper()
	lasts := make([]func() line, len(clients))
	var wg sync.WaitGroup
	for i, c := range clients {
		s, last := tap(startPlay(t, c, "play "+code))
		lasts[i] = last
		wg.Go(func() { playToEnd(t, fmt.Sprint("player ", i+1), s, uint64(i+1), func(int, int, []factories.Card) {}) })
	}
	wg.Wait()
	out := make([]line, len(clients))
	for i, last := range lasts {
		out[i] = last()
	}
	return out
}

// newRoom runs `new` and returns the room's code.
func newRoom(t *testing.T, c *gossh.Client, args string) string {
	t.Helper()
	r := run(t, c, "new "+args, "")
	if r.status != 0 {
		t.Fatalf("new %s: %d %s", args, r.status, r.stderr)
	}
	return strings.TrimSpace(r.stdout)
}

// TestNamesOverSSH: a new key is shown its login; its name is kept from
// its first need (here, choosing it) across reconnects and restarts; a
// second key logging in as the same user then, and anyone logging in as
// root, gets a name of its own; guests are guest-XXXX; bad names are
// refused with the reason.
func TestNamesOverSSH(t *testing.T) {
	dir := t.TempDir()
	srv := startServerIn(t, dir, func(*lobby.Config) {})
	desk, laptop, admin := newKey(t), newKey(t), newKey(t)
	alice := dialKey(t, srv.addr, "alice", desk)
	if r := run(t, alice, "name", ""); r.stdout != "alice\n" {
		t.Fatalf("the first alice is %q", r.stdout)
	}
	if r := run(t, alice, "name alice", ""); r.status != 0 || r.stdout != "alice\n" {
		t.Fatalf("the first alice keeping her name: %+v", r)
	}
	friend := dialKey(t, srv.addr, "alice", laptop)
	if r := run(t, friend, "name", ""); !defaultName.MatchString(r.stdout) {
		t.Fatalf("a second key logging in as alice is %q, want player-XXXX", r.stdout)
	}
	if r := run(t, dialKey(t, srv.addr, "root", admin), "name", ""); !defaultName.MatchString(r.stdout) {
		t.Fatalf("a key logging in as root is %q, want player-XXXX", r.stdout)
	}
	guest := dial(t, srv.addr, "root", gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil }))
	if r := run(t, guest, "name", ""); !regexp.MustCompile(`^guest-[a-z2-7]{4}\n$`).MatchString(r.stdout) {
		t.Fatalf("a guest logging in as root is %q", r.stdout)
	}
	if r := run(t, guest, "name Gus", ""); r.status == 0 || !strings.Contains(r.stderr, "guests have no profile") {
		t.Fatalf("a guest choosing a name: %d %q", r.status, r.stderr)
	}
	for cmd, why := range map[string]string{
		"name alice":                 `"alice" is taken`,
		"name ALICE":                 `"ALICE" is taken`,
		"name 'bo\x1b]0;pwned\x07b'": "control characters or escape sequences",
		"name 'bo\u202eb'":           "direction-changing characters (U+202E)",
		"name b":                     "2 to 16 characters",
		"name root":                  "reserved",
	} {
		if r := run(t, friend, cmd, ""); r.status == 0 || !strings.Contains(r.stderr, why) {
			t.Errorf("%q: status %d, %q; want a refusal saying %s", cmd, r.status, r.stderr, why)
		}
	}
	if r := run(t, friend, "name Bea Smith", ""); r.status != 0 || r.stdout != "Bea Smith\n" {
		t.Fatalf("name Bea Smith: %d %q %q", r.status, r.stdout, r.stderr)
	}
	if r := run(t, dialKey(t, srv.addr, "alice", laptop), "whoami", ""); !strings.Contains(r.stdout, "name: Bea Smith\n") {
		t.Fatalf("after reconnecting: %q", r.stdout)
	}

	// Both alices at one table show as themselves.
	code := newRoom(t, friend, "--players 2")
	streams := []*stream{startPlay(t, dialKey(t, srv.addr, "alice", desk), "play "+code), startPlay(t, friend, "play "+code)}
	var seats []lobby.SeatInfo
	for l := range streams[1].lines {
		if l.Room.Started {
			seats = l.Room.Seats
			break
		}
	}
	if len(seats) != 2 || !(seats[0].Name == "Bea Smith" && seats[1].Name == "alice" || seats[0].Name == "alice" && seats[1].Name == "Bea Smith") {
		t.Fatalf("the table shows %+v", seats)
	}
	for _, s := range streams {
		s.in.Close()
	}

	// A restart on the same data directory keeps every name.
	srv.Close()
	srv.store.Close()
	srv = startServerIn(t, dir, func(*lobby.Config) {})
	for key, want := range map[gossh.Signer]string{desk: "alice\n", laptop: "Bea Smith\n"} {
		if r := run(t, dialKey(t, srv.addr, "someone", key), "name", ""); r.stdout != want {
			t.Errorf("after a restart: %q, want %q", r.stdout, want)
		}
	}
}

// TestLinkOverSSH: a code shown on one key links another key to the same
// player, whose seats it then reaches; wrong, reused and lapsed codes are
// refused, and guessing codes is cut off like guessing rooms.
func TestLinkOverSSH(t *testing.T) {
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	srv := startServerIn(t, t.TempDir(), func(c *lobby.Config) {
		c.Now = clock
		c.Limits = lobby.Limits{LookupMisses: 3, LookupWindow: time.Hour}
	})
	desk, laptop := newKey(t), newKey(t)
	deskC := dialKey(t, srv.addr, "alice", desk)
	code := newRoom(t, deskC, "--players 2 --private")
	s := startPlay(t, deskC, "play "+code)
	<-s.lines
	s.in.Close()

	r := run(t, deskC, "link", "")
	shown := strings.TrimSpace(r.stdout)
	if r.status != 0 || !regexp.MustCompile(`^[A-Z2-9]{5}-[A-Z2-9]{5}$`).MatchString(shown) || !strings.Contains(r.stderr, "link "+shown) {
		t.Fatalf("link: %d %q %q", r.status, r.stdout, r.stderr)
	}
	laptopC := dialKey(t, srv.addr, "alice", laptop)
	if r := run(t, laptopC, "link ABCDE-FGHJK", ""); r.status == 0 || !strings.Contains(r.stderr, "no such link code") {
		t.Fatalf("a wrong code: %d %q", r.status, r.stderr)
	}
	if r := run(t, laptopC, "link "+strings.ToLower(shown), ""); r.status != 0 || !strings.Contains(r.stdout, "This key plays as alice now (2 linked keys)") {
		t.Fatalf("link with the code: %d %q %q", r.status, r.stdout, r.stderr)
	}
	laptopC = dialKey(t, srv.addr, "laptop-user", laptop)
	if r := run(t, laptopC, "whoami", ""); !strings.Contains(r.stdout, "name: alice\n") || !strings.Contains(r.stdout, "(linked)") {
		t.Fatalf("whoami on the linked key: %q", r.stdout)
	}
	// The laptop reaches the desk's seat in the private room with the
	// code alone, as the seat's own player.
	s = startPlay(t, laptopC, "play "+code)
	if l := <-s.lines; l.Error != "" || l.Seat != 0 {
		t.Fatalf("the linked key joins %+v", l)
	}
	s.in.Close()
	if r := run(t, dialKey(t, srv.addr, "alice", desk), "profile", ""); !strings.Contains(r.stdout, "2 linked keys") {
		t.Fatalf("profile after linking: %q", r.stdout)
	}

	other := dialKey(t, srv.addr, "carol", newKey(t))
	if r := run(t, other, "link "+shown, ""); r.status == 0 || !strings.Contains(r.stderr, "no such link code") {
		t.Fatalf("a reused code: %d %q", r.status, r.stderr)
	}
	stale := strings.TrimSpace(run(t, deskC, "link", "").stdout)
	mu.Lock()
	now = now.Add(players.LinkCodeLife + time.Second)
	mu.Unlock()
	if r := run(t, other, "link "+stale, ""); r.status == 0 || !strings.Contains(r.stderr, "no such link code") {
		t.Fatalf("a lapsed code: %d %q", r.status, r.stderr)
	}
	// The fourth wrong code with this key is past the limit of 3: the
	// connection ends.
	if r := run(t, other, "link YYYYY-YYYYY", ""); !strings.Contains(r.stderr, "no such link code") {
		t.Fatalf("the third wrong code: %q", r.stderr)
	}
	r, err := attempt(other, "link ZZZZZ-ZZZZZ")
	if err == nil && !strings.Contains(r.stderr, "too many wrong room codes with your key") {
		t.Fatalf("the fourth wrong code: %v %q", err, r.stderr)
	}
	if _, err := attempt(other, "whoami"); err == nil {
		t.Fatal("the connection lives on past the lookup limit")
	}
}

// TestRatingsOverSSH: a finished game between two people moves both
// ratings, and the last update of each play stream says by how much; then
// top, profile and mine show the records, as text and as JSON.
func TestRatingsOverSSH(t *testing.T) {
	srv := startServer(t)
	alice, bob := dialKey(t, srv.addr, "alice", newKey(t)), dialKey(t, srv.addr, "bob", newKey(t))
	code := newRoom(t, alice, "--players 2")
	lasts := playGame(t, code, alice, bob)
	for i, l := range lasts {
		if !l.Room.Over || len(l.Room.Ratings) != 2 || l.Room.Recording {
			t.Fatalf("player %d's last update: over %v, ratings %+v", i+1, l.Room.Over, l.Room.Ratings)
		}
	}
	res := lasts[0].Room.Result
	byName := map[string]players.SeatRating{}
	for _, r := range lasts[0].Room.Ratings {
		byName[r.Name] = r
		if r.Games != 1 || r.Change != r.Rating {
			t.Errorf("a newcomer's first rating: %+v", r)
		}
	}
	// Both sit down at once, so either may hold seat 0; and they act at
	// once, so the game may end in a tie: then both are winners and top
	// orders equal ratings by name, not by result.
	tie := res.Ranks[0] == res.Ranks[1]
	winner, loser := lasts[0].Room.Seats[0].Name, lasts[0].Room.Seats[1].Name
	if tie {
		winner, loser = "alice", "bob"
	} else if res.Won(1) {
		winner, loser = loser, winner
	}
	if !tie && byName[winner].Rating <= byName[loser].Rating {
		t.Errorf("winner %s rated %v, loser %v", winner, byName[winner].Rating, byName[loser].Rating)
	}

	r := run(t, bob, "top", "")
	if r.status != 0 || !strings.Contains(r.stdout, "RANK") || !strings.Contains(r.stdout, "bob (you)") ||
		!strings.Contains(r.stdout, "alice") || strings.Index(r.stdout, winner) > strings.Index(r.stdout, loser) {
		t.Fatalf("top:\n%s%s", r.stdout, r.stderr)
	}
	var board struct {
		Game      string             `json:"game"`
		Standings []players.Standing `json:"standings"`
	}
	if err := json.Unmarshal([]byte(run(t, alice, "top --json --game factories", "").stdout), &board); err != nil ||
		board.Game != "factories" || len(board.Standings) != 2 || board.Standings[0].Name != winner || board.Standings[0].Games != 1 {
		t.Fatalf("top --json: %+v, %v", board, err)
	}
	if r := run(t, alice, "top --game furnace --json", ""); !strings.Contains(r.stdout, `"standings": []`) {
		t.Fatalf("top of an unplayed game: %q", r.stdout)
	}
	if r := run(t, alice, "top --game chess", ""); r.status == 0 || !strings.Contains(r.stderr, "choose factories or furnace") {
		t.Fatalf("top of a game not here: %q", r.stderr)
	}

	// A solo game is not rated; it makes a record against The Machine.
	solo := newRoom(t, alice, "--players 1 --difficulty easy")
	if l := playGame(t, solo, alice)[0]; l.Room.Solo == nil || l.Room.Solo.Opponent != "The Machine (easy)" || len(l.Room.Ratings) != 0 {
		t.Fatalf("the solo game's last update: %+v", l.Room)
	}
	r = run(t, alice, "profile", "")
	for _, want := range []string{"alice", "2 finished games", "Fantastic Factories: 1 game,", "rating ", "1 rated game",
		"solo against The Machine (easy)", "favourite cards: ", code, solo} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("profile lacks %q:\n%s", want, r.stdout)
		}
	}
	var prof players.Summary
	if err := json.Unmarshal([]byte(run(t, bob, "profile alice --json", "").stdout), &prof); err != nil ||
		prof.Name != "alice" || prof.Games != 2 || len(prof.ByGame) != 1 || prof.ByGame[0].Rating == nil || len(prof.Recent) != 2 || prof.Keys != 0 {
		t.Fatalf("profile alice --json as bob sees it: %+v, %v", prof, err)
	}
	if r := run(t, bob, "profile nobody", ""); r.status == 0 || !strings.Contains(r.stderr, "nobody here is called nobody") {
		t.Fatalf("profile nobody: %q", r.stderr)
	}

	// Mine lists the room for the seat whose move it is, and only for it.
	next := newRoom(t, alice, "--players 2 --seed 7")
	streams := []*stream{startPlay(t, alice, "play "+next), startPlay(t, bob, "play "+next)}
	var acting []int
	aliceSeat := -1
	for l := range streams[0].lines {
		if l.Room.Started {
			acting, aliceSeat = l.Room.Acting, l.Seat
			break
		}
	}
	if len(acting) != 1 {
		t.Fatalf("acting in the market phase: %v", acting)
	}
	mover, waiter := alice, bob
	if acting[0] != aliceSeat {
		mover, waiter = bob, alice
	}
	var mine []lobby.RoomInfo
	if err := json.Unmarshal([]byte(run(t, mover, "mine --json", "").stdout), &mine); err != nil || len(mine) != 1 || mine[0].Code != next {
		t.Fatalf("mine --json for the seat to move: %+v, %v", mine, err)
	}
	if r := run(t, mover, "mine", ""); !strings.Contains(r.stdout, next) || !strings.Contains(r.stdout, "round 1") {
		t.Fatalf("mine for the seat to move:\n%s", r.stdout)
	}
	if r := run(t, waiter, "mine", ""); r.stdout != "No game waits on your move.\n" {
		t.Fatalf("mine for the seat that waits: %q", r.stdout)
	}
	if r := run(t, waiter, "mine --json", ""); strings.TrimSpace(r.stdout) != "[]" {
		t.Fatalf("mine --json for the seat that waits: %q", r.stdout)
	}
	for _, s := range streams {
		s.in.Close()
	}
}

// TestLinkedKeysKeepTheirOwnRights: a key linked to an operator's profile
// plays as the operator but has no operator commands, and a ban on one
// key of a profile keeps that key out, not the other.
func TestLinkedKeysKeepTheirOwnRights(t *testing.T) {
	op, laptop := newKey(t), newKey(t)
	srv := startServer(t, withOperators(io.Discard, op))
	opC := dialKey(t, srv.addr, "olga", op)
	code := strings.TrimSpace(run(t, opC, "link", "").stdout)
	lapC := dialKey(t, srv.addr, "olga", laptop)
	if r := run(t, lapC, "link "+code, ""); r.status != 0 {
		t.Fatalf("link: %q", r.stderr)
	}
	lapC = dialKey(t, srv.addr, "olga", laptop)
	if r := run(t, lapC, "whoami", ""); !strings.Contains(r.stdout, "name: olga") {
		t.Fatalf("the linked key: %q", r.stdout)
	}
	if r := run(t, lapC, "admin sessions", ""); r.status == 0 || !strings.Contains(r.stderr, "unknown command") {
		t.Fatalf("the linked key ran an operator command: %d %q", r.status, r.stdout)
	}
	if r := run(t, opC, "admin ban "+gossh.FingerprintSHA256(laptop.PublicKey()), ""); r.status != 0 {
		t.Fatalf("ban the laptop's key: %q", r.stderr)
	}
	if r := run(t, dialKey(t, srv.addr, "olga", laptop), "whoami", ""); r.status == 0 || !strings.Contains(r.stderr, "does not accept you") {
		t.Fatalf("the banned laptop's key: %d %q %q", r.status, r.stdout, r.stderr)
	}
	if r := run(t, dialKey(t, srv.addr, "olga", op), "whoami", ""); !strings.Contains(r.stdout, "name: olga") {
		t.Fatalf("the operator's own key after the laptop's ban: %q", r.stdout)
	}
}
