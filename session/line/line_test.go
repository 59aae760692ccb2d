package line

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
)

// syncBuffer is output read while it is written.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// run starts the line mode on pipes, and returns its input and output.
func run(t *testing.T, echo bool, start session.Start) (io.Writer, *syncBuffer, func()) {
	t.Helper()
	return runOn(t, lobby.New(lobby.Config{Store: mem.New(), Games: games.Lobby(games.All())}), echo, start)
}

// runOn is run on the lobby l.
func runOn(t *testing.T, l *lobby.Lobby, echo bool, start session.Start) (io.Writer, *syncBuffer, func()) {
	t.Helper()
	gs := games.All()
	in, w := io.Pipe()
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Config{Lobby: l, Games: games.Screens(gs), Player: lobby.Player{ID: "SHA256:al", Key: "SHA256:al", Name: "al"},
			Start: start, In: in, Out: out, Echo: echo})
	}()
	return w, out, func() {
		cancel()
		w.Close()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}
}

func waitOut(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	waitOutFrom(t, out, 0, want)
}

// waitOutFrom waits for want in what was written past the first from
// bytes: an answer to what was just typed, not to something before it.
func waitOutFrom(t *testing.T, out *syncBuffer, from int, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String()[from:], want) {
		if time.Now().After(deadline) {
			t.Fatalf("never wrote %q; wrote:\n%s", want, out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestLobbyWelcomes(t *testing.T) {
	in, out, stop := run(t, false, session.Start{Mode: "lobby"})
	defer stop()
	waitOut(t, out, "Welcome to smokestack, al.")
	io.WriteString(in, "games\n")
	waitOut(t, out, "Furnace")
}

// TestEditorEchoesAndEdits: typed keys are echoed, backspace and ^U edit
// the line, and escape sequences (arrows) are read and dropped, never
// echoed: the echo carries no escape byte.
func TestEditorEchoesAndEdits(t *testing.T) {
	var echoed []byte
	e := editor{echo: true, max: 10, out: func(b []byte) { echoed = append(echoed, b...) }}
	lines := e.feed([]byte("ab\x7fc\x1b[Ad\x1bOB\r\nxyz\x15look\r"))
	if len(lines) != 2 || lines[0].text != "acd" || lines[1].text != "look" {
		t.Fatalf("lines = %+v; want acd, look", lines)
	}
	if strings.ContainsRune(string(echoed), 0x1b) {
		t.Errorf("the echo carries an escape byte: %q", echoed)
	}
	if !strings.Contains(string(echoed), "b\b \bc") {
		t.Errorf("backspace is not echoed as one: %q", echoed)
	}
	// A line past the bound is refused whole, and the next read afresh.
	lines = e.feed([]byte("0123456789abc\rok\r"))
	if len(lines) != 2 || !lines[0].tooLong || lines[1].text != "ok" || lines[1].tooLong {
		t.Errorf("lines = %+v; want one too long, then ok", lines)
	}
}

// TestEventsNeverBreakATypedLine: an event that comes while a line is
// half typed waits for Enter; one at an empty prompt is written over the
// prompt, which comes again under it.
func TestEventsNeverBreakATypedLine(t *testing.T) {
	var out bytes.Buffer
	tm := newTerm(&out, true, 100)
	tm.words = strings.NewReplacer()
	tm.done() // the first prompt
	if got := out.String(); got != prompt {
		t.Fatalf("the prompt: %q", got)
	}
	tm.ed.feed([]byte("lo"))
	tm.event("bob built Obelisk")
	tm.flush()
	if strings.Contains(out.String(), "Obelisk") {
		t.Fatalf("an event broke the line being typed: %q", out.String())
	}
	out.Reset()
	for _, l := range tm.ed.feed([]byte("ok\r")) {
		tm.answer("you typed " + l.text)
	}
	tm.done()
	if got, want := out.String(), "ok\nyou typed look\nbob built Obelisk\n"+prompt; got != want {
		t.Errorf("after Enter: %q; want %q", got, want)
	}
	out.Reset()
	tm.event("alice took Gymnasium")
	tm.flush()
	if got, want := out.String(), "\ralice took Gymnasium\n"+prompt; got != want {
		t.Errorf("an event at an empty prompt: %q; want %q", got, want)
	}
}

// TestHostSeatsABot: a room made with a free seat starts once the host
// seats a bot in it from the line mode, and the host's turn is said.
func TestHostSeatsABot(t *testing.T) {
	in, out, stop := run(t, false, session.Start{Mode: "lobby"})
	defer stop()
	waitOut(t, out, "Welcome")
	io.WriteString(in, "new furnace 2 players\n")
	waitOut(t, out, "Waiting for 1 more player. Seated: you.")
	io.WriteString(in, "bot\n")
	waitOut(t, out, "now plays seat 2")
	waitOut(t, out, "your turn. ")
	io.WriteString(in, "look\n")
	waitOut(t, out, "al: money")
	// The turn's line says the header's words once, begun as a sentence.
	if o := out.String(); strings.Count(strings.ToLower(o), "your turn") != 2 || !strings.Contains(o, "\nRound 1 of 4, auction, your turn.") {
		t.Errorf("the turn's line and look's header should each say \"your turn\" once; wrote:\n%s", o)
	}
}

// TestBackToTheWaitingMove: a plain ssh HOST (the lobby, Back) says
// which game waits on the player's move, as the screen's landing does.
func TestBackToTheWaitingMove(t *testing.T) {
	l := lobby.New(lobby.Config{Store: mem.New(), Games: games.Lobby(games.All())})
	in, out, stop := runOn(t, l, false, session.Start{Mode: "lobby"})
	io.WriteString(in, "new furnace 2 players 1 bot no clock\n")
	waitOut(t, out, "your turn.")
	code := strings.Fields(strings.SplitN(out.String(), "Room ", 2)[1])[0]
	io.WriteString(in, "quit\n")
	waitOut(t, out, "Goodbye.")
	stop()
	_, out, stop = runOn(t, l, false, session.Start{Mode: "lobby", Back: true})
	defer stop()
	waitOut(t, out, "Your move is waiting in room "+code+", Furnace: type join "+code+".")
}

// TestSoloTableTellsOfTheMachine: at a solo table, look and board name
// The Machine and say what it holds, as the screen's panel shows it; and
// hint says the search bot's best moves, numbered as moves numbers them,
// so typing one's number plays it.
func TestSoloTableTellsOfTheMachine(t *testing.T) {
	in, out, stop := soloTable(t)
	defer stop()
	io.WriteString(in, "look\n")
	waitOut(t, out, "Players: you; The Machine.")
	waitOut(t, out, "The Machine: points 3, goods 0, buildings 3") // as it starts this game
	io.WriteString(in, "board machine\n")
	waitOut(t, out, ": The Machine's compound") // its three buildings, each named
	if strings.Contains(out.String(), "Nobody at this table") {
		t.Errorf("board machine found nobody:\n%s", out.String())
	}

	// The market's list is shown and a move of it played: the work
	// phase's moves are numbered afresh, and the hint's numbers are of
	// those, not of the list shown last.
	io.WriteString(in, "moves\n")
	waitOut(t, out, "\n1. ")
	mark := len(out.String())
	playNumber(t, in, out, "1", "")
	waitOutFrom(t, out, mark, "You rolled")
	io.WriteString(in, "hint\n")
	waitOut(t, out, "The search bot's best moves for you")
	waitOut(t, out, ", worth ")
	var first string
	deadline := time.Now().Add(10 * time.Second)
	for first == "" && time.Now().Before(deadline) {
		for _, l := range strings.Split(out.String(), "\n") {
			if n, label, ok := strings.Cut(l, ". "); ok && strings.Contains(label, ", worth ") && n != "" && strings.Trim(n, "0123456789") == "" {
				first = n + "\t" + strings.SplitN(label, ", worth ", 2)[0]
				break
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	n, label, ok := strings.Cut(first, "\t")
	if !ok {
		t.Fatalf("no numbered hint line:\n%s", out.String())
	}
	playNumber(t, in, out, n, label)
}

// soloTable runs the line mode at a new solo game of Fantastic
// Factories, once its first turn is said.
func soloTable(t *testing.T) (io.Writer, *syncBuffer, func()) {
	t.Helper()
	in, out, stop := run(t, false, session.Start{Mode: "lobby"})
	waitOut(t, out, "Welcome")
	io.WriteString(in, "new factories 1 player\n")
	waitOut(t, out, "your turn.")
	return in, out, stop
}

// playNumber types a move's number and waits for it to be played (label,
// when given), saying yes when the mode asks first.
func playNumber(t *testing.T, in io.Writer, out *syncBuffer, number, label string) {
	t.Helper()
	mark := len(out.String())
	io.WriteString(in, number+"\n")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		said := out.String()[mark:]
		if strings.Contains(said, "Type yes") {
			io.WriteString(in, "yes\n")
			break
		}
		if strings.Contains(said, "played: ") || time.Now().After(deadline) {
			break
		}
	}
	waitOutFrom(t, out, mark, "played: "+label)
}

// TestNewRoomTakesTheFormsChoices: new takes what the screen's form
// offers: a game's options, by name or by a value only one option has,
// and which bot plays; games lists them; an option for other seats is
// refused with a reason.
func TestNewRoomTakesTheFormsChoices(t *testing.T) {
	l := lobby.New(lobby.Config{Store: mem.New(), Games: games.Lobby(games.All())})
	in, out, stop := runOn(t, l, false, session.Start{Mode: "lobby"})
	defer stop()
	waitOut(t, out, "Welcome")
	io.WriteString(in, "games\n")
	waitOut(t, out, "Option difficulty, for a game of 1 player: easy, medium, hard, insane; medium if")
	waitOut(t, out, "Option rounds: 4, 3; 4 if you say nothing.")
	io.WriteString(in, "new factories 2 players hard\n")
	waitOut(t, out, "difficulty is only for a game of 1 player.")
	for i, tc := range []struct{ typed, option, value, bot string }{
		{"new factories 1 player hard", "difficulty", "hard", ""},
		{"new factories 1 player difficulty insane", "difficulty", "insane", ""},
		{"new furnace 3 rounds 2 players 1 search bot capitalists on", "rounds", "3", "search"},
	} {
		mark := len(out.String())
		if i > 0 {
			io.WriteString(in, "leave\n") // the table before
		}
		io.WriteString(in, tc.typed+"\n")
		waitOutFrom(t, out, mark, "You sit in seat 1 of room ")
		code := strings.Fields(strings.SplitN(out.String()[mark:], "You sit in seat 1 of room ", 2)[1])[0]
		code = strings.TrimSuffix(code, ",")
		m, err := l.Info(t.Context(), code, lobby.Player{ID: "SHA256:al", Key: "SHA256:al", Name: "al"})
		if err != nil {
			t.Fatalf("%s: room %s: %v", tc.typed, code, err)
		}
		if !strings.Contains(string(m.Options), `"`+tc.option+`":"`+tc.value+`"`) {
			t.Errorf("%s: options %s, want %s %s", tc.typed, m.Options, tc.option, tc.value)
		}
		if tc.bot != "" && (len(m.Seats) != 2 || m.Seats[1].Bot != tc.bot) {
			t.Errorf("%s: seats %+v, want the second played by %s", tc.typed, m.Seats, tc.bot)
		}
	}
}
