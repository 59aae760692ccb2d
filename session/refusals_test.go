package session

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// TestLobbyRefusalsAreWorded: every message the lobby's packages refuse
// with (refuse(…, "lobby.x") and engine.Say("lobby.x")) is in the
// catalogue: the catalogue's own check reads only .T and .N calls.
func TestLobbyRefusalsAreWorded(t *testing.T) {
	id := regexp.MustCompile(`"(lobby\.[A-Za-z]+)"`)
	en, found := lang.For(lang.English), 0
	err := filepath.WalkDir(filepath.Join("..", "lobby"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range id.FindAllStringSubmatch(string(src), -1) {
			found++
			if !en.Has(m[1]) {
				t.Errorf("%s: message %q is not in the catalogue", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 30 {
		t.Errorf("found %d lobby messages in the code; the pattern no longer finds them", found)
	}
}

// TestLobbyRefusalsInTheReadersLanguage: what the lobby refuses shows in
// the player's language, its arguments in place, and as the English text
// in English; a limit's words too.
func TestLobbyRefusalsInTheReadersLanguage(t *testing.T) {
	_, err := tallyLobby().Join(context.Background(), "ZZZZZZ", lobby.Player{ID: "SHA256:alice", Name: "alice"})
	if err == nil {
		t.Fatal("joined a room that does not exist")
	}
	th := kit.NewTheme("mono", nil)
	for tag, want := range map[lang.Tag]string{
		lang.English: err.Error(), lang.Polish: `nie ma pokoju "ZZZZZZ"`,
		lang.Russian: `комнаты "ZZZZZZ" нет`, lang.Portuguese: `não há sala "ZZZZZZ"`,
	} {
		if got := errText(th.In(lang.For(tag)), "", err); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want it to start %q", tag, got, want)
		}
	}
	lim := &lobby.LimitError{Msg: "slow down: at most 5 messages a minute; that one was not sent",
		Words: engine.Say("lobby.chatRate", engine.Num("N", 5))}
	for tag, want := range map[lang.Tag]string{
		lang.English: lim.Msg, lang.Polish: "zwolnij: najwyżej 5 wiadomości na minutę; ta nie została wysłana",
		lang.Russian: "помедленнее: не больше 5 сообщений в минуту; это не отправлено",
	} {
		if got := errText(th.In(lang.For(tag)), "", lim); got != want {
			t.Errorf("%s: %q, want %q", tag, got, want)
		}
	}
	// Anything else reads as it is.
	if got := errText(th.In(lang.For(lang.Polish)), "", errors.New("disk on fire")); got != "disk on fire" {
		t.Errorf("a plain error worded %q", got)
	}
}
