package server

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/server/cmd"
)

// The note a guest reads before login fits the terminal, at 80 columns
// and narrower (50, a phone's), in whole words: a terminal wraps a longer line where its
// edge falls ("cod" / "e"), and the client prints the note before it has
// told the server its terminal's width.
func TestGuestBannerWrapsAtWords(t *testing.T) {
	srv := startServer(t)
	var told string
	dial(t, srv.addr, "visitor", gossh.KeyboardInteractive(func(_, instruction string, _ []string, _ []bool) ([]string, error) {
		told = instruction
		return nil, nil
	}))
	lines := strings.Split(told, "\n")
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 50 { // a phone's terminal

			t.Errorf("a line of the guest's banner is %d columns wide: %q", w, l)
		}
	}
	if len(lines) < 2 || strings.Join(strings.Fields(told), " ") != strings.Join(strings.Fields(cmd.GuestNote), " ") {
		t.Errorf("the guest's banner is not the guests' note in whole words, over lines:\n%s", told)
	}
	// Every word is whole on its line: wrapping never split one.
	words := map[string]bool{}
	for _, w := range strings.Fields(cmd.GuestNote) {
		words[w] = true
	}
	for _, l := range lines {
		for _, w := range strings.Fields(l) {
			if !words[w] {
				t.Errorf("the banner splits a word: %q in %q", w, l)
			}
		}
	}
}
