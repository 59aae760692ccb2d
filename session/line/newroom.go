package line

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// newRoom makes a room and sits in it: "new furnace 3 players 1 bot",
// any order, every part optional; bots take the last seats. As the
// screen's form does, it takes the game's options, by name and value
// ("difficulty hard", "rounds 3") or by a value no other option has
// ("hard"), and which bot plays ("search"). "no clock" turns off the
// clock a public room of people has by default, and "private" makes
// the room private (its invite is said at the table).
func (s *sess) newRoom(args string) {
	games := s.cfg.Lobby.Games()
	if len(games) == 0 {
		return
	}
	words := strings.Fields(strings.ToLower(args))
	g := games[0]
	for _, w := range words {
		if j := slices.IndexFunc(games, func(x lobby.Game) bool { return x.Name() == w }); j >= 0 {
			g = games[j]
		}
	}
	r := roomWords{g: g, o: lobby.CreateOptions{Public: true, Game: g.Name()}, opts: map[string]string{}}
	if w := r.read(words); w != "" {
		s.out.answer(s.p.T("line.lobby.new_unknown", "Word", w), s.p.T("line.lobby.new_usage"))
		return
	}
	if r.seats == 0 {
		lo, _ := g.Rules.Seats()
		r.seats = max(lo, 2, r.bots+1)
	}
	for _, opt := range g.Rules.Options() {
		if _, set := r.opts[opt.Name]; set && opt.Seats != 0 && opt.Seats != r.seats {
			s.out.answer(s.p.N("line.lobby.option_seats", opt.Seats, "Option", opt.Name))
			return
		}
	}
	kind := r.kind
	if kind == "" && len(g.Bots.Names) > 0 {
		kind = g.Bots.Names[0]
	}
	o := r.o
	o.Seats, o.Bots = r.seats, slices.Repeat([]string{kind}, r.bots)
	if len(r.opts) > 0 {
		o.Options, _ = json.Marshal(r.opts)
	}
	ctx, cancel := s.call()
	defer cancel()
	m, err := s.cfg.Lobby.Create(ctx, s.cfg.Player, o)
	if err != nil {
		s.out.answer(s.refusal(g.Name(), err))
		return
	}
	s.out.answer(s.p.T("line.lobby.created", "Code", m.Code, "Game", session.GameTitle(s.p, g)))
	if err := s.sit(m.Invite(), false); err != nil {
		s.out.answer(s.refusal(g.Name(), err))
	}
}

// roomWords is a new room as its words say it.
type roomWords struct {
	g           lobby.Game
	o           lobby.CreateOptions
	seats, bots int
	kind        string            // the bot's name, if one was given
	opts        map[string]string // the game's options given
}

// read takes in words, and returns the first it does not know, if any.
func (r *roomWords) read(words []string) string {
	next := func(i int) string {
		if i+1 < len(words) {
			return words[i+1]
		}
		return ""
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if n, err := strconv.Atoi(w); err == nil && n >= 0 && n < 100 {
			nx := next(i)
			opt, named := optionNamed(r.g.Rules.Options(), nx)
			switch {
			case strings.HasPrefix(nx, "bot"):
				r.bots, i = n, i+1
			case slices.Contains(r.g.Bots.Names, nx): // "1 search bot"
				r.bots, r.kind, i = n, nx, i+1
			case named && slices.Contains(opt.Choices, w): // "3 rounds"
				r.opts[opt.Name], i = w, i+1
			case strings.HasPrefix(nx, "player") || strings.HasPrefix(nx, "seat"):
				r.seats, i = n, i+1
			default:
				r.seats = n
			}
			continue
		}
		if opt, ok := optionNamed(r.g.Rules.Options(), w); ok && slices.Contains(opt.Choices, next(i)) {
			r.opts[opt.Name], i = next(i), i+1
			continue
		}
		if opt, ok := optionWithChoice(r.g.Rules.Options(), w); ok {
			r.opts[opt.Name] = w
			continue
		}
		switch {
		case w == r.g.Name():
		case slices.Contains(r.g.Bots.Names, w):
			r.kind, r.bots = w, max(r.bots, 1)
		case strings.HasPrefix(w, "bot"):
			r.bots = max(r.bots, 1)
		case w == "private":
			r.o.Public = false
		case w == "no" && next(i) == "clock":
			r.o.Clock, i = lobby.ClockOff, i+1
		default:
			return w
		}
	}
	return ""
}

// optionNamed is the option called name.
func optionNamed(opts []engine.Option, name string) (engine.Option, bool) {
	i := slices.IndexFunc(opts, func(o engine.Option) bool { return o.Name == name })
	if i < 0 {
		return engine.Option{}, false
	}
	return opts[i], true
}

// optionWithChoice is the one option that has value among its choices,
// if only one has it: "hard" is a level, "on" could be any switch.
func optionWithChoice(opts []engine.Option, value string) (engine.Option, bool) {
	var found []engine.Option
	for _, o := range opts {
		if slices.Contains(o.Choices, value) {
			found = append(found, o)
		}
	}
	if len(found) != 1 {
		return engine.Option{}, false
	}
	return found[0], true
}
