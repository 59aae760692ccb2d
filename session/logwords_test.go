package session

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// playedEvents plays games of every registered game at every table size
// with its random bot, undo on, and returns every event they emitted.
func playedEvents(t *testing.T) map[string][]engine.Event {
	t.Helper()
	out := map[string][]engine.Event{}
	for _, g := range games.All() {
		lo, hi := g.Rules.Seats()
		for seats := lo; seats <= hi; seats++ {
			for seed := uint64(1); seed <= 3; seed++ {
				out[g.Name()] = append(out[g.Name()], playRandom(t, g, seats, seed)...)
			}
		}
	}
	return out
}

func playRandom(t *testing.T, g games.Game, seats int, seed uint64) []engine.Event {
	t.Helper()
	return playRandomEach(t, g, seats, seed, nil)
}

// playRandomEach is playRandom, calling each (when set) with the state
// and the seat about to move before every move.
func playRandomEach(t *testing.T, g games.Game, seats int, seed uint64, each func(engine.State, int)) []engine.Event {
	t.Helper()
	rules := g.Rules
	bot, err := g.Bots.New("random", seed)
	if err != nil {
		t.Fatal(err)
	}
	state, err := rules.New(seats, json.RawMessage(`{"undo":"on"}`), seed)
	if err != nil {
		state, err = rules.New(seats, nil, seed)
	}
	if err != nil {
		t.Fatal(err)
	}
	var events []engine.Event
	for n := 0; n < 5000; n++ {
		st, err := rules.Status(state)
		if err != nil || st.Over {
			return events
		}
		seat := st.Acting[n%len(st.Acting)]
		if each != nil {
			each(state, seat)
		}
		view, err := rules.View(state, seat)
		if err != nil {
			t.Fatal(err)
		}
		move, err := bot(view)
		if err != nil {
			t.Fatal(err)
		}
		if n%7 == 3 { // take a move back now and then, where the game lets
			if next, ev, err := rules.Apply(state, seat, engine.UndoMove()); err == nil {
				state, events = next, append(events, ev...)
				continue
			}
		}
		next, ev, err := rules.Apply(state, seat, move)
		if err != nil {
			t.Fatalf("%s seed %d: %v", g.Name(), seed, err)
		}
		state, events = next, append(events, ev...)
	}
	t.Fatalf("%s: no end after 5000 moves", g.Name())
	return nil
}

// ids lists the message IDs w names, its lists' too.
func ids(w engine.Words) []string {
	out := []string{w.ID}
	for _, a := range w.Args {
		for _, item := range a.List {
			out = append(out, ids(item)...)
		}
	}
	return out
}

// TestEveryEventWordsInEveryLanguage holds the log's words to the
// games' events: in English they say exactly the event's text (what
// JSON carries), and in every language every message exists, every
// argument is filled, and no message's ID shows.
func TestEveryEventWordsInEveryLanguage(t *testing.T) {
	en := kit.NewTheme("mono", nil).In(lang.For(lang.English))
	seen := map[string]bool{}
	for game, events := range playedEvents(t) {
		for _, e := range events {
			for _, c := range []struct {
				w    engine.Words
				text string
			}{{e.Words, e.Text}, {e.PrivateWords, e.Private}} {
				if c.text == "" {
					continue
				}
				if c.w.ID == "" {
					t.Errorf("%s: the event %q has no words", game, c.text)
					continue
				}
				if got := kit.Say(en, game, c.w); got != c.text {
					t.Errorf("%s: %s words %q in English; the event says %q", game, c.w.ID, got, c.text)
				}
				if seen[fmt.Sprint(c.w)] {
					continue
				}
				seen[fmt.Sprint(c.w)] = true
				for _, tag := range lang.Tags {
					th := kit.NewTheme("mono", nil).In(lang.For(tag))
					for _, id := range ids(c.w) {
						if !th.L.Has(id) {
							t.Errorf("%s: no message %q", tag, id)
						}
					}
					for _, you := range []string{"", "yes"} {
						w := c.w
						w.Args = append(w.Args[:len(w.Args):len(w.Args)], engine.Str("You", you))
						got := kit.Say(th, game, w)
						if strings.Contains(got, "{{") || strings.Contains(got, "<no value>") || strings.Contains(got, "log.") {
							t.Errorf("%s: %s words %q", tag, c.w.ID, got)
						}
					}
				}
			}
		}
	}
	if len(seen) < 100 {
		t.Errorf("the games emitted %d different events; want a wide sample", len(seen))
	}
}

// TestLogLinesNameWhoInTheViewersLanguage words one entry for its seat,
// another seat, a spectator and a bot's move.
func TestLogLinesNameWhoInTheViewersLanguage(t *testing.T) {
	take := engine.Event{Seat: 0, Kind: "take", Text: "took Dojo from the marketplace",
		Words: engine.Say("factories.log.take", engine.CardArg("Card", "Dojo"))}
	drew := engine.Event{Seat: 0, Kind: "draw", Text: "drew 2 blueprints (research)", Private: "drew Dojo and Robot (research)",
		Words:        engine.Say("factories.log.drew", engine.Num("N", 2), engine.ListArg("Why", engine.Say("factories.log.why.research"))),
		PrivateWords: engine.Say("factories.log.drewcards", engine.ListArg("Cards", engine.Say("factories.log.card", engine.CardArg("Card", "Dojo")), engine.Say("factories.log.card", engine.CardArg("Card", "Robot"))), engine.ListArg("Why", engine.Say("factories.log.why.research")))}
	names := []string{"ann", "ben"}
	for _, c := range []struct {
		tag    lang.Tag
		viewer int
		e      *lobby.LogEntry
		want   string
	}{
		{lang.English, 0, &lobby.LogEntry{Event: take}, "♠ You took Dojo from the marketplace"},
		{lang.English, 1, &lobby.LogEntry{Event: take}, "♠ ann took Dojo from the marketplace"},
		{lang.English, 0, &lobby.LogEntry{Event: take, ByBot: true}, "♠ the bot played for you: took Dojo from the marketplace"},
		{lang.English, engine.Spectator, &lobby.LogEntry{Event: take, ByBot: true}, "♠ the bot played for ann: took Dojo from the marketplace"},
		{lang.English, 0, &lobby.LogEntry{Event: drew}, "♠ You drew Dojo and Robot (research)"},
		{lang.English, 1, &lobby.LogEntry{Event: drew}, "♠ ann drew 2 blueprints (research)"},
		{lang.Polish, 0, &lobby.LogEntry{Event: drew}, "♠ Ty dobierasz karty: Dojo i Robot (Biuro)"},
		{lang.Polish, 1, &lobby.LogEntry{Event: drew}, "♠ ann dobiera 2 karty Projektów (Biuro)"},
		{lang.Russian, 0, &lobby.LogEntry{Event: drew}, "♠ Вы берёте карты: Dojo и Robot (исследование)"},
		{lang.Russian, 1, &lobby.LogEntry{Event: drew}, "♠ ann берёт 2 чертежа (исследование)"},
		{lang.Portuguese, 1, &lobby.LogEntry{Event: drew}, "♠ ann comprou 2 projetos (pesquisa)"},
	} {
		th := kit.NewTheme("mono", nil).In(lang.For(c.tag))
		s := kit.Seats{Names: names, Bots: make([]string, 2), Viewer: c.viewer}
		if got := ansi.Strip(logLine(th, s, "factories", c.e)); got != c.want {
			t.Errorf("%s, viewer %d: %q; want %q", c.tag, c.viewer, got, c.want)
		}
	}
}

// TestLogPluralsInPolishAndRussian counts blueprints drawn 1, 2, 5, 21,
// 22 and 25 times over.
func TestLogPluralsInPolishAndRussian(t *testing.T) {
	for tag, want := range map[lang.Tag][]string{
		lang.Polish:  {"1 kartę Projektu", "2 karty Projektów", "5 kart Projektów", "21 kart Projektów", "22 karty Projektów", "25 kart Projektów"},
		lang.Russian: {"1 чертёж", "2 чертежа", "5 чертежей", "21 чертёж", "22 чертежа", "25 чертежей"},
	} {
		th := kit.NewTheme("mono", nil).In(lang.For(tag))
		for i, n := range []int{1, 2, 5, 21, 22, 25} {
			if got := kit.Say(th, "factories", engine.Say("factories.log.n.blueprints", engine.Num("N", n))); got != want[i] {
				t.Errorf("%s: %d blueprints = %q; want %q", tag, n, got, want[i])
			}
		}
	}
}

// BenchmarkLogWords is a screen's log at each room update: 200 entries
// of a played game, three of them new, worded for a seat in Polish.
func BenchmarkLogWords(b *testing.B) {
	events, window := benchWindow()
	th := kit.NewTheme("mono", nil).In(lang.For(lang.Polish))
	s := kit.Seats{Names: []string{"ann", "ben", "cat", "dan"}, Bots: make([]string, 4), Viewer: 1}
	var l logWords
	l.words(th, s, "factories", window)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		window = advance(window, events, i)
		l.words(th, s, "factories", window)
	}
}

// TestLogPaneSharedAcrossSeats: the log pane of each seat at a table, and
// of a spectator, drawn from the entries the table shares (which keep
// what one screen wrapped for the others), reads as its own log drawn
// alone: no seat is shown another's line, private or not, at any size,
// and fitted as it is written as it would be fitted after.
func TestLogPaneSharedAcrossSeats(t *testing.T) {
	var events []engine.Event
	for _, g := range games.All() {
		if g.Name() == "factories" {
			events = playRandom(t, g, 4, 1)[:200]
		}
	}
	private := false
	shared := make([]*lobby.LogEntry, len(events))
	for i, e := range events {
		shared[i] = &lobby.LogEntry{Event: e}
		private = private || e.For(0) != e.For(1)
	}
	if !private {
		t.Fatal("no entry reads differently for two seats: the test shows nothing")
	}
	th := kit.NewTheme("default", nil).In(lang.For(lang.Polish))
	for _, w := range []int{24, 60} {
		for _, h := range []int{0, 1, 2, 3, 12, 40} {
			for viewer := -1; viewer < 4; viewer++ {
				s := kit.Seats{Names: []string{"ann", "ben", "cat", "dan"}, Bots: make([]string, 4), Viewer: viewer, L: th.L}
				var l logWords
				own := make([]*lobby.LogEntry, len(events))
				for i, e := range events {
					own[i] = &lobby.LogEntry{Event: e}
				}
				var alone logWords
				want := kit.FitLines(strings.Split(oldLogTail(th, alone.words(th, s, "factories", own), w, h), "\n"), w)
				// Every line measured (the replay's pane) ...
				got := fittedLogTail(th, len(shared), func(i int) (string, bool) {
					text, _ := l.fitted(th, s, "factories", shared[i], w)
					return text, false
				}, w, h)
				if got != want {
					t.Fatalf("seat %d at %dx%d reads\n%q\nwant\n%q", viewer, w, h, got, want)
				}
				// ... and the game screen's pane, its fitted entries copied
				// unmeasured, both read as the pane drawn and fitted after.
				fitted := fittedLogTail(th, len(shared), func(i int) (string, bool) { return l.fitted(th, s, "factories", shared[i], w) }, w, h)
				if fitted != want {
					t.Fatalf("seat %d at %dx%d reads fitted\n%q\nwant\n%q", viewer, w, h, fitted, want)
				}
			}
		}
	}
}

// oldLogTail is the log pane as it was drawn before the pane asked for
// its entries one by one, newest first.
func oldLogTail(t kit.Theme, log []string, w, h int) string {
	if h < 1 {
		return ""
	}
	lines := []string{t.Title.Render(t.L.T("session.log.pane")) + t.Dim.Render("  "+t.L.T("session.log.paneHint"))}
	var entries []string
	for i := len(log) - 1; i >= 0; i-- {
		wrapped := strings.Split(kit.Wrap(log[i], w), "\n")
		if len(entries)+len(wrapped) > h-1 {
			if len(entries) == 0 {
				entries = wrapped[:max(0, h-1)]
			}
			break
		}
		entries = append(wrapped, entries...)
	}
	if len(entries) == 0 {
		entries = []string{t.Dim.Render(t.L.T("session.log.empty"))}
	}
	return strings.Join(append(lines, entries...), "\n")
}

// BenchmarkLogPane is the log pane of a table's four screens (40x20) at a
// room update: 200 entries of a played game, three of them new, worded
// for each seat in Polish.
func BenchmarkLogPane(b *testing.B) {
	events, window := benchWindow()
	th := kit.NewTheme("mono", nil).In(lang.For(lang.Polish))
	var screens []*gameScreen
	for seat := range 4 {
		g := newConnecting(&env{theme: th}, "ABCD", false)
		g.room.Game, g.seat = "factories", seat
		g.table = kit.Seats{Names: []string{"ann", "ben", "cat", "dan"}, Bots: make([]string, 4), Viewer: seat}
		screens = append(screens, g)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		window = advance(window, events, i)
		for _, g := range screens {
			g.events, g.logPane = window, kit.Kept[[2]int]{}
			g.logOrChat(40, 20)
		}
	}
}

// benchWindow is a played 4-seat game of Fantastic Factories' events,
// and the log a room shows of it: its first 200 entries.
func benchWindow() ([]engine.Event, []*lobby.LogEntry) {
	var events []engine.Event
	for _, g := range games.All() {
		if g.Name() == "factories" {
			events = playRandom(&testing.T{}, g, 4, 1)
		}
	}
	window := make([]*lobby.LogEntry, 0, 200)
	for _, e := range events[:200] {
		window = append(window, &lobby.LogEntry{Event: e})
	}
	return events, window
}

// advance is the room's log after its i-th update of three new events:
// window less its three oldest entries, and the next three of events.
func advance(window []*lobby.LogEntry, events []engine.Event, i int) []*lobby.LogEntry {
	next := make([]*lobby.LogEntry, 0, len(window))
	next = append(next, window[3:]...)
	for k := range 3 {
		next = append(next, &lobby.LogEntry{Event: events[(200+3*i+k)%len(events)]})
	}
	return next
}
