package server

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/kit"
	linemode "github.com/smokestack/smokestack/session/line"
)

// reader is a player who reads only lines, as a screen reader or a
// braille display would: the line mode over a real ssh session. Every
// line it reads is checked, and the test fails on any escape byte, any
// line over 80 columns that is more than one word, and any line made
// only of symbols.
type reader struct {
	t    *testing.T
	name string
	sess *gossh.Session
	in   io.Writer
	p    *lang.Printer

	mu    sync.Mutex
	lines []string // every line read, as shown
	more  chan struct{}
	done  bool
}

// startReader runs cmd for c's player, with a PTY of term when term is
// not "none" (a dumb terminal), and reads its lines in p's language.
func startReader(t *testing.T, c *gossh.Client, name, term, cmd string, p *lang.Printer) *reader {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	if term != "none" {
		if err := sess.RequestPty(term, 24, 80, gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
	}
	in, out := pipes(t, sess)
	start := func() error { return sess.Start(cmd) }
	if cmd == "" {
		start = sess.Shell // plain ssh -t HOST
	}
	if err := start(); err != nil {
		t.Fatal(err)
	}
	r := &reader{t: t, name: name, sess: sess, in: in, p: p, more: make(chan struct{}, 1)}
	go r.read(out)
	return r
}

// read splits the output into lines as a terminal shows them: "\r"
// returns to the line's start, and what follows is what shows.
func (r *reader) read(out io.Reader) {
	buf := make([]byte, 4096)
	var cur []byte
	cr := false // a "\r" came last: what comes next is written over cur
	for {
		n, err := out.Read(buf)
		for _, b := range buf[:n] {
			if b == 0x1b {
				r.t.Errorf("%s: an escape byte in the line mode's output, after %q", r.name, cur)
			}
			switch {
			case b == '\n':
				r.add(string(cur))
				cur, cr = cur[:0], false
			case b == '\r':
				cr = true
			default:
				if cr {
					cur, cr = cur[:0], false
				}
				cur = append(cur, b)
			}
		}
		if err != nil {
			r.mu.Lock()
			r.done = true
			r.mu.Unlock()
			r.signal()
			return
		}
	}
}

func (r *reader) signal() {
	select {
	case r.more <- struct{}{}:
	default:
	}
}

// add checks one line and keeps it.
func (r *reader) add(l string) {
	l = strings.TrimPrefix(l, "> ") // typed after the prompt: the echo
	if kit.Width(l) > linemode.Width && strings.Contains(strings.TrimSpace(l), " ") {
		r.t.Errorf("%s: a line over %d columns: %q", r.name, linemode.Width, l)
	}
	if strings.ContainsAny(l, screenSymbols) {
		r.t.Errorf("%s: a line with a symbol the screens draw, which a screen reader reads as noise: %q", r.name, l)
	}
	if strings.TrimSpace(l) != "" && strings.IndexFunc(l, func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }) < 0 {
		r.t.Errorf("%s: a line made only of symbols: %q", r.name, l)
	}
	r.mu.Lock()
	r.lines = append(r.lines, l)
	r.mu.Unlock()
	r.signal()
}

// send types one line.
func (r *reader) send(text string) {
	if _, err := io.WriteString(r.in, text+"\n"); err != nil {
		r.t.Fatalf("%s: typing %q: %v", r.name, text, err)
	}
}

// mark is where the lines read so far end.
func (r *reader) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.lines)
}

// since returns the lines read from mark on.
func (r *reader) since(from int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines[min(from, len(r.lines)):]...)
}

// await waits until a line read from mark on satisfies ok, and returns
// it.
func (r *reader) await(from int, what string, ok func(string) bool) string {
	r.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		for _, l := range r.since(from) {
			if ok(l) {
				return l
			}
		}
		r.mu.Lock()
		done := r.done
		r.mu.Unlock()
		if done {
			r.t.Fatalf("%s: the session ended before %s; it read:\n%s", r.name, what, strings.Join(r.since(max(0, from-20)), "\n"))
		}
		select {
		case <-r.more:
		case <-deadline:
			r.t.Fatalf("%s: never read %s; it read:\n%s", r.name, what, strings.Join(r.since(max(0, from-40)), "\n"))
		}
	}
}

// awaitLine waits for a line equal to want.
func (r *reader) awaitLine(from int, want string) {
	r.t.Helper()
	r.await(from, fmt.Sprintf("%q", want), func(l string) bool { return strings.TrimSpace(l) == want })
}

// screenSymbols are the marks the full screen draws, each meaning
// something a line must say in words.
const screenSymbols = "→★✓⇧×•♠♥♦♣✦▸◂⏎≤"

var (
	roomCode   = regexp.MustCompile(`\b[A-HJKMNP-Z2-9]{6}\b`)
	movesHead  = regexp.MustCompile(`^(\d+) \S+:$`)
	numberedMv = regexp.MustCompile(`^(\d+)\. (.+)$`)
)

// playOut plays the reader's seat to the end of the game by reading
// lines alone: it asks for its moves, and plays the first, by its
// number, or every third time by its words; a move that must be
// confirmed gets yes. It returns how many moves it played.
func (r *reader) playOut(ctx context.Context, over func() bool) int {
	r.t.Helper()
	played := 0
	for !over() {
		if ctx.Err() != nil {
			r.t.Fatalf("%s: the game did not end in time; it read last:\n%s", r.name, strings.Join(r.since(max(0, r.mark()-30)), "\n"))
		}
		from := r.mark()
		r.send("moves")
		// The answer: a count and the numbered moves, or why there are
		// none; either way one line at least.
		r.await(from, "the answer to moves", func(string) bool { return true })
		// The first move that takes nothing back (the undo group's
		// title names its key, u, in every language).
		var n, pick int
		var label string
		deadline := time.Now().Add(2 * time.Second)
		for time.Now().Before(deadline) {
			n, pick, label = 0, 0, ""
			for _, l := range r.since(from) {
				if m := movesHead.FindStringSubmatch(l); m != nil {
					n, _ = strconv.Atoi(m[1])
				}
				if mv := numberedMv.FindStringSubmatch(l); mv != nil && n > 0 && pick == 0 && !strings.Contains(mv[2], "(u)") {
					pick, _ = strconv.Atoi(mv[1])
					label = mv[2]
				}
			}
			if n == 0 || pick != 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if n == 0 || pick == 0 {
			// Not this seat's turn: wait for something to happen.
			select {
			case <-r.more:
			case <-time.After(500 * time.Millisecond):
			}
			continue
		}
		if played%3 == 2 {
			r.send(label) // by its words: they name it alone, or the mode lists the few
		} else {
			r.send(strconv.Itoa(pick))
		}
		r.send("yes")
		played++
	}
	return played
}

// TestPlayThroughLineModeAgainstBots: a player who reads only lines
// starts `ssh HOST plain`, picks a language, opens a 2-player room
// with a bot, and plays Fantastic Factories and Furnace to the end, in
// English and in Portuguese.
func TestPlayThroughLineModeAgainstBots(t *testing.T) {
	srv := startServer(t)
	for _, c := range []struct {
		game string
		tag  lang.Tag
	}{
		{"factories", lang.English}, {"furnace", lang.English},
		{"factories", lang.Portuguese}, {"furnace", lang.Portuguese},
	} {
		t.Run(c.game+"/"+string(c.tag), func(t *testing.T) {
			t.Parallel()
			name := c.game[:4] + string(c.tag)
			cl := dialKey(t, srv.addr, name, newKey(t))
			p := lang.For(c.tag)
			r := startReader(t, cl, name, "none", "plain", lang.For(lang.English))
			r.await(0, "the welcome", func(l string) bool { return strings.Contains(l, name) })
			from := r.mark()
			r.send("lang " + string(c.tag))
			r.awaitLine(from, p.T("line.lang.now", "Lang", c.tag.Name()))
			r.p = p
			from = r.mark()
			r.send("new " + c.game + " 2 players 1 bot")
			created := r.await(from, "the new room", func(l string) bool { return roomCode.MatchString(l) })
			code := roomCode.FindString(created)
			r.awaitLine(from, p.T("line.table.hint"))
			from = r.mark()
			r.send("look")
			r.await(from, "look's answer", func(l string) bool { return strings.Contains(l, code) })
			ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
			defer cancel()
			over := func() bool {
				info, err := srv.lobby.Info(context.Background(), code, srvPlayer(name))
				return err == nil && info.Over
			}
			played := r.playOut(ctx, over)
			r.awaitLine(0, p.T("line.table.after"))
			t.Logf("%s played %d moves; the end read: %q", name, played, r.since(max(0, r.mark()-4)))
			if played < 5 {
				t.Errorf("the game ended after %d moves of the reader's", played)
			}
			// The state on demand, after the game: bounded answers.
			for _, cmd := range []string{"log 5", "hand", "market", "board", "rules", "rules 1", "help"} {
				from := r.mark()
				r.send(cmd)
				r.await(from, "an answer to "+cmd, func(string) bool { return true })
			}
			// A rematch at the same table: the bot accepts at once, and
			// the reader sits in the new room.
			from = r.mark()
			r.send("rematch")
			g, _ := srv.lobby.Game(c.game)
			r.await(from, "a seat in the rematch", func(l string) bool {
				fresh := roomCode.FindString(l)
				return fresh != "" && fresh != code && l == p.T("line.table.seated", "Code", fresh, "Game", session.GameTitle(p, g), "Seat", 1)
			})
			from = r.mark()
			r.send("quit")
			r.awaitLine(from, p.T("line.bye"))
			// The finished game's log, a page at a time, for anyone.
			rp := startReader(t, dialKey(t, srv.addr, "rp"+name, newKey(t)), "rp"+name, "none", "replay "+code+" --plain", lang.For(lang.English))
			rp.await(0, "the replay's first page", func(l string) bool { return strings.HasPrefix(l, "The game in room "+code) })
			rp.send("quit")
		})
	}
}

// srvPlayer is a player for the lobby calls a test makes: any player
// may read a public room.
func srvPlayer(name string) lobby.Player { return lobby.Player{ID: "SHA256:test-" + name, Name: name} }

// TestDumbTerminalLandsInLineMode: `TERM=dumb ssh -t HOST` opens the
// line mode's lobby, echoing what is typed, with no escape sequence.
func TestDumbTerminalLandsInLineMode(t *testing.T) {
	srv := startServer(t)
	for _, term := range []string{"dumb", ""} {
		cl := dialKey(t, srv.addr, "dumbo", newKey(t))
		r := startReader(t, cl, "dumbo", term, "", lang.For(lang.English))
		welcome := lang.For(lang.English).T("line.lobby.welcome", "Name", "dumbo")
		r.awaitLine(0, welcome)
		from := r.mark()
		r.send("games")
		r.await(from, "the games", func(l string) bool { return strings.Contains(l, "Furnace") })
		// What was typed is echoed, after the prompt.
		if !hasLine(r.since(from), "games") {
			t.Errorf("TERM=%q: the typed command was not echoed; read %q", term, r.since(from))
		}
	}
}

func hasLine(lines []string, want string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) == want {
			return true
		}
	}
	return false
}

// TestPlayThroughScreenAndLinesShareATable: alice on the full screen and
// bob in the line mode sit at one Fantastic Factories table. Each sees
// the other's moves as they are played, in their own way; bob's chat
// reaches alice's table and alice's reaches bob as a line; the
// rest of the game goes to bots and ends for both.
func TestPlayThroughScreenAndLinesShareATable(t *testing.T) {
	srv := startServer(t)
	code := newRoom(t, dialKey(t, srv.addr, "host", newKey(t)), "--game factories --players 2")
	alice := sitDown(t, srv.addr, "alice", 80, 24, "join "+code)
	alice.sees("WAITING ROOM")
	en := lang.For(lang.English)
	bob := startReader(t, dialKey(t, srv.addr, "bob", newKey(t)), "bob", "none", "join "+code+" --plain", en)
	bob.awaitLine(0, en.T("line.table.seated", "Code", code, "Game", "Fantastic Factories", "Seat", 2))
	alice.sees("round 1", "market phase")
	// carol watches in the line mode: she hears both players' moves.
	carol := startReader(t, dialKey(t, srv.addr, "carol", newKey(t)), "carol", "none", "watch "+code+" --plain", en)
	carol.awaitLine(0, en.T("line.table.watching", "Code", code, "Game", "Fantastic Factories"))

	acting := func() int {
		info, err := srv.lobby.Info(context.Background(), code, srvPlayer("x"))
		if err != nil || len(info.Acting) == 0 {
			return -1
		}
		return info.Acting[0]
	}
	// The market phase's turn each, whoever starts: alice takes the
	// menu's first move with enter, bob the first of his moves by number.
	for turn := 0; turn < 2; turn++ {
		var seat int
		waitUntil(t, "a seat to act", func() bool { seat = acting(); return seat >= 0 })
		from := bob.mark()
		if seat == 0 {
			alice.sees("your turn")
			alice.press("enter")
			// bob hears it as a sentence: alice's name, then what she did.
			bob.await(from, "alice's move", func(l string) bool { return strings.HasPrefix(l, "alice ") })
		} else {
			bob.send("moves")
			bob.await(from, "bob's moves", func(l string) bool { return strings.HasPrefix(l, "1. ") })
			bob.send("1")
			bob.send("yes")
			bob.await(from, "the move played", func(l string) bool { return strings.HasPrefix(l, "played: ") })
			alice.sees("bob ")
		}
		if turn == 0 {
			waitUntil(t, "the turn to pass", func() bool { return acting() != seat })
		}
	}
	carol.await(0, "alice's move", func(l string) bool { return strings.HasPrefix(l, "alice ") })
	carol.await(0, "bob's move", func(l string) bool { return strings.HasPrefix(l, "bob ") })
	from := bob.mark()
	bob.send("say hello from a reader")
	bob.awaitLine(from, "bob says: hello from a reader")
	from = bob.mark()
	alice.press("t")
	alice.sees("bob: hello from a reader")
	alice.press("hi bob", "enter")
	bob.awaitLine(from, "alice says: hi bob")
	// look tells bob where the game stands and what he holds.
	from = bob.mark()
	bob.send("look")
	bob.await(from, "bob's resources", func(l string) bool { return strings.HasPrefix(l, "bob: metal ") })
	bob.send("leave")
	bob.awaitLine(from, en.T("line.table.left"))
}

// TestLineModeKeptForTheKey: `plain on` keeps the line mode for the key,
// so its next terminal session, an xterm's, opens in it; profile says
// so; `plain off` gives the screen back.
func TestLineModeKeptForTheKey(t *testing.T) {
	srv := startServer(t)
	key := newKey(t)
	cl := dialKey(t, srv.addr, "carol", key)
	en := lang.For(lang.English)
	if r := run(t, cl, "plain on", ""); r.status != 0 || !strings.Contains(r.stdout, "line mode is now your choice") {
		t.Fatalf("plain on: %d %q %q", r.status, r.stdout, r.stderr)
	}
	if r := run(t, dialKey(t, srv.addr, "carol", key), "profile", ""); !strings.Contains(r.stdout, en.T("cmd.profile.plain")) {
		t.Errorf("profile does not show the line mode:\n%s", r.stdout)
	}
	r := startReader(t, dialKey(t, srv.addr, "carol", key), "carol", "xterm-256color", "", en)
	r.awaitLine(0, en.T("line.lobby.welcome", "Name", "carol"))
	r.send("quit")
	if res := run(t, dialKey(t, srv.addr, "carol", key), "plain off", ""); res.status != 0 {
		t.Fatalf("plain off: %d %q", res.status, res.stderr)
	}
	scr := &player{t: t, name: "carol", key: key, addr: srv.addr, w: 80, h: 24}
	scr.connect("")
	scr.sees("OPEN SEATS")
}
