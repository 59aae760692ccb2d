package session

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// roomForm is the new-room form: the game, its seats, visibility, the
// game's own options and bots for the last seats. Everything it offers
// comes from the games' registration, so a new game needs nothing here.
type roomForm struct {
	games  []lobby.Game
	p      *lang.Printer // the language it speaks
	game   int           // index into games
	field  int           // index into fields()
	seats  int
	public bool
	values map[string]int // option name -> index into its choices
	bots   int            // bots in the last seats
	bot    int            // index into the game's bot names
	// grace and clock index graceChoices and clockChoices.
	grace, clock int
	// help shows every row's explanation until a key is pressed.
	help bool
}

// The form's choices of grace period and clock (lobby.CreateOptions):
// `new` takes any time in their bounds, the form the usual ones.
var (
	graceChoices = []time.Duration{time.Minute, lobby.DefaultGrace, 5 * time.Minute, 10 * time.Minute}
	// clockChoices start with the room's default (0) and none.
	clockChoices = []time.Duration{0, lobby.ClockOff, 30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute}
)

// formField is one row of the form.
type formField struct {
	label string
	value string
	note  string
	// about explains the row in one line, shown while the cursor is on it.
	about string
	// change moves the value by d (±1).
	change func(d int)
}

func newRoomForm(games []lobby.Game, p *lang.Printer) *roomForm {
	f := &roomForm{games: games, p: p, public: true, grace: slices.Index(graceChoices, lobby.DefaultGrace)}
	f.setGame(0)
	return f
}

// setGame switches the form to games[i] with that game's defaults.
func (f *roomForm) setGame(i int) {
	f.game, f.values, f.bots, f.bot = i, map[string]int{}, 0, 0
	rules := f.games[i].Rules
	lo, hi := rules.Seats()
	f.seats = max(lo, min(2, hi))
	for _, o := range rules.Options() {
		for j, c := range o.Choices {
			if c == o.DefaultValue() {
				f.values[o.Name] = j
			}
		}
	}
}

// fields lists the rows for the chosen game: an option that means
// nothing with the others' values (engine.Option.Applies) is left out.
// The game's options are worded from its catalogue (games.GAME.…).
func (f *roomForm) fields() []formField {
	g, p := f.games[f.game], f.p
	lo, hi := g.Rules.Seats()
	step := func(v, d, n int) int { return (v + d + n) % n }
	out := []formField{
		{label: p.T("session.form.game"), value: gameTitle(p, g), about: p.T("session.form.gameAbout"),
			change: func(d int) { f.setGame(step(f.game, d, len(f.games))) }},
		{label: p.T("session.form.seats"), value: strconv.Itoa(f.seats), note: p.T("session.form.seatsRange", "Min", lo, "Max", hi),
			about: p.T("session.form.seatsAbout"),
			change: func(d int) {
				f.seats = min(hi, max(lo, f.seats+d))
				f.bots = min(f.bots, f.seats-1)
			}},
		{label: p.T("session.form.visibility"), value: p.T("session.form.private"), about: p.T("session.form.privateAbout"),
			change: func(int) { f.public = !f.public }},
	}
	if f.public {
		out[2].value, out[2].about = p.T("session.form.public"), p.T("session.form.publicAbout")
	}
	values := f.chosen()
	for _, o := range g.Rules.Options() {
		if !o.Applies(f.seats, values) {
			continue
		}
		out = append(out, formField{label: optionLabel(p, g.Name(), o.Name), value: optionValue(p, g.Name(), o.Name, o.Choices[f.values[o.Name]]),
			about: optionAbout(p, g.Name(), o.Name, o.About), change: func(d int) {
				f.values[o.Name] = step(f.values[o.Name], d, len(o.Choices))
			}})
	}
	if names := g.Bots.Names; len(names) > 0 {
		bots := formField{label: p.T("session.form.bots"), value: p.T("session.form.noBots"), about: p.T("session.form.botsAbout"),
			change: func(d int) { f.bots = min(f.seats-1, max(0, f.bots+d)) }}
		if f.bots > 0 {
			bots.value = p.T("session.form.botSeats", "Bots", f.bots, "First", f.seats-f.bots+1, "Last", f.seats)
			if f.bots == 1 {
				bots.value = p.T("session.form.botSeat", "Seat", f.seats)
			}
		}
		out = append(out, bots)
		if f.bots > 0 { // no bot, no kind of bot to choose
			out = append(out, formField{label: p.T("session.form.botKind"), value: names[f.bot], about: p.T("session.form.botKindAbout"),
				change: func(d int) { f.bot = step(f.bot, d, len(names)) }})
		}
	}
	return append(out, f.timeFields(step)...)
}

// chosen is every option's value as the form stands.
func (f *roomForm) chosen() map[string]string {
	values := map[string]string{}
	for _, o := range f.games[f.game].Rules.Options() {
		values[o.Name] = o.Choices[f.values[o.Name]]
	}
	return values
}

// timeFields are the rows every game has: the grace period before an
// away player's seat may go to a bot, and the clock for each turn.
func (f *roomForm) timeFields(step func(v, d, n int) int) []formField {
	p := f.p
	clock, ticks := p.T("session.form.clockOff"), false
	if c := clockChoices[f.clock]; c > 0 {
		clock, ticks = p.T("session.form.perTurn", "Time", p.Duration(c)), true
	}
	if f.clock == 0 {
		clock = p.T("session.form.byDefault", "Value", p.T("session.form.clockOff"))
		if g := f.games[f.game]; f.public && f.seats > 1 && g.DefaultBot() != "" {
			clock = p.T("session.form.byDefault", "Value", p.T("session.form.perTurn", "Time", p.Duration(lobby.DefaultPublicClock)))
			ticks = true
		}
	}
	// A clock that is off never hands a turn to the bot.
	note := ""
	if ticks {
		note = p.T("session.form.clockNote")
	}
	return []formField{
		{label: p.T("session.form.grace"), value: p.Duration(graceChoices[f.grace]), note: p.T("session.form.graceNote"),
			about:  p.T("session.form.graceAbout"),
			change: func(d int) { f.grace = step(f.grace, d, len(graceChoices)) }},
		{label: p.T("session.form.clock"), value: clock, note: note, about: p.T("session.form.clockAbout"),
			change: func(d int) { f.clock = step(f.clock, d, len(clockChoices)) }},
	}
}

// options is what the form asks the lobby for.
func (f *roomForm) options() lobby.CreateOptions {
	g := f.games[f.game]
	o := lobby.CreateOptions{Game: g.Name(), Seats: f.seats, Public: f.public, Grace: graceChoices[f.grace], Clock: clockChoices[f.clock]}
	values, chosen := map[string]string{}, f.chosen()
	for _, opt := range g.Rules.Options() {
		if opt.Applies(f.seats, chosen) {
			values[opt.Name] = chosen[opt.Name]
		}
	}
	if len(values) > 0 {
		o.Options, _ = json.Marshal(values)
	}
	for range f.bots {
		o.Bots = append(o.Bots, g.Bots.Names[f.bot])
	}
	return o
}

// closeForm is esc on the form: its help page closes first, then the
// form.
func (l *lobbyScreen) closeForm() {
	if l.form.help {
		l.form.help = false
		return
	}
	l.form = nil
}

func (l *lobbyScreen) formKey(msg tea.KeyMsg) tea.Cmd {
	k, f := formKeyMap, l.form
	if f.help {
		f.help = false // any key closes the help, and does nothing else
		return nil
	}
	n := len(f.fields())
	switch {
	case key.Matches(msg, k.Help):
		f.help = true
	case key.Matches(msg, k.Create):
		l.form = nil
		return l.create(f.options())
	case key.Matches(msg, k.Up):
		f.field = (f.field + n - 1) % n
	case key.Matches(msg, k.Down):
		f.field = (f.field + 1) % n
	case key.Matches(msg, k.Less):
		f.fields()[f.field].change(-1)
	case key.Matches(msg, k.More):
		f.fields()[f.field].change(1)
	}
	// A change of game changes the rows: keep the focus on one that exists.
	f.field = min(f.field, len(f.fields())-1)
	return nil
}

// view draws the form in width w, with a line under it that explains the
// row the cursor is on; with help, every row's explanation instead.
func (f *roomForm) view(t kit.Theme, w int) string {
	fields := f.fields()
	if f.help {
		lines := []string{t.Title.Render(t.L.T("session.form.title")) + t.Dim.Render("  "+t.L.T("session.form.helpNote")), ""}
		for _, r := range fields {
			// Lines after the first hang under the text, not the label.
			lw := kit.Width(r.label)
			indent := "\n" + strings.Repeat(" ", lw+2)
			text := strings.TrimRight(kit.Wrap(r.about, max(20, w-lw-2)), " ")
			lines = append(lines, t.Accent.Render(r.label)+": "+strings.ReplaceAll(text, "\n", indent))
		}
		return strings.Join(lines, "\n")
	}
	// The labels line up, as wide as the widest in the form's language
	// (and as English's longest option, capitalists, so the column stays
	// put as the game changes).
	lw := 11
	for _, r := range fields {
		lw = max(lw, kit.Width(r.label))
	}
	lines := []string{t.Title.Render(t.L.T("session.form.title")), ""}
	for i, r := range fields {
		line := r.label + strings.Repeat(" ", lw-kit.Width(r.label)) + " ◂ " + r.value + " ▸"
		if r.note != "" {
			line += "  " + t.Dim.Render("("+r.note+")")
		}
		if i == f.field {
			lines = append(lines, "▸ "+t.Selected.Render(line))
		} else {
			lines = append(lines, "  "+line)
		}
	}
	about := ""
	if f.field < len(fields) {
		// Wrapped under its indent: a translation may not fit one line.
		about = strings.TrimRight(kit.Wrap(fields[f.field].about, max(20, w-2)), " ")
		about = strings.ReplaceAll(about, "\n", "\n  ")
	}
	// The keys are the bottom bar's, as on every screen: not said twice.
	return strings.Join(append(lines, "", "  "+t.Dim.Render(about)), "\n")
}
