package session

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// roomForm is the new-room form: the game, its seats, visibility, the
// game's own options and bots for the last seats. Everything it offers
// comes from the games' registration, so a new game needs nothing here.
type roomForm struct {
	games  []lobby.Game
	game   int // index into games
	field  int // index into fields()
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

func newRoomForm(games []lobby.Game) *roomForm {
	f := &roomForm{games: games, public: true, grace: slices.Index(graceChoices, lobby.DefaultGrace)}
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
func (f *roomForm) fields() []formField {
	g := f.games[f.game]
	lo, hi := g.Rules.Seats()
	step := func(v, d, n int) int { return (v + d + n) % n }
	out := []formField{
		{label: "game", value: g.Rules.Title(), about: "the game to play; R in the lobby teaches each one",
			change: func(d int) { f.setGame(step(f.game, d, len(f.games))) }},
		{label: "seats", value: strconv.Itoa(f.seats), note: fmt.Sprintf("%d to %d", lo, hi), about: "how many sit at the table, bots included",
			change: func(d int) {
				f.seats = min(hi, max(lo, f.seats+d))
				f.bots = min(f.bots, f.seats-1)
			}},
		{label: "visibility", value: "private: join by invite only", about: "only those you give the room's code to can join",
			change: func(int) { f.public = !f.public }},
	}
	if f.public {
		out[2].value, out[2].about = "public: listed in the lobby", "anyone in the lobby sees the room and can take a seat"
	}
	values := f.chosen()
	for _, o := range g.Rules.Options() {
		if !o.Applies(f.seats, values) {
			continue
		}
		out = append(out, formField{label: o.Name, value: o.Choices[f.values[o.Name]], about: o.About, change: func(d int) {
			f.values[o.Name] = step(f.values[o.Name], d, len(o.Choices))
		}})
	}
	if names := g.Bots.Names; len(names) > 0 {
		bots := formField{label: "bots", value: "none", about: "bots sit in the last seats, so the game needs fewer people",
			change: func(d int) { f.bots = min(f.seats-1, max(0, f.bots+d)) }}
		if f.bots > 0 {
			bots.value = fmt.Sprintf("%d (seats %d–%d)", f.bots, f.seats-f.bots+1, f.seats)
			if f.bots == 1 {
				bots.value = fmt.Sprintf("1 (seat %d)", f.seats)
			}
		}
		out = append(out, bots, formField{label: "bot kind", value: names[f.bot], about: "which bot plays the bots' seats",
			change: func(d int) { f.bot = step(f.bot, d, len(names)) }})
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
	clock := "off"
	if c := clockChoices[f.clock]; c > 0 {
		clock = lobby.ShortDuration(c) + " a turn"
	}
	if f.clock == 0 {
		clock = "default: off"
		if g := f.games[f.game]; f.public && f.seats > 1 && g.DefaultBot() != "" {
			clock = "default: " + lobby.ShortDuration(lobby.DefaultPublicClock) + " a turn"
		}
	}
	// A clock that is off never hands a turn to the bot.
	note := ""
	if strings.HasSuffix(clock, "a turn") {
		note = "then the bot plays the turn"
	}
	return []formField{
		{label: "away grace", value: lobby.ShortDuration(graceChoices[f.grace]), note: "then the table may vote in a bot",
			about:  "how long one may be away before the others may vote a bot into the seat",
			change: func(d int) { f.grace = step(f.grace, d, len(graceChoices)) }},
		{label: "clock", value: clock, note: note, about: "the time each turn may take; off lets everyone think as long as they like",
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
	case key.Matches(msg, k.Cancel):
		l.form = nil
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
		lines := []string{t.Title.Render("NEW ROOM") + t.Dim.Render("  what each setting does · any key: back to the form"), ""}
		for _, r := range fields {
			// Lines after the first hang under the text, not the label.
			indent := "\n" + strings.Repeat(" ", len(r.label)+2)
			text := strings.TrimRight(kit.Wrap(r.about, max(20, w-len(r.label)-2)), " ")
			lines = append(lines, t.Accent.Render(r.label)+": "+strings.ReplaceAll(text, "\n", indent))
		}
		return strings.Join(lines, "\n")
	}
	lines := []string{t.Title.Render("NEW ROOM"), ""}
	for i, r := range fields {
		line := fmt.Sprintf("%-11s ◂ %s ▸", r.label, r.value)
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
		about = fields[f.field].about
	}
	return strings.Join(append(lines, "", "  "+t.Dim.Render(about), "",
		t.Dim.Render("←/→ change · ↑/↓ field · enter create · ? help · esc cancel")), "\n")
}
