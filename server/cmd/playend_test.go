package cmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/internal/tally"
)

// answers are play's answer lines in order: "ok", or an error line's
// text (with "chat: " in front when it is about chat).
func answers(t *testing.T, out string) []string {
	t.Helper()
	var got []string
	for line := range strings.Lines(out) {
		var a struct {
			Error string `json:"error"`
			About string `json:"about"`
			OK    bool   `json:"ok"`
		}
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("play printed %q: %v", line, err)
		}
		switch {
		case a.Error != "" && a.About != "":
			got = append(got, a.About+": "+a.Error)
		case a.Error != "":
			got = append(got, a.Error)
		case a.OK:
			got = append(got, "ok")
		}
	}
	return got
}

// The move that ends the game is answered like every other, right after
// the update that shows the game over: the session used to end on that
// update, before the move's own answer, whenever the update came first.
func TestPlayAnswersTheLastMove(t *testing.T) {
	for range 20 { // the update and the answer race: give the race its chances
		s := newSet()
		code := strings.TrimSpace(s.runLine(alice, "new --players 1", "").out)
		var in strings.Builder
		for range tally.Rounds {
			in.WriteString("{\"kind\":\"take\"}\n{\"kind\":\"done\"}\n")
		}
		r := s.runLine(alice, "play "+code, in.String())
		got := answers(t, r.out)
		if r.status != 0 || len(got) != 2*tally.Rounds || got[len(got)-1] != "ok" {
			t.Fatalf("play: status %d, %d answers, the last %q; want %d oks:\n%s", r.status, len(got), got[len(got)-1:], 2*tally.Rounds, r.out)
		}
		lines := strings.Split(strings.TrimSpace(r.out), "\n")
		room := len(lines) - 1
		for room > 0 && !strings.HasPrefix(lines[room], `{"room"`) {
			room--
		}
		if !strings.Contains(lines[room], `"over":true`) {
			t.Fatalf("the last update does not show the game over, or an ok comes before it:\n%s", r.out)
		}
	}
}

// A line with a "chat" key is chat, whatever its value: a value that is
// no text is refused as chat, not judged as a move.
func TestPlayChatThatIsNoText(t *testing.T) {
	s := newSet()
	code := strings.TrimSpace(s.runLine(alice, "new --players 2", "").out)
	r := s.runLine(alice, "play "+code, "{\"chat\":42}\n{\"chat\":null}\n{\"chat\":[\"hi\"]}\n")
	got := answers(t, r.out)
	want := "chat: " + errChatNotText.Error()
	if len(got) != 3 || got[0] != want || got[1] != want || got[2] != want {
		t.Errorf("play answered %q; want %q three times", got, want)
	}
}
