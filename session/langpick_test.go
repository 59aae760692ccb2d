package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestLangPicker: L in the lobby lists the languages; the one chosen is
// the session's at once (the lobby says so in it, and the server hears of
// it) and is kept in the player's profile for their next connection.
func TestLangPicker(t *testing.T) {
	l := newTestLobby()
	dora := lobby.Player{ID: "SHA256:dora", Key: "SHA256:dora", Name: "dora"}
	var heard []lang.Tag
	d := newDriver(t, session.Config{Lobby: l, Player: dora, Width: 80, Height: 24, OnLang: func(t lang.Tag) { heard = append(heard, t) }})
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	d.keys("L")
	d.until("the picker", d.screenContains("LANGUAGE"))
	for _, name := range []string{"English", "Português", "Polski", "Русский"} {
		if !strings.Contains(d.view(), name) {
			t.Fatalf("the picker does not offer %s:\n%s", name, d.view())
		}
	}
	// Its row is marked as every list's is (kit.Theme.Selected), with ▸:
	// the picker alone had ">".
	if v := d.view(); !strings.Contains(v, "▸ English") || strings.Contains(v, "> ") {
		t.Errorf("the picker's row is not marked with ▸:\n%s", v)
	}
	d.keys("esc")
	d.until("the lobby again", d.screenContains("OPEN SEATS"))
	if len(heard) != 0 {
		t.Fatalf("esc chose %v", heard)
	}
	d.keys("L", "down", "down", "enter")
	d.until("the lobby in Polish", d.screenContains(lang.For(lang.Polish).T("lang.chosen")))
	// Its head and lists too, which were worded in English before.
	d.until("the lobby's head and lists in Polish", d.screenContains("WOLNE MIEJSCA"))
	if v := d.view(); strings.Contains(v, "over SSH") || strings.Contains(v, "signed in") {
		t.Errorf("the lobby keeps English words after Polish was chosen:\n%s", v)
	}
	if len(heard) != 1 || heard[0] != lang.Polish {
		t.Errorf("the server heard %v; want [pl]", heard)
	}
	back, err := l.Identify(context.Background(), dora)
	if err != nil || back.Lang != "pl" {
		t.Errorf("dora's next connection reads %q, %v; want pl", back.Lang, err)
	}
	d.keys("L")
	d.until("the picker in Polish", d.screenContains("JĘZYK"))
}

// A guest's choice lasts the session: there is no profile to keep it in.
func TestLangPickerGuest(t *testing.T) {
	l := newTestLobby()
	guest := lobby.Player{ID: "guest:k7qzwxyz", Name: "guest-k7qz", Guest: true}
	d := newDriver(t, session.Config{Lobby: l, Player: guest, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	d.keys("L")
	d.until("the picker", d.screenContains("guest's choice lasts this session"))
	d.keys("4")
	d.until("the lobby in Russian", d.screenContains(lang.For(lang.Russian).T("lang.chosen")))
}

// The picker fits 80x24 in every language, its note wrapped at spaces
// and never cut.
func TestLangPickerFits(t *testing.T) {
	for _, tag := range lang.Tags {
		l := newTestLobby()
		d := newDriver(t, session.Config{Lobby: l, Player: alice, Lang: tag, Width: 80, Height: 24})
		d.until("the lobby", d.screenContains("smokestack"))
		d.keys("L")
		title := lang.For(tag).T("lang.pick.title")
		d.until("the picker", d.screenContains(title))
		v := d.view()
		lines := strings.Split(v, "\n")
		if len(lines) != 24 {
			t.Errorf("%s: the picker is %d lines high", tag, len(lines))
		}
		for _, line := range lines {
			if w := ansi.StringWidth(line); w > 80 {
				t.Errorf("%s: a line %d wide: %q", tag, w, line)
			}
		}
		flat := strings.Join(strings.Fields(v), " ")
		for _, id := range []string{"lang.pick.kept", "lang.pick.keys"} {
			if want := lang.For(tag).T(id); !strings.Contains(flat, want) {
				t.Errorf("%s: the picker cuts %q:\n%s", tag, want, v)
			}
		}
	}
}
