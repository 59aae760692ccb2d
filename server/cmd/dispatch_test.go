package cmd

import (
	"encoding/json"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// What every command has comes from the dispatcher, not from each
// command: these tests go through the command table, so a command added
// to it is held to them too.

// Every command in the table, an operator's too, answers --help and -h
// (in any case, wherever they stand among its arguments) with exactly
// what `help CMD` prints, and exit status 0.
func TestEveryCommandAnswersHelp(t *testing.T) {
	s := newSet()
	for _, cmd := range commands {
		want := s.runLine(alice, "help "+cmd.name, "")
		if want.status != 0 || !strings.HasPrefix(want.out, "usage: "+cmd.name) {
			t.Fatalf("help %s: status %d, %q", cmd.name, want.status, want.out)
		}
		for _, line := range []string{cmd.name + " --help", cmd.name + " -h", cmd.name + " -help", strings.ToUpper(cmd.name) + " --help",
			cmd.name + " ABCDEF --help", cmd.name + " --json -h"} {
			r := s.runLine(alice, line, "")
			if r.status != 0 || r.out != want.out || r.err != "" {
				t.Errorf("%s: status %d, stdout\n%s\nstderr %q; want status 0 and what `help %s` prints:\n%s", line, r.status, r.out, r.err, cmd.name, want.out)
			}
		}
	}
	// After "--" a word is an argument, not a flag.
	if r := s.runLine(alice, "name -- -h", ""); r.status == 0 && strings.HasPrefix(r.out, "usage:") {
		t.Errorf("name -- -h printed the help: %q", r.out)
	}
}

// Command names are taken in any case.
func TestCommandNamesInAnyCase(t *testing.T) {
	s := newSet()
	for _, line := range []string{"help", "rooms", "whoami", "help rooms", "version"} {
		want := s.runLine(alice, line, "")
		for _, typed := range []string{strings.ToUpper(line), strings.ToUpper(line[:1]) + line[1:]} {
			if r := s.runLine(alice, typed, ""); r.status != 0 || r.out != want.out {
				t.Errorf("%s: status %d, %q; want what %s prints, %q", typed, r.status, r.out, line, want.out)
			}
		}
	}
}

// An unknown command is told the nearest commands, if any is near, and
// what to type for the list; the operators' commands are suggested to
// operators alone.
func TestUnknownCommandSuggests(t *testing.T) {
	s := newSet()
	bob := lobby.Player{ID: "SHA256:bob", Key: "SHA256:bob", Name: "bob"}
	tests := []struct {
		who       lobby.Player
		line      string
		want, not string
	}{
		{alice, "rooom", "Did you mean `rooms`?", ""},
		{alice, "Rooom", "Did you mean `rooms`?", ""},
		{alice, "hist", "Did you mean `history`?", ""},
		{alice, "whomai", "Did you mean `whoami`?", ""},
		{alice, "xyzzyplugh", "", "Did you mean"},
		{alice, "admn", "Did you mean `admin`?", ""},
		{bob, "admn", "", "admin"},
		{alice, "help rooom", "Did you mean `rooms`?", ""},
	}
	for _, tt := range tests {
		r := s.runLine(tt.who, tt.line, "")
		hint := "help"
		if r.status != 1 || !strings.Contains(r.err, tt.want) || tt.not != "" && strings.Contains(r.err, tt.not) ||
			!strings.Contains(r.err, hint) {
			t.Errorf("%s (as %s): status %d, %q; want status 1, %q, not %q, and how to get the list", tt.line, tt.who.Name, r.status, r.err, tt.want, tt.not)
		}
	}
}

// Every refusal exits 1, and says what to type instead: a usage line, a
// command to run, or where to look; with a terminal, too.
func TestRefusalsSayWhatToType(t *testing.T) {
	s := newSet()
	code := strings.TrimSpace(s.runLine(alice, "new", "").out)
	for _, terminal := range []bool{false, true} {
		for _, tt := range []struct{ line, want string }{
			{"frobnicate", "help"},
			{"help nothing", "usage: help"},
			{"rooms --yaml", "usage: rooms"},
			{"rooms extra", "usage: rooms"},
			{"whoami --verbose", "usage: whoami"},
			{"version now", "usage: version"},
			{"link --json", "usage: link"},
			{"new --players two", "usage: new"},
			{"new --game chess", "usage: new"},
			{"top --limit 0", "usage: top"},
			{"play", "usage: play"},
			{"rematch", "usage: rematch"},
			{"lang xx", "usage: lang"},
			{"watch", "usage: watch"},
			{"replay", "usage: replay"},
		} {
			c := &Call{Terminal: terminal, Width: 80}
			r := s.runCall(alice, c, tt.line, "")
			if r.status != 1 || !strings.Contains(r.err, tt.want) || !strings.HasPrefix(r.err, "smokestack") {
				t.Errorf("%s (terminal %v): status %d, %q; want status 1 and %q", tt.line, terminal, r.status, r.err, tt.want)
			}
		}
	}
	if r := s.runLine(alice, "join "+code, ""); r.status != 1 || !strings.Contains(r.err, "ssh -t -p 2222 localhost join "+code) {
		t.Errorf("join without a terminal: status %d, %q", r.status, r.err)
	}
}

// With a terminal, what is said on stderr is wrapped at words to its
// width, every word whole; without one, each message is one line.
func TestErrorsWrapAtWords(t *testing.T) {
	s := newSet()
	long := "play " + strings.Repeat("x", 3) // no room: a message longer than 40 columns
	plain := s.runLine(alice, long, "")
	first := strings.SplitN(plain.err, "\n", 2)[0]
	if plain.status != 1 || utf8.RuneCountInString(first) <= 40 {
		t.Fatalf("%s: status %d, %q; want a refusal longer than 40 columns", long, plain.status, plain.err)
	}
	for _, width := range []int{40, 57, 80} {
		r := s.runCall(alice, &Call{Terminal: true, Width: width}, long, "")
		if r.status != 1 {
			t.Errorf("width %d: status %d", width, r.status)
		}
		for line := range strings.Lines(r.err) {
			line = strings.TrimSuffix(line, "\n")
			if n := utf8.RuneCountInString(line); n > width {
				t.Errorf("width %d: a line of %d columns: %q", width, n, line)
			}
		}
		// The words are all there, whole, in order.
		if strings.Join(strings.Fields(r.err), " ") != strings.Join(strings.Fields(plain.err), " ") {
			t.Errorf("width %d: wrapped\n%s\nwant the words of\n%s", width, r.err, plain.err)
		}
		if width < len(first) && strings.Count(r.err, "\n") <= strings.Count(plain.err, "\n") {
			t.Errorf("width %d: not wrapped:\n%s", width, r.err)
		}
	}
}

// The commands that print facts about the player or rooms take the
// common --json, and print valid JSON naming the same things the same.
func TestJSONEverywhere(t *testing.T) {
	s := newSet()
	s.runLine(alice, "new", "")
	args := map[string]string{"rematch": s.finishedSolo()} // what a command needs beside --json
	var facts []string
	for _, cmd := range commands {
		if cmd.json {
			facts = append(facts, cmd.name)
		}
	}
	for _, want := range []string{"rooms", "history", "mine", "name", "profile", "top", "lang", "whoami", "version", "new", "rematch"} {
		if !slices.Contains(facts, want) {
			t.Errorf("%s takes no --json", want)
		}
	}
	for _, name := range facts {
		for _, flag := range []string{"--json", "-json", "--json=true"} {
			line := strings.Join(strings.Fields(name+" "+args[name]+" "+flag), " ")
			r := s.runLine(alice, line, "")
			if r.status != 0 || !json.Valid([]byte(r.out)) {
				t.Errorf("%s: status %d, stderr %q, not JSON: %q", line, r.status, r.err, r.out)
			}
		}
	}
	// A player is named "name" and identified as "id" wherever one is.
	for _, line := range []string{"whoami --json", "name --json", "profile --json"} {
		var who struct {
			Name string `json:"name"`
			ID   string `json:"id"`
		}
		if err := json.Unmarshal([]byte(s.runLine(alice, line, "").out), &who); err != nil || who.Name != "alice" {
			t.Errorf("%s: %+v, %v; want name alice", line, who, err)
		}
		if line != "profile --json" && who.ID != alice.ID {
			t.Errorf("%s: id %q, want %q", line, who.ID, alice.ID)
		}
	}
	// A room is the object rooms --json lists, wherever one is printed.
	var made struct {
		lobby.RoomInfo
		Invite string `json:"invite"`
	}
	r := s.runLine(alice, "new --private --sit --json", "")
	if err := json.Unmarshal([]byte(r.out), &made); err != nil || made.Code == "" || !strings.HasPrefix(made.Invite, made.Code+"-") ||
		made.Public || len(made.Seats) != 2 || made.Seats[0].Name != "alice" {
		t.Errorf("new --private --sit --json: %+v, %v in %q", made, err, r.out)
	}
	var l langJSON
	if err := json.Unmarshal([]byte(s.runLine(alice, "lang --json", "").out), &l); err != nil || l.Lang != lang.English || l.From != "default" || len(l.Langs) != len(lang.Tags) {
		t.Errorf("lang --json: %+v, %v", l, err)
	}
	// A command that prints no facts refuses --json as any unknown flag.
	if r := s.runLine(alice, "link --json", ""); r.status != 1 || !strings.Contains(r.err, "flag provided but not defined: -json") {
		t.Errorf("link --json: status %d, %q", r.status, r.err)
	}
}

// version prints the module's version, the revision it was built from
// when the build knew it, and the Go that built it; --json the same.
func TestVersion(t *testing.T) {
	s := newSet()
	r := s.runLine(alice, "version", "")
	if r.status != 0 || !strings.HasPrefix(r.out, "smokestack ") || !strings.HasSuffix(r.out, " "+runtime.Version()+"\n") {
		t.Errorf("version: status %d, %q", r.status, r.out)
	}
	var v buildInfo
	if err := json.Unmarshal([]byte(s.runLine(alice, "version --json", "").out), &v); err != nil || v.Go != runtime.Version() || v.Version == "" {
		t.Errorf("version --json: %+v, %v", v, err)
	}
	if want := readBuildInfo(); v != want {
		t.Errorf("version --json says %+v; the build info %+v", v, want)
	}
}

// rooms lists what its help says, the public rooms with a free seat;
// --playing lists the public games in play instead; each under its own
// heading, and in JSON.
func TestRoomsListsFreeSeats(t *testing.T) {
	s := newSet()
	open := strings.TrimSpace(s.runLine(alice, "new --players 2", "").out)
	playing := strings.TrimSpace(s.runLine(alice, "new --players 1 --sit", "").out)
	codes := func(line string) []string {
		var rooms []lobby.RoomInfo
		r := s.runLine(alice, line, "")
		if err := json.Unmarshal([]byte(r.out), &rooms); err != nil {
			t.Fatalf("%s: %v in %q", line, err, r.out)
		}
		var out []string
		for _, room := range rooms {
			out = append(out, room.Code)
		}
		return out
	}
	if got := codes("rooms --json"); !slices.Equal(got, []string{open}) {
		t.Errorf("rooms --json lists %v; want only the room with a free seat, %s", got, open)
	}
	if got := codes("rooms --playing --json"); !slices.Equal(got, []string{playing}) {
		t.Errorf("rooms --playing --json lists %v; want only the game in play, %s", got, playing)
	}
	text := s.runLine(alice, "rooms", "").out
	if !strings.HasPrefix(text, "Public rooms with a free seat") || !strings.Contains(text, open) || strings.Contains(text, playing) {
		t.Errorf("rooms:\n%s", text)
	}
	text = s.runLine(alice, "rooms --playing", "").out
	if !strings.HasPrefix(text, "Public games in play") || !strings.Contains(text, playing) || strings.Contains(text, open) {
		t.Errorf("rooms --playing:\n%s", text)
	}
	if about := s.runLine(alice, "help rooms", "").out; !strings.Contains(about, "free seat") || !strings.Contains(about, "--playing") {
		t.Errorf("help rooms does not say what it lists:\n%s", about)
	}
}

// history shows a finished game's winner and every seat's score.
func TestHistoryShowsTheResult(t *testing.T) {
	s := newSet()
	s.finishedSolo()
	var rooms []lobby.RoomInfo
	if err := json.Unmarshal([]byte(s.runLine(alice, "history --json", "").out), &rooms); err != nil || len(rooms) != 1 || rooms[0].Result == nil {
		t.Fatalf("history --json: %+v, %v", rooms, err)
	}
	score := rooms[0].Result.Scores[0]
	want := "over: alice won · alice " + strconv.Itoa(score)
	if r := s.runLine(alice, "history", ""); !strings.Contains(r.out, want) {
		t.Errorf("history:\n%s\nwant %q", r.out, want)
	}
	// The words for every kind of result, as a table of several seats shows them.
	two := []lobby.SeatInfo{{Name: "alice"}, {Name: "bob"}}
	opp := 40
	for _, tt := range []struct {
		res  engine.Result
		want string
	}{
		{engine.Result{Scores: []int{12, 30}, Winners: []int{1}}, "over: bob won · alice 12, bob 30"},
		{engine.Result{Scores: []int{30, 30}, Winners: []int{0, 1}}, "over: alice and bob won · alice 30, bob 30"},
		{engine.Result{Scores: []int{31}, Winners: []int{}, Opponent: &opp}, "over: the game's opponent won with 40 · alice 31"},
	} {
		r := lobby.RoomInfo{Over: true, Seats: two[:len(tt.res.Scores)], Result: &tt.res}
		if got := gameStatus(nil, nil, r); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.res, got, tt.want)
		}
	}
	// A solo game lost names the game's own opponent, at its level.
	l := lobby.New(lobby.Config{Store: mem.New(), Games: games.Lobby(games.All())})
	lost := lobby.RoomInfo{Game: "factories", Over: true, Seats: two[:1], Options: json.RawMessage(`{"difficulty":"hard"}`),
		Result: &engine.Result{Scores: []int{31}, Winners: []int{}, Opponent: &opp}}
	if got, want := gameStatus(nil, l, lost), "over: The Machine (hard) won with 40 · alice 31"; got != want {
		t.Errorf("a solo game lost: %q, want %q", got, want)
	}
}

// finishedSolo plays a one-seat game to its end for alice, and returns
// its room's code.
func (s *Set) finishedSolo() string {
	code := strings.TrimSpace(s.runLine(alice, "new --players 1", "").out)
	var in strings.Builder
	for range tally.Rounds {
		in.WriteString("{\"kind\":\"take\"}\n{\"kind\":\"done\"}\n")
	}
	s.runLine(alice, "play "+code, in.String())
	return code
}

// rematch --json prints the rematch's room as new --json does.
func TestRematchJSON(t *testing.T) {
	s := newSet()
	code := s.finishedSolo()
	r := s.runLine(alice, "rematch "+code+" --json", "")
	var made struct {
		lobby.RoomInfo
		Invite string `json:"invite"`
	}
	if err := json.Unmarshal([]byte(r.out), &made); err != nil || r.status != 0 || made.Code == "" || made.Code == code || made.Game != "tally" {
		t.Errorf("rematch --json: status %d, %+v, %v in %q (stderr %q)", r.status, made, err, r.out, r.err)
	}
}
