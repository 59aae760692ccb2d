package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby"
)

// TestSeedSecretWhileLive plays a live game of each game against a bot
// and reads everything a stranger, a guest and the seated player can:
// the room lists, mine, history, profile and top (JSON and tables), a
// spectator's and the player's play lines, the watch screen, a replay
// of the unfinished game, the metrics and the info log. None holds the
// room's seed or the state of its generator, in any encoding the server
// uses, and no number in any of it, taken as the seed of a fresh room,
// deals that room the live game's deck and dice. A practice room made
// with --seed beside it is the check's control: its seed is shown, and
// the same search finds it.
func TestSeedSecretWhileLive(t *testing.T) {
	for _, g := range testGames {
		t.Run(g.Name(), func(t *testing.T) { seedSecretWhileLive(t, g) })
	}
}

func seedSecretWhileLive(t *testing.T, g lobby.Game) {
	var logs lockedBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	srv := startServerIn(t, t.TempDir(), func(c *lobby.Config) { c.Logger = logger },
		func(s *Server) { s.log, s.cfg.Logger = logger, logger })
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	carol := dialKey(t, srv.addr, "carol", newKey(t))
	guest := dial(t, srv.addr, "guest", guestAuth)

	newRoom := func(flags string) string {
		r := run(t, alice, "new --game "+g.Name()+" --players 2 --bots greedy --clock off"+flags, "")
		if r.status != 0 {
			t.Fatalf("new%s: status %d, %s", flags, r.status, r.stderr)
		}
		return strings.TrimSpace(r.stdout)
	}
	live, practice := newRoom(""), newRoom(" --seed 42")

	var outputs []string // everything read, to search
	var mu sync.Mutex
	read := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		outputs = append(outputs, s)
	}
	seat := startPlay(t, alice, "play "+live)
	playMoves(t, g, seat, 8, read)
	go func() { // the bot plays on: keep what alice's stream shows
		for l := range seat.lines {
			read(string(l.raw))
		}
	}()

	rooms := map[string][]lobby.RoomInfo{}
	for _, ask := range []struct{ who, cmd string }{
		{"carol", "rooms --playing --json"}, {"guest", "rooms --playing --json"}, {"alice", "mine --json"}, {"alice", "history --json"},
		{"carol", "rooms --json"}, {"carol", "rooms --playing"}, {"guest", "rooms --playing"}, {"carol", "rooms"}, {"alice", "mine"}, {"alice", "history"},
		{"alice", "profile --json"}, {"carol", "top --json --game " + g.Name()},
	} {
		c := map[string]*gossh.Client{"alice": alice, "carol": carol, "guest": guest}[ask.who]
		r := run(t, c, ask.cmd, "")
		read(r.stdout + r.stderr)
		if strings.HasSuffix(ask.cmd, "--json") && strings.HasPrefix(r.stdout, "[") {
			var list []lobby.RoomInfo
			if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
				t.Fatalf("%s by %s: %v", ask.cmd, ask.who, err)
			}
			rooms[ask.who+": "+ask.cmd] = list
		}
	}
	watcher := startPlay(t, carol, "play "+live+" --watch")
	for l := range watcher.lines {
		read(string(l.raw))
		if len(l.View) > 0 {
			break
		}
	}
	watcher.sess.Close()
	_, watched := ptySession(t, carol, "watch "+live, 120, 40)
	watched.waitFor(t, "watching")
	_, replayed := ptySession(t, carol, "replay "+live, 120, 40)
	replayed.waitFor(t, "watch it live")
	metrics := httptest.NewRecorder()
	srv.Handler().ServeHTTP(metrics, httptest.NewRequest("GET", "/metrics", nil))
	read(watched.text())
	read(replayed.text())
	read(metrics.Body.String())
	read(logs.String())

	// The room's secrets, read from the store as only the server can:
	// its seed and its generator's state after every move so far.
	game := newGameSecrets(t, srv, g, live)
	control := newGameSecrets(t, srv, g, practice)
	mu.Lock()
	text := strings.Join(outputs, "\n")
	mu.Unlock()

	listed := 0
	for what, list := range rooms {
		for _, r := range list {
			switch {
			case r.Code == live && (r.Seed != nil || r.Practice):
				t.Errorf("%s shows the live room with seed %s, practice %v", what, seedText(r.Seed), r.Practice)
			case r.Code == live:
				listed++
			case r.Code == practice && (r.Seed == nil || *r.Seed != 42 || !r.Practice):
				t.Errorf("%s shows the practice room with seed %s, practice %v; want 42", what, seedText(r.Seed), r.Practice)
			}
		}
	}
	if listed < 3 {
		t.Errorf("the live room is in %d of the JSON lists; want it in the public lists, mine and history", listed)
	}
	for _, secret := range game.secrets {
		for _, enc := range encodings(secret) {
			if at := strings.Index(text, enc); at >= 0 {
				t.Errorf("the output shows %s (a secret of the live game, %d): …%s…", enc, secret, text[max(0, at-120):min(len(text), at+120)])
			}
		}
	}
	candidates := numbers(text)
	for c := range candidates {
		if game.foreseenBy(t, c) {
			t.Errorf("%d, read in the output, deals a fresh room the live game's cards and dice", c)
		}
	}
	foundControl := false
	for c := range candidates {
		foundControl = foundControl || control.foreseenBy(t, c)
	}
	if !foundControl {
		t.Fatal("the search did not find the practice room's seed, which the lists show: it would miss the live one's too")
	}
	t.Logf("%d bytes read, %d numbers tried as seeds, %d secrets of %d moves", len(text), len(candidates), len(game.secrets), len(game.secrets)-1)
}

// seedText words a room's seed as shown: none, or the number.
func seedText(seed *uint64) string {
	if seed == nil {
		return "none"
	}
	return strconv.FormatUint(*seed, 10)
}

// playMoves plays the seat of stream s with the game's greedy bot until
// at least moves moves are stored and none of its own is pending, then
// stops: the game is left running. read gets every line. A move is
// chosen once per view: the answer to a move and the update it makes
// come in either order, and a move refused as stale waits for the view
// that made it so.
func playMoves(t *testing.T, g lobby.Game, s *stream, moves int, read func(string)) {
	t.Helper()
	choose, err := g.Bots.New("greedy", 1)
	if err != nil {
		t.Fatal(err)
	}
	var last line
	pending, sentAt, refused := false, -1, 0
	for l := range s.lines {
		read(string(l.raw))
		switch {
		case l.Error != "":
			if refused++; refused > 5 {
				t.Fatalf("too many refused moves, the last: %s", l.Error)
			}
			pending = false
		case l.OK:
			pending = false
		case len(l.View) > 0:
			last = l
		}
		if pending || len(last.View) == 0 || last.Version <= sentAt {
			continue
		}
		if last.Version >= moves {
			return
		}
		var v struct {
			Legal []json.RawMessage `json:"legal"`
		}
		if json.Unmarshal(last.View, &v) != nil || len(v.Legal) == 0 {
			continue
		}
		move, err := choose(last.View)
		if err != nil {
			t.Fatal(err)
		}
		s.send(t, json.RawMessage(move))
		pending, sentAt = true, last.Version
	}
	t.Fatal("the play stream ended before the game was under way")
}

// gameSecrets are what decides a room's game: its starting state, and its
// seed and generator states, known to the server alone.
type gameSecrets struct {
	rules   engine.Ruleset
	seats   int
	options json.RawMessage
	start   json.RawMessage // the starting state, as JSON
	secrets []uint64
}

func newGameSecrets(t *testing.T, srv *testServer, g lobby.Game, code string) gameSecrets {
	t.Helper()
	meta, moves, err := srv.store.Load(t.Context(), code, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := gameSecrets{rules: g.Rules, seats: len(meta.Seats), options: meta.Options, secrets: []uint64{meta.Seed}}
	state, err := g.Rules.New(s.seats, s.options, meta.Seed)
	if err != nil {
		t.Fatal(err)
	}
	s.start = encodeState(t, state)
	for _, rec := range moves {
		if state, _, err = g.Rules.Apply(state, rec.Seat, rec.Move); err != nil {
			t.Fatal(err)
		}
		var st struct {
			RNG engine.RNG `json:"rng"`
		}
		if err := json.Unmarshal(encodeState(t, state), &st); err != nil || st.RNG.State == 0 {
			t.Fatalf("the state has no generator: %v", err)
		}
		s.secrets = append(s.secrets, st.RNG.State)
	}
	return s
}

// foreseenBy reports whether c, as a room's seed or a generator's state,
// foresees the game: a room made with seed c starts with the same deck,
// or c is where the game's dice are.
func (s gameSecrets) foreseenBy(t *testing.T, c uint64) bool {
	for _, secret := range s.secrets[1:] {
		if c == secret {
			return true
		}
	}
	fresh, err := s.rules.New(s.seats, s.options, c)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(encodeState(t, fresh), s.start)
}

// encodeState is a game's state as JSON, the way the game's engine writes
// it: what a leak of the state would carry.
func encodeState(t *testing.T, state engine.State) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(state)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// encodings are the ways a number could be written out: decimal, signed,
// hexadecimal and as a float (JSON numbers in some languages), which
// leaves few enough bits to try.
func encodings(n uint64) []string {
	out := []string{strconv.FormatUint(n, 10), strconv.FormatInt(int64(n), 10),
		fmt.Sprintf("%x", n), fmt.Sprintf("%X", n), fmt.Sprintf("%016x", n)}
	f := float64(n)
	if f >= 1e15 && f < math.MaxUint64 {
		out = append(out, strconv.FormatFloat(f, 'g', -1, 64), strconv.FormatFloat(f, 'e', 6, 64))
	}
	return out
}

// numbers are the numbers in text a stranger could try as seeds: every
// run of digits, and every run of hexadecimal digits long enough to be
// one written in hexadecimal.
func numbers(text string) map[uint64]bool {
	out := map[uint64]bool{}
	for _, s := range regexp.MustCompile(`\d+`).FindAllString(text, -1) {
		if n, err := strconv.ParseUint(s, 10, 64); err == nil {
			out[n] = true
		}
	}
	for _, s := range regexp.MustCompile(`[0-9a-fA-F]{8,16}`).FindAllString(text, -1) {
		if n, err := strconv.ParseUint(s, 16, 64); err == nil {
			out[n] = true
		}
	}
	return out
}

// lockedBuffer is a buffer goroutines write into while a test reads
// it: the server's log, a player's terminal output.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
