package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// The table app's board is library-neutral: lines of spans, each naming a
// style by index. Each Bubble Tea line renders the spans with its own
// Lip Gloss, so both draw the same screen.
const (
	plain = iota
	title
	heading
	card
	cost
	star
	dim
	chosen
	good
	styleCount
)

// palette is the colour of each style, for both Lip Gloss lines.
var palette = [styleCount]struct {
	fg, bg          string
	bold, underline bool
}{
	title:   {fg: "#F5A623", bold: true},
	heading: {fg: "#7FDBFF", bold: true, underline: true},
	card:    {fg: "#FFFFFF"},
	cost:    {fg: "#B0B0B0"},
	star:    {fg: "#FFD700"},
	dim:     {fg: "#6C6C6C"},
	chosen:  {fg: "#FFFFFF", bg: "#3A3A6A", bold: true},
	good:    {fg: "#2ECC40"},
}

type span struct {
	text  string
	style int
}

// table is the shared state of a room: four seats' dice and goods, a
// move counter and the log. A move changes about ten of the forty lines,
// as a move in the real game does (header, a seat's dice and goods, the
// chosen move, the log).
type table struct {
	version int
	dice    [4][4]int
	goods   [4]int
	log     []string // newest last; never changed in place, so copies share it
}

const logLines = 6

// move is seat's move: new dice, one more good, a log line.
func (t *table) move(seat int) {
	t.version++
	for i := range t.dice[seat] {
		t.dice[seat][i] = 1 + (t.version*7+i*3+seat)%6
	}
	t.goods[seat]++
	log := append(t.log[max(len(t.log)-logLines+1, 0):len(t.log):len(t.log)],
		fmt.Sprintf("seat %d made move %d and rolled %v", seat+1, t.version, t.dice[seat]))
	t.log = log
}

var market = [4][4]string{
	{"Incinerator", "shovel", "2m 1e", "★1"},
	{"Harvester", "hammer", "1m 2e", "★1"},
	{"Robot", "hammer", "1m 1e", "★0"},
	{"Battery Factory", "wrench", "2m 1e", "★1"},
}

var contractors = [4][2]string{
	{"gear", "Engineer +4e"}, {"wrench", "Electrician"}, {"hammer", "Architect"}, {"shovel", "Hired Hands +3e"},
}

// lines draws the board as seat sees it, width by height cells.
func (t table) lines(seat, width, height int) [][]span {
	const left = 63 // where the right-hand column starts
	var out [][]span
	row := func(l, r []span) {
		line := append([]span(nil), l...)
		if len(r) > 0 {
			line = append(line, span{strings.Repeat(" ", max(left-spanWidth(l), 1)), plain})
			line = append(line, r...)
		}
		out = append(out, line)
	}
	row([]span{{"smokestack", title}, {fmt.Sprintf(" · room TABLE · round %d · work phase · ", 1+t.version/8), dim},
		{fmt.Sprintf("seat %d", seat+1), good}}, nil)
	row(nil, nil)
	row([]span{{"MARKETPLACE", heading}, {"  deck 61 · discard 2", dim}},
		[]span{{"THE MACHINE", heading}, {fmt.Sprintf("  goods %d", t.goods[3]), good}})
	for i, m := range market {
		row([]span{{fmt.Sprintf("%d ", i+1), dim}, {fmt.Sprintf("%-19s", m[0]), card}, {fmt.Sprintf("%-8s", m[1]), cost},
			{m[2] + "  ", cost}, {m[3], star}},
			[]span{{"  Concrete Plant · Dojo", card}})
	}
	row([]span{{"  contractors (token → card) · deck 9", dim}}, nil)
	chosenMove := t.version % 4
	for i, c := range contractors {
		move := []span{{"  ", plain}, {fmt.Sprintf("Place with %d on research", i+1), cost}}
		if i == chosenMove {
			move = []span{{"▸ ", chosen}, {fmt.Sprintf("Place with %d on research", i+1), chosen}}
		}
		row([]span{{fmt.Sprintf("%d ", i+1), dim}, {fmt.Sprintf("%-6s", c[0]), cost}, {" → ", dim}, {c[1], card}}, move)
	}
	row([]span{{"YOU", heading}, {fmt.Sprintf(" (seat %d)", seat+1), dim}}, nil)
	for s := range 4 {
		row([]span{{fmt.Sprintf("seat %d ", s+1), dim}, {fmt.Sprintf("metal 1 · energy 1 · goods %d", t.goods[s]), good},
			{" · dice ", dim}, {fmt.Sprint(t.dice[s]), star}}, nil)
	}
	row([]span{{"hand (5): ", dim}, {"Beacon", card}, {" (shovel) · ", cost}, {"Dojo", card}, {" (gear) · ", cost},
		{"Laboratory", card}, {" (wrench)", cost}}, nil)
	for len(out) < height-logLines-3 {
		row(nil, nil)
	}
	row(nil, []span{{"LOG", heading}, {"  (g: whole log)", dim}})
	for i := range logLines {
		l := []span{}
		if i < len(t.log) {
			l = []span{{t.log[i], plain}}
		}
		row(nil, l)
	}
	row(nil, nil)
	row([]span{{"←/S-tab prev card · →/tab next card · ↑ prev move · ↓ next move · enter play move · ? all keys", dim}}, nil)
	for len(out) < height {
		row(nil, nil)
	}
	return out[:height]
}

func spanWidth(spans []span) int {
	n := 0
	for _, s := range spans {
		n += utf8.RuneCountInString(s.text)
	}
	return n
}

// render joins the styled lines, each padded to width, with style
// applying one Lip Gloss line's styles.
func render(lines [][]span, width int, style func(int, string) string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		w := 0
		for _, s := range l {
			n := utf8.RuneCountInString(s.text)
			if w+n > width {
				break // the real screens never draw past the edge
			}
			w += n
			if s.style == plain {
				b.WriteString(s.text)
			} else {
				b.WriteString(style(s.style, s.text))
			}
		}
		b.WriteString(strings.Repeat(" ", width-w))
	}
	return b.String()
}

// hub holds the rooms of the table app, created on first join.
type hub struct {
	mu    sync.Mutex
	rooms map[string]*room
}

func newHub() *hub { return &hub{rooms: map[string]*room{}} }

// room is one table shared by its seats: one writer at a time changes it
// and pushes the new state to every seat, as lobby.Room does.
type room struct {
	mu    sync.Mutex
	t     table
	seats map[*seat]bool
	next  int
}

// seat is one session in a room; updates holds at most the newest table.
type seat struct {
	index   int
	updates chan table
}

// join seats a session in the named room; the room's table arrives at once.
func (h *hub) join(name string) (*room, *seat) {
	h.mu.Lock()
	r := h.rooms[name]
	if r == nil {
		r = &room{seats: map[*seat]bool{}}
		h.rooms[name] = r
	}
	h.mu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &seat{index: r.next % 4, updates: make(chan table, 1)}
	r.next++
	r.seats[s] = true
	s.push(r.t)
	return r, s
}

func (r *room) leave(s *seat) {
	r.mu.Lock()
	delete(r.seats, s)
	r.mu.Unlock()
}

// move plays s's move and shows it to every seat.
func (r *room) move(s *seat) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.t.move(s.index)
	for o := range r.seats {
		o.push(r.t)
	}
}

// push replaces any unread table with t; only the room, under its lock,
// calls it.
func (s *seat) push(t table) {
	select {
	case <-s.updates:
	default:
	}
	s.updates <- t
}

// tableMsg carries a room's newest table to a session's program.
type tableMsg struct{ t table }

// next waits for the room's next table; nil once the session ends.
func (s *seat) next(ctx context.Context) any {
	select {
	case t := <-s.updates:
		return tableMsg{t}
	case <-ctx.Done():
		return nil
	}
}
