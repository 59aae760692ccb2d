package server

import (
	"bytes"
	"io"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// runEnv runs one exec command with the environment a client sends, in
// its order ("NAME=value", as ssh -o SetEnv=NAME=value).
func runEnv(t *testing.T, c *gossh.Client, env []string, cmd string) result {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if err := s.Setenv(k, v); err != nil {
			t.Fatalf("setenv %s: %v", k, err)
		}
	}
	var out, errOut bytes.Buffer
	s.Stdout, s.Stderr = &out, &errOut
	r := result{}
	if err := s.Run(cmd); err != nil {
		if exit, ok := err.(*gossh.ExitError); ok {
			r.status = exit.ExitStatus()
		} else {
			t.Fatalf("%s: %v", cmd, err)
		}
	}
	r.stdout, r.stderr = out.String(), errOut.String()
	return r
}

// TestLangOverSSH: help answers in the language the client's LANG asks
// for, English for any other; `lang pl` keeps Polish for the player's
// key, on every connection from then on, whatever LANG says.
func TestLangOverSSH(t *testing.T) {
	srv := startServer(t)
	key := newKey(t)
	c := dialKey(t, srv.addr, "alice", key)
	for lang, want := range map[string]string{
		"pl_PL.UTF-8": "Polecenia (",
		"ru_RU.UTF-8": "Команды (",
		"pt_BR.UTF-8": "Comandos (",
		"pt_PT":       "Comandos (",
		"de_DE.UTF-8": "Commands (",
		"C":           "Commands (",
	} {
		r := runEnv(t, c, []string{"LANG=" + lang}, "help")
		if r.status != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("LANG=%s: help answers:\n%s", lang, r.stdout)
		}
	}
	if r := runEnv(t, c, []string{"LANG=pl_PL.UTF-8", "LC_ALL=ru_RU.UTF-8"}, "help"); !strings.Contains(r.stdout, "Команды (") {
		t.Errorf("LC_ALL does not beat LANG:\n%s", r.stdout)
	}
	// OpenSSH sends SendEnv's LANG (the client's shell's) before SetEnv's.
	if r := runEnv(t, c, []string{"LANG=C.UTF-8", "LANG=pt_BR.UTF-8"}, "help"); !strings.Contains(r.stdout, "Comandos (") {
		t.Errorf("SetEnv's LANG after SendEnv's does not count:\n%s", r.stdout)
	}
	ru := []string{"LANG=ru_RU.UTF-8"}
	if r := runEnv(t, c, ru, "lang pl"); r.status != 0 || r.stdout != "pl\n" || !strings.Contains(r.stderr, "po polsku") {
		t.Fatalf("lang pl: %+v", r)
	}
	again := dialKey(t, srv.addr, "alice", key)
	if r := runEnv(t, again, ru, "help"); !strings.Contains(r.stdout, "Polecenia (") {
		t.Errorf("a new connection with a Russian LANG after lang pl:\n%s", r.stdout)
	}
	if r := runEnv(t, again, ru, "profile"); !strings.Contains(r.stdout, "język: Polski, twój wybór") {
		t.Errorf("profile after lang pl:\n%s", r.stdout)
	}
	if r := runEnv(t, again, ru, "rooms"); !strings.Contains(r.stdout, "Brak otwartych pokojów") {
		t.Errorf("rooms after lang pl:\n%s", r.stdout)
	}
	if r := runEnv(t, again, ru, "nosuch"); r.status != 1 || !strings.Contains(r.stderr, "nieznane polecenie") {
		t.Errorf("an unknown command after lang pl: %+v", r)
	}
}

// TestLangPickerOverSSH: a terminal opens in the language its client's
// LANG names; L in the lobby picks another, which the key keeps: its
// next connection reads it whatever LANG says.
func TestLangPickerOverSSH(t *testing.T) {
	srv := startServer(t)
	key := newKey(t)
	c := dialKey(t, srv.addr, "dora", key)
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Setenv("LANG", "ru_RU.UTF-8"); err != nil {
		t.Fatal(err)
	}
	if err := s.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	scr := &screen{}
	s.Stdout, s.Stderr = scr, scr
	if scr.in, err = s.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	scr.waitFor(t, "smokestack")
	io.WriteString(scr.in, "L")
	scr.waitFor(t, "ЯЗЫК")
	io.WriteString(scr.in, "3")
	scr.waitFor(t, "Gra mówi teraz po polsku.")
	again := dialKey(t, srv.addr, "dora", key)
	if r := runEnv(t, again, []string{"LANG=ru_RU.UTF-8"}, "help"); !strings.Contains(r.stdout, "Polecenia (") {
		t.Errorf("after picking Polish, a connection with a Russian LANG reads:\n%s", r.stdout)
	}
}

// TestHelpNewBotKinds: help new lists each game's bot kinds, the search
// bots too, each said in the client's language.
func TestHelpNewBotKinds(t *testing.T) {
	srv := startServer(t)
	c := dialKey(t, srv.addr, "alice", newKey(t))
	for lang, want := range map[string][]string{
		"C":           {"--bots greedy,random,search,search-quick", "search-quick: search on a smaller budget", "search: the strongest"},
		"pt_BR.UTF-8": {"search-quick: o search com um orçamento menor", "search: o mais forte"},
		"pl_PL.UTF-8": {"search-quick: search z mniejszym budżetem", "search: najsilniejszy"},
		"ru_RU.UTF-8": {"search-quick: search с меньшим бюджетом", "search: сильнейший"},
	} {
		r := runEnv(t, c, []string{"LANG=" + lang}, "help new")
		for _, w := range want {
			if r.status != 0 || !strings.Contains(r.stdout, w) {
				t.Errorf("LANG=%s: help new does not say %q:\n%s", lang, w, r.stdout)
			}
		}
	}
}
