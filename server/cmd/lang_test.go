package cmd

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
)

// runIn runs line for p as a server would: in the language p's profile
// keeps, else the one env asks for.
func (s *Set) runIn(p lobby.Player, env []string, line string) result {
	var out, errOut bytes.Buffer
	sess := &testSession{in: strings.NewReader("")}
	status := s.Run(&Call{Ctx: context.Background(), Player: p, Line: strings.Fields(line), Out: &out, Err: &errOut,
		Env: env, Lang: lang.Choose(p.Lang, env), Session: sess})
	return result{out: out.String(), err: errOut.String(), status: status, kind: sess.kind}
}

// Every command says what it does in every language.
func TestCommandsAreWorded(t *testing.T) {
	for _, cmd := range commands {
		for _, tag := range lang.Tags {
			if p := lang.For(tag); !p.Has(cmd.about) || p.T(cmd.about) == "" {
				t.Errorf("%s: command %s has no words (%s)", tag, cmd.name, cmd.about)
			}
		}
	}
	for _, tag := range lang.Tags {
		for _, id := range []string{"cmd.rooms.none", "cmd.help.outro", "cmd.guest_note"} {
			if got, en := lang.For(tag).T(id), lang.For(lang.English).T(id); tag != lang.English && got == en {
				t.Errorf("%s: %s reads as in English: %q", tag, id, got)
			}
		}
	}
}

// Help answers in the language the environment asks for, the command
// names staying as they are typed.
func TestHelpInTheEnvironmentsLanguage(t *testing.T) {
	s := newSet()
	for env, want := range map[string]string{
		"LANG=pl_PL.UTF-8": "Polecenia (",
		"LANG=ru_RU.UTF-8": "Команды (",
		"LANG=pt_BR.UTF-8": "Comandos (",
		"LANG=pt_PT.UTF-8": "Comandos (",
		"LANG=de_DE.UTF-8": "Commands (",
		"LC_ALL=C":         "Commands (",
	} {
		r := s.runIn(alice, []string{env}, "help")
		if r.status != 0 || !strings.Contains(r.out, want) || !strings.Contains(r.out, "  rooms ") || !strings.Contains(r.out, "  lang ") {
			t.Errorf("%s: help answers (%d):\n%s", env, r.status, r.out)
		}
	}
	r := s.runIn(alice, []string{"LANG=ru_RU.UTF-8"}, "new --colour red")
	if r.status != 1 || !strings.Contains(r.err, "нет такого параметра: -colour") || !strings.Contains(r.err, "использование: new ") {
		t.Errorf("a bad flag in Russian:\n%s", r.err)
	}
}

// A refusal that carries its words (the lobby's, an engine's) is told in
// the player's language; any other error as it is.
func TestErrorsInThePlayersLanguage(t *testing.T) {
	c := &Call{Lang: lang.Polish}
	if got := c.errText(engine.Refuse("the game now speaks English", engine.Say("lang.chosen"))); got != "Gra mówi teraz po polsku." {
		t.Errorf("a refusal with words reads %q", got)
	}
	if got := c.errText(errors.New("plain")); got != "plain" {
		t.Errorf("a plain error reads %q", got)
	}
}

// lang lists the languages and says why the player reads theirs; lang pl
// keeps Polish in the profile, which beats the environment from then on,
// and lang auto gives the choice back to it.
func TestLangCommand(t *testing.T) {
	s := newSet()
	ctx := context.Background()
	env := []string{"LANG=ru_RU.UTF-8"}
	r := s.runIn(alice, env, "lang")
	if r.status != 0 || !strings.Contains(r.out, "* ru  Русский") || !strings.Contains(r.out, "  pl  Polski") ||
		!strings.Contains(r.out, "LANG вашего SSH-клиента") {
		t.Fatalf("lang with a Russian LANG:\n%s%s", r.out, r.err)
	}
	r = s.runIn(alice, env, "lang polski")
	if r.status != 0 || r.out != "pl\n" || !strings.Contains(r.err, "Gra mówi teraz po polsku.") {
		t.Fatalf("lang polski: %+v", r)
	}
	back, err := s.Lobby.Identify(ctx, alice) // alice's next connection
	if err != nil || back.Lang != "pl" {
		t.Fatalf("alice reconnecting reads %q, %v", back.Lang, err)
	}
	r = s.runIn(back, env, "lang")
	if !strings.Contains(r.out, "* pl  Polski") || !strings.Contains(r.out, "zapisany w profilu") {
		t.Errorf("lang after choosing Polish, with a Russian LANG:\n%s", r.out)
	}
	if r := s.runIn(back, env, "profile"); !strings.Contains(r.out, "język: Polski, twój wybór") || !strings.Contains(r.out, "0 zakończonych gier, 0 wygranych") {
		t.Errorf("profile in Polish:\n%s", r.out)
	}
	r = s.runIn(back, env, "lang auto")
	if r.status != 0 || r.out != "ru\n" || !strings.Contains(r.err, "LANG вашего SSH-клиента") {
		t.Errorf("lang auto: %+v", r)
	}
	if back, _ = s.Lobby.Identify(ctx, alice); back.Lang != "" {
		t.Errorf("after lang auto alice's profile keeps %q", back.Lang)
	}
	if r := s.runIn(alice, nil, "lang klingon"); r.status != 1 || !strings.Contains(r.err, `no language "klingon"`) {
		t.Errorf("lang klingon: %+v", r)
	}
	guest := lobby.Player{ID: "guest:abc", Name: "guest-abc", Guest: true}
	if r := s.runIn(guest, []string{"LANG=pt_BR.UTF-8"}, "lang ru"); r.status != 1 || !strings.Contains(r.err, "um convidado não tem perfil") {
		t.Errorf("a guest's lang ru: %+v", r)
	}
}
