package session

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/lobby"
)

// roomForm is the new-room form: seats, visibility, The Machine's level
// for solo games, and bots for the last seats.
type roomForm struct {
	field      int
	seats      int
	public     bool
	difficulty int // index into difficulties
	bots       int // bots in the last seats
	bot        int // index into botNames
}

var difficulties = []string{"easy", "medium", "hard", "insane"}

const formFields = 5

func newRoomForm() *roomForm { return &roomForm{seats: 2, public: true, difficulty: 1} }

// change moves the focused field's value by d.
func (f *roomForm) change(d int) {
	switch f.field {
	case 0:
		f.seats = min(5, max(1, f.seats+d))
		f.bots = min(f.bots, f.seats-1)
	case 1:
		f.public = !f.public
	case 2:
		f.difficulty = (f.difficulty + d + len(difficulties)) % len(difficulties)
	case 3:
		f.bots = min(f.seats-1, max(0, f.bots+d))
	case 4:
		f.bot = (f.bot + d + len(botNames)) % len(botNames)
	}
}

// options is what the form asks the lobby for.
func (f *roomForm) options() lobby.CreateOptions {
	o := lobby.CreateOptions{Seats: f.seats, Public: f.public}
	if f.seats == 1 {
		o.Difficulty = difficulties[f.difficulty]
	}
	for range f.bots {
		o.Bots = append(o.Bots, botNames[f.bot])
	}
	return o
}

func (l *lobbyScreen) formKey(msg tea.KeyMsg) tea.Cmd {
	k, f := formKeyMap, l.form
	switch {
	case key.Matches(msg, k.Cancel):
		l.form = nil
	case key.Matches(msg, k.Create):
		l.form = nil
		return l.create(f.options())
	case key.Matches(msg, k.Up):
		f.field = (f.field + formFields - 1) % formFields
	case key.Matches(msg, k.Down):
		f.field = (f.field + 1) % formFields
	case key.Matches(msg, k.Less):
		f.change(-1)
	case key.Matches(msg, k.More):
		f.change(1)
	}
	return nil
}

func (f *roomForm) view(t Theme) string {
	vis := "private: join by code only"
	if f.public {
		vis = "public: listed in the lobby"
	}
	diff := difficulties[f.difficulty]
	if f.seats > 1 {
		diff += t.Dim.Render("  (solo games only)")
	}
	bots := "none"
	if f.bots > 0 {
		bots = fmt.Sprintf("%d (seats %d–%d)", f.bots, f.seats-f.bots+1, f.seats)
	}
	rows := [][2]string{
		{"seats", fmt.Sprintf("%d", f.seats) + t.Dim.Render("  (1 plays solo against The Machine)")},
		{"visibility", vis},
		{"difficulty", diff},
		{"bots", bots},
		{"bot kind", botNames[f.bot]},
	}
	lines := []string{t.Title.Render("NEW ROOM"), ""}
	for i, r := range rows {
		line := fmt.Sprintf("%-11s ◂ %s ▸", r[0], r[1])
		if i == f.field {
			lines = append(lines, "▸ "+t.Selected.Render(line))
		} else {
			lines = append(lines, "  "+line)
		}
	}
	return strings.Join(append(lines, "", t.Dim.Render("←/→ change · ↑/↓ field · enter create · esc cancel")), "\n")
}
