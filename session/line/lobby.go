package line

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/kit"
)

// callTimeout bounds how long a command waits for the lobby and its
// store, as the screens' moves do.
const callTimeout = 10 * time.Second

// maxListed bounds the rooms or lines one command lists.
const maxListed = 20

// welcome greets the player in the lobby.
func (s *sess) welcome() {
	s.out.answer(s.p.T("line.lobby.welcome", "Name", s.cfg.Player.Name), s.p.T("line.lobby.hint"))
}

// waiting says which games wait on the player's move, as the full
// screen's landing takes them back to one.
func (s *sess) waiting() {
	ctx, cancel := s.call()
	defer cancel()
	rooms, err := s.cfg.Lobby.Mine(ctx, s.cfg.Player)
	if err != nil {
		return // the lobby works without it
	}
	for i, r := range rooms {
		if i == maxListed {
			s.out.answer(s.p.N("line.more", len(rooms)-i))
			break
		}
		s.out.answer(s.p.T("line.lobby.your_move", "Code", r.Code, "Game", s.gameTitle(r.Game)))
	}
}

// lobbyCommand runs a command typed in the lobby.
func (s *sess) lobbyCommand(name, rest string) error {
	switch name {
	case "help", "keys", "?":
		s.out.answer(s.p.T("line.lobby.help1"), s.p.T("line.lobby.help2"), s.p.T("line.lobby.help6"), s.p.T("line.lobby.help3"),
			s.p.T("line.lobby.help4"), s.p.T("line.lobby.help5"))
	case "rooms", "list":
		s.rooms()
	case "games":
		s.games()
	case "new", "create":
		s.newRoom(rest)
	case "join", "watch":
		if rest == "" {
			s.out.answer(s.p.T("line.lobby.which_room", "Command", name))
			return nil
		}
		if err := s.sit(rest, name == "watch"); err != nil {
			s.out.answer(s.refusal("", err))
		}
	case "replay":
		s.replay(rest)
	case "say":
		s.sayInLobby(rest)
	case "lang", "language":
		s.lang(rest)
	case "quit", "exit", "bye", "leave":
		s.out.answer(s.p.T("line.bye"))
		return errQuit
	default:
		s.out.answer(s.p.T("line.unknown", "Command", name))
	}
	return nil
}

func (s *sess) call() (context.Context, context.CancelFunc) {
	return context.WithTimeout(s.ctx, callTimeout)
}

// rooms lists the public rooms open to join or watch.
func (s *sess) rooms() {
	ctx, cancel := s.call()
	defer cancel()
	rooms, err := s.cfg.Lobby.PublicRooms(ctx, time.Time{})
	if err != nil {
		s.out.answer(s.refusal("", err))
		return
	}
	if len(rooms) == 0 {
		s.out.answer(s.p.T("line.lobby.no_rooms"))
		return
	}
	s.out.answer(s.p.N("line.lobby.rooms", len(rooms)))
	for i, r := range rooms {
		if i == maxListed {
			s.out.answer(s.p.N("line.more", len(rooms)-i))
			break
		}
		s.out.answer(s.roomLine(r))
	}
}

// roomLine says one room of the list: its code, game, who sits and
// whether a seat is free.
func (s *sess) roomLine(r lobby.RoomInfo) string {
	var names []string
	free := 0
	for _, seat := range r.Seats {
		switch {
		case seat.Free:
			free++
		case seat.Bot != "" && seat.Name == "":
			names = append(names, s.p.T("line.bot_named", "Bot", seat.Bot))
		default:
			names = append(names, seat.Name)
		}
	}
	state := s.p.N("line.lobby.free", free)
	switch {
	case r.Over:
		state = s.p.T("line.lobby.over")
	case r.Started:
		state = s.p.T("line.lobby.playing", "Round", r.Round)
	}
	who := s.p.T("line.lobby.nobody")
	if len(names) > 0 {
		who = strings.Join(names, ", ")
	}
	return s.p.T("line.lobby.room", "Code", r.Code, "Game", s.gameTitle(r.Game), "Who", who, "State", state)
}

func (s *sess) gameTitle(name string) string {
	if g, ok := s.cfg.Lobby.Game(name); ok {
		return session.GameTitle(s.p, g)
	}
	return name
}

// games lists the games, with their seats and bots.
func (s *sess) games() {
	for _, g := range s.cfg.Lobby.Games() {
		lo, hi := g.Rules.Seats()
		s.out.answer(s.p.T("line.lobby.game", "Name", g.Name(), "Title", session.GameTitle(s.p, g), "Min", lo, "Max", hi,
			"Bots", strings.Join(g.Bots.Names, ", ")))
		for _, o := range g.Rules.Options() {
			choices, def := strings.Join(o.Choices, ", "), o.DefaultValue()
			if o.Seats != 0 {
				s.out.answer(s.p.N("line.lobby.option_for", o.Seats, "Name", o.Name, "Choices", choices, "Default", def))
			} else {
				s.out.answer(s.p.T("line.lobby.option", "Name", o.Name, "Choices", choices, "Default", def))
			}
		}
	}
}

// sit joins or watches a room: the table takes over.
func (s *sess) sit(code string, watch bool) error {
	ctx, cancel := s.call()
	defer cancel()
	var c *lobby.Conn
	var err error
	if watch {
		c, err = s.cfg.Lobby.Watch(ctx, code, s.cfg.Player)
	} else {
		c, err = s.cfg.Lobby.Join(ctx, code, s.cfg.Player)
	}
	if err != nil {
		return err
	}
	c.SkipJSON() // the table reads the view's value
	s.closeTable()
	s.table = newTable(c)
	return nil
}

// replay says a finished game's log, a page at a time: "replay CODE
// [PAGE]".
func (s *sess) replay(args string) {
	f := strings.Fields(args)
	if len(f) == 0 {
		s.out.answer(s.p.T("line.lobby.which_room", "Command", "replay"))
		return
	}
	page := 1
	if len(f) > 1 {
		page, _ = strconv.Atoi(f[len(f)-1])
		f = f[:len(f)-1]
	}
	ctx, cancel := s.call()
	defer cancel()
	info, frames, err := s.cfg.Lobby.Replay(ctx, strings.Join(f, " "), s.cfg.Player)
	if err != nil {
		s.out.answer(s.refusal("", err))
		return
	}
	seats := seatsOf(info, -1, s.p)
	var lines []string
	for _, fr := range frames {
		for _, e := range fr.Events {
			lines = append(lines, session.LogLine(s.theme, seats, info.Game, e))
		}
	}
	pages := max(1, (len(lines)+maxPage-1)/maxPage)
	page = min(max(page, 1), pages)
	s.out.answer(s.p.T("line.replay.head", "Code", info.Code, "Game", s.gameTitle(info.Game), "Page", page, "Pages", pages))
	s.out.answer(lines[(page-1)*maxPage : min(len(lines), page*maxPage)]...)
	if page < pages {
		s.out.answer(s.p.T("line.replay.next", "Code", info.Code, "Page", page+1))
	}
}

// maxPage is the most lines a page of a long text takes.
const maxPage = 40

// sayInLobby says a line in the lobby's chat.
func (s *sess) sayInLobby(text string) {
	if text == "" {
		s.out.answer(s.p.T("line.say_what"))
		return
	}
	ctx, cancel := s.call()
	defer cancel()
	if err := s.cfg.Lobby.SayInLobby(ctx, s.cfg.Player, text); err != nil {
		s.out.answer(s.refusal("", err))
		return
	}
	s.out.answer(s.p.T("line.said"))
}

// lang switches the language, and keeps it as the player's choice.
func (s *sess) lang(arg string) {
	t, ok := lang.Parse(arg)
	if !ok {
		var names []string
		for _, t := range lang.Tags {
			names = append(names, string(t)+" ("+t.Name()+")")
		}
		s.out.answer(s.p.T("line.lang.which", "Langs", strings.Join(names, ", ")))
		return
	}
	ctx, cancel := s.call()
	defer cancel()
	if p, err := s.cfg.Lobby.SetLang(ctx, s.cfg.Player, string(t)); err == nil {
		s.cfg.Player = p
	}
	s.setLang(t)
	if s.cfg.OnLang != nil {
		s.cfg.OnLang(t)
	}
	s.out.answer(s.p.T("line.lang.now", "Lang", t.Name()))
}

// seatsOf names a room's seats for viewer, by name alone.
func seatsOf(r lobby.RoomInfo, viewer int, p *lang.Printer) kit.Seats {
	s := session.SeatsOf(r, viewer)
	s.L, s.Plain = p, true
	return s
}
