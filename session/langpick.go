package session

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// langPicker is the lobby's short list of the languages the game speaks
// (the lobby's L key). The language chosen is the session's at once, and
// is kept in the player's profile, where it beats their SSH client's LANG
// from their next connection on; a guest's lasts the session. It covers
// the lobby screen it came from, which it goes back to, lists and chat
// as they were.
type langPicker struct {
	env    *env
	back   *lobbyScreen
	sel    int
	saving bool
	err    string
}

// langSavedMsg is the profile's answer to a language chosen.
type langSavedMsg struct {
	player lobby.Player
	tag    lang.Tag
	err    error
}

// pickLang opens the language picker over the lobby l.
func (l *lobbyScreen) pickLang() *langPicker {
	p := &langPicker{env: l.env, back: l}
	for i, t := range lang.Tags {
		if t == l.env.theme.L.Tag() {
			p.sel = i
		}
	}
	return p
}

func (p *langPicker) update(msg tea.Msg) (screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return p.key(msg)
	case langSavedMsg:
		p.saving = false
		if msg.err != nil {
			p.err = msg.err.Error()
			return p, nil
		}
		p.env.player = msg.player
		return p.chosen(msg.tag)
	}
	// Everything else is the lobby's: its lists and chat go on underneath.
	next, cmd := p.back.update(msg)
	if next != screen(p.back) {
		return next, cmd // the lobby moved on (to a room the player was sent to)
	}
	return p, cmd
}

func (p *langPicker) key(msg tea.KeyMsg) (screen, tea.Cmd) {
	if p.saving {
		return p, nil
	}
	switch msg.String() {
	case "esc", "q", "L":
		return p.back, nil
	case "up", "k", "shift+tab":
		p.sel = (p.sel + len(lang.Tags) - 1) % len(lang.Tags)
	case "down", "j", "tab":
		p.sel = (p.sel + 1) % len(lang.Tags)
	case "1", "2", "3", "4":
		p.sel = int(msg.Runes[0]-'1') % len(lang.Tags)
		return p.choose()
	case "enter":
		return p.choose()
	}
	return p, nil
}

// choose keeps the selected language in the player's profile, then makes
// it the session's; a guest, who has no profile, has it for the session.
func (p *langPicker) choose() (screen, tea.Cmd) {
	tag := lang.Tags[p.sel]
	if p.env.player.Guest {
		return p.chosen(tag)
	}
	p.saving, p.err = true, ""
	lb, ctx, player := p.env.lobby, p.env.ctx, p.env.player
	return p, func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, moveTimeout)
		defer cancel()
		pl, err := lb.SetLang(ctx, player, string(tag))
		return langSavedMsg{player: pl, tag: tag, err: err}
	}
}

// chosen makes tag the session's language and goes back to the lobby,
// which says so in its new language.
func (p *langPicker) chosen(tag lang.Tag) (screen, tea.Cmd) {
	p.env.theme = p.env.theme.In(lang.For(tag))
	if p.env.onLang != nil {
		p.env.onLang(tag)
	}
	p.back.setStatus(p.env.theme.L.T("lang.chosen"), false)
	// The lobby's head and lists were worded in the old language: word
	// them again.
	p.back.heading.text = ""
	return p.back, p.back.refresh()
}

func (p *langPicker) view(w, h int) string {
	t := p.env.theme
	L := t.L
	rows := []string{"", t.Title.Render(L.T("lang.pick.title")), ""}
	for i, tag := range lang.Tags {
		line := "  " + tag.Name()
		if i == p.sel {
			line = "▸ " + t.Selected.Render(tag.Name()) // as every list marks its row
		}
		if tag == L.Tag() {
			line += t.Dim.Render("  ✓")
		}
		rows = append(rows, line)
	}
	note := L.T("lang.pick.kept")
	if p.env.player.Guest {
		note = L.T("lang.pick.guest")
	}
	rows = append(rows, "")
	for _, line := range strings.Split(kit.Wrap(note, w), "\n") {
		rows = append(rows, t.Dim.Render(strings.TrimRight(line, " ")))
	}
	status := ""
	switch {
	case p.saving:
		status = t.Dim.Render(L.T("lang.pick.saving"))
	case p.err != "":
		status = t.Bad.Render("✗ " + p.err)
	}
	body := kit.Fit(strings.Join(rows, "\n"), w, h-3)
	return strings.Join([]string{kit.Fit(t.Title.Render("smokestack"), w, 1), body,
		kit.Fit(status, w, 1), kit.Fit(t.Dim.Render(L.T("lang.pick.keys")), w, 1)}, "\n")
}

func (p *langPicker) close() { p.back.close() }

// covered reports whether something over the lobby's lists takes its
// keys (the chat's input, the form, a prompt, the rules, the key page):
// then L is theirs, not the picker's.
func (l *lobbyScreen) covered() bool {
	return l.chat.typing || l.form != nil || l.prompt != nil || l.rules != nil || l.showHelp
}
