package session

import (
	"context"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/session/kit"
)

// replayScreen steps through a finished game frame by frame, as the
// viewer saw it from their seat (lobby.Replay): their own hand, never
// another's; as a spectator saw it for anyone who held no seat.
type replayScreen struct {
	env    *env
	code   string // the room's code, as the screen shows it
	typed  string // what opens it: the code, or a private room's invite
	info   lobby.RoomInfo
	frames []lobby.Frame
	boards []kit.Board // decoded frames, filled as they are shown
	words  logWords    // each frame's log worded for the viewer
	at     int
	loaded bool
	err    string
	note   string // what esc on the replay itself says

	round   *string // the round number being typed after r
	overlay overlay // the keys or the card reference, nil for none

	// chat is everything said in the room; t shows, in the log's place,
	// what was said until the next move (replaychat.go).
	chat *chatPane
}

type replayMsg struct {
	info   lobby.RoomInfo
	frames []lobby.Frame
	chat   []store.ChatLine
	err    error
}

func newReplayScreen(e *env, typed string) *replayScreen {
	r := &replayScreen{env: e, code: codeOf(typed), typed: typed, chat: newChatPane(e)}
	r.chat.readOnly = true
	return r
}

func (r *replayScreen) load() tea.Cmd {
	e, typed := r.env, r.typed
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, moveTimeout)
		defer cancel()
		info, frames, err := e.lobby.Replay(ctx, typed, e.player)
		if err != nil {
			return replayMsg{err: err}
		}
		chat, err := e.lobby.ReplayChat(ctx, typed, e.player)
		return replayMsg{info: info, frames: frames, chat: chat, err: err}
	}
}

func (r *replayScreen) close() {}

func (r *replayScreen) update(msg tea.Msg) (screen, tea.Cmd) {
	switch msg := msg.(type) {
	case replayMsg:
		if msg.err != nil {
			status := r.env.theme.L.T("session.replay.failed", "Code", r.code, "Why", errText(r.env.theme, "", msg.err))
			return r, func() tea.Msg { return toLobby{status: status} }
		}
		r.info, r.frames, r.loaded = msg.info, msg.frames, true
		r.chat.lines = msg.chat
		r.boards = make([]kit.Board, len(msg.frames))
		r.decode()
	case tea.KeyMsg:
		r.note = ""
		cmd := r.key(msg)
		r.decode()
		return r, cmd
	}
	return r, nil
}

// key hands a key to the screen's top layer (input.go).
func (r *replayScreen) key(msg tea.KeyMsg) tea.Cmd { return route(r.top(), msg) }

// top is the layer that takes keys now: the round being typed after r,
// an overlay; else the replay, where esc hides the chat, and at the
// bottom says how to leave.
func (r *replayScreen) top() layer {
	switch {
	case r.round != nil:
		return layer{key: r.roundKey, esc: func() { r.round = nil }}
	case r.overlay != nil:
		return overlayLayer(r.overlay, func(o overlay) { r.overlay = o })
	case r.chat.open:
		return layer{key: r.frameKey, esc: func() { r.chat.open = false }}
	}
	return layer{key: r.frameKey, esc: func() { r.note = r.env.theme.L.T("session.replay.escLeaves") }}
}

// roundKey types the round to jump to, after r.
func (r *replayScreen) roundKey(msg tea.KeyMsg) tea.Cmd {
	switch {
	case msg.Type == tea.KeyEnter:
		n, err := strconv.Atoi(*r.round)
		r.round = nil
		if err == nil {
			r.jumpToRound(n)
		}
	case msg.Type == tea.KeyBackspace && len(*r.round) > 0:
		*r.round = (*r.round)[:len(*r.round)-1]
	case msg.Type == tea.KeyRunes && len(*r.round) < 3 && strings.Trim(string(msg.Runes), "0123456789") == "":
		*r.round += string(msg.Runes)
	}
	return nil
}

// frameKey is a key on the replay itself.
func (r *replayScreen) frameKey(msg tea.KeyMsg) tea.Cmd {
	k := replayKeyMap
	switch {
	case key.Matches(msg, k.Leave):
		code := r.code
		return func() tea.Msg { return toLobby{from: code} }
	case key.Matches(msg, k.Help):
		w, h := r.env.bodySize()
		r.overlay = newHelpOverlay(r.env.theme, w, h, r.env.theme.L.T("session.keys.title"), replayKeyMap)
	case !r.loaded || len(r.frames) == 0:
	case key.Matches(msg, k.Next):
		r.at = min(len(r.frames)-1, r.at+1)
	case key.Matches(msg, k.Prev):
		r.at = max(0, r.at-1)
	case key.Matches(msg, k.NextRound):
		r.jumpToRound(r.frames[r.at].Round + 1)
	case key.Matches(msg, k.PrevRound):
		r.jumpToRound(r.frames[r.at].Round - 1)
	case key.Matches(msg, k.First):
		r.at = 0
	case key.Matches(msg, k.Last):
		r.at = len(r.frames) - 1
	case key.Matches(msg, k.Round):
		s := ""
		r.round = &s
	case key.Matches(msg, k.Chat):
		r.chat.open = !r.chat.open
	case key.Matches(msg, k.Card):
		if b := r.current(); b != nil {
			r.overlay = newCardsOverlay(b, r.seats(), "")
		}
	}
	return nil
}

// seats names the table for the boards, from the viewer's seat (the
// frames' own view); a replay is watched, never played.
func (r *replayScreen) seats() kit.Seats {
	viewer := r.info.SeatOf(r.env.player.ID)
	if viewer < 0 {
		viewer = engine.Spectator
	}
	s := SeatsOf(r.info, viewer)
	s.L = r.env.theme.L
	return s
}

// jumpToRound goes to the first frame of round n (clamped to the game).
func (r *replayScreen) jumpToRound(n int) {
	last := r.frames[len(r.frames)-1].Round
	n = min(max(n, 1), last)
	for i, f := range r.frames {
		if f.Round >= n {
			r.at = i
			return
		}
	}
}

// decode decodes the frame shown, if it is new. Frames are decoded when
// first shown, so a long game's replay opens at once; it is called from
// update, so drawing never changes the screen.
func (r *replayScreen) decode() {
	if r.at < 0 || r.at >= len(r.frames) || r.boards[r.at] != nil {
		return
	}
	b, err := r.env.decode(r.info.Game, r.frames[r.at].View)
	if err != nil {
		r.err = errText(r.env.theme, r.info.Game, err)
		return
	}
	r.boards[r.at] = b
}

// current is the board at the frame shown, nil before it is decoded.
func (r *replayScreen) current() kit.Board {
	if r.at < 0 || r.at >= len(r.boards) {
		return nil
	}
	return r.boards[r.at]
}

func (r *replayScreen) view(w, h int) string {
	t := r.env.theme
	p := t.L
	head := t.Title.Render("smokestack") + " · " + p.T("session.replay.title", "Code", r.code)
	if r.info.Hinted {
		head += " · " + p.T("session.room.hinted")
	}
	bh := h - 4
	body := p.T("session.replay.loading")
	banner := ""
	var km help.KeyMap = replayKeyMap
	if b := r.current(); b != nil {
		f := r.frames[r.at]
		seats := r.seats()
		head += " · " + p.T("session.replay.at", "Move", r.at, "Moves", len(r.frames)-1, "Round", f.Round)
		if f.Seat >= 0 {
			banner = p.T("session.replay.after", "Name", seats.Name(f.Seat))
		} else if r.at == 0 {
			banner = p.T("session.replay.start")
		}
		frame := kit.Frame{Theme: t, Seats: seats, Width: w, Height: bh, Ended: endedText(t.L, r.info.Ended),
			Log: func(w, h int) string { return r.logOrChat(seats, r.words.words(t, seats, r.info.Game, f.Events), w, h) }}
		if seats.Viewer != engine.Spectator {
			// A player's replay is their seat's board, their own area and
			// hand as they saw them; where the moves were, it says so.
			frame.Menu = func(w, _ int) string { return kit.Fit(t.Dim.Render(p.T("session.replay.yourSeat")), w, 1) }
		}
		switch {
		case r.overlay != nil:
			body = r.overlay.view(t, w, bh)
			km = r.overlay.keys()
		case b.Over():
			body = r.withChat(b.Scores(frame), seats, w, bh)
		default:
			body = b.Draw(frame)
		}
	}
	status := t.Dim.Render(r.err)
	if r.note != "" {
		status = t.Dim.Render(r.note)
	}
	if r.round != nil {
		status = p.T("session.replay.jump", "Round", *r.round) + "▏" + t.Dim.Render("  "+p.T("session.replay.jumpKeys"))
	}
	return strings.Join([]string{kit.Fit(head, w, 1), kit.Fit(banner, w, 1), kit.Fit(body, w, bh), kit.Fit(status, w, 1), kit.Fit(helpBar(t, km, w), w, 1)}, "\n")
}
