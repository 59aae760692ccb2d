package line

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// TestTurnsAndNumbers: in a solo game the seat acts from its market turn
// straight on into the work phase, and is told its turn again as the
// work phase begins; a number typed from the list it was shown in the
// market plays that list's move or nothing, never the work phase's move
// that took its number since; a number past the list names the number
// typed, not the count of moves.
func TestTurnsAndNumbers(t *testing.T) {
	in, out, stop := soloTable(t)
	defer stop()
	io.WriteString(in, "99\n")
	waitOut(t, out, "There is no move 99")
	// Arriving, the summary says where the game stands and how many moves
	// there are: a turn's line after it would say both again.
	if arrival := strings.SplitN(out.String(), "There is no move 99", 2)[0]; strings.Count(arrival, "your turn") != 1 {
		t.Errorf("arriving at the table said %q %d times:\n%s", "your turn", strings.Count(arrival, "your turn"), arrival)
	}
	io.WriteString(in, "moves\n")
	waitOut(t, out, "1. Blueprint 1: ")
	first := strings.SplitN(strings.SplitN(out.String(), "1. ", 2)[1], "\n", 2)[0]
	io.WriteString(in, "1\n")
	waitWords(t, out, "played: "+first)
	waitOut(t, out, "Round 1, work phase")
	mark := len(out.String())
	io.WriteString(in, "1\n")
	waitWords(t, out, "Not played: "+first+" is no longer on offer.")
	if after := out.String()[mark:]; strings.Contains(after, "played: ") && !strings.Contains(after, "Not played: ") ||
		strings.Count(after, "played: ") > 1 || strings.Contains(after, "cannot be taken back") {
		t.Errorf("a number from the market's list played a work phase move:\n%s", after)
	}
}

// waitWords is waitOut for words a line may wrap: spaces and line
// breaks alike.
func waitWords(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(strings.Join(strings.Fields(out.String()), " "), want) {
		if time.Now().After(deadline) {
			t.Fatalf("never wrote %q; wrote:\n%s", want, out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSoloLossNamesTheWinner: a solo game the game's own opponent won
// says who won and with what: the seat's "place 2" alone named no
// winner, and "the game's opponent" named nobody.
func TestSoloLossNamesTheWinner(t *testing.T) {
	l := lobby.New(lobby.Config{Store: mem.New(), Games: games.Lobby(games.All())})
	for _, tt := range []struct {
		tag  lang.Tag
		want string
	}{
		{lang.English, "Won by The Machine (hard), with 14."},
		{lang.Polish, "Wygrywa Maszyna (trudny) z wynikiem 14."},
	} {
		var out bytes.Buffer
		s := &sess{out: newTerm(&out, false, 100), cfg: Config{Lobby: l}}
		s.setLang(tt.tag)
		machine := 14
		tb := &table{seat: 0, room: lobby.RoomInfo{Game: "factories", Over: true, Seats: []lobby.SeatInfo{{Name: "al"}},
			Options: json.RawMessage(`{"difficulty":"hard"}`),
			Result:  &engine.Result{Scores: []int{3}, Ranks: []int{2}, Opponent: &machine}}}
		tb.end(s, tb.seats(s))
		s.out.flush()
		if got := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(got, tt.want) {
			t.Errorf("%s: the end of a solo game lost, without %q:\n%s", tt.tag, tt.want, out.String())
		}
	}
}
