package session

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
)

// replayScreen steps through a finished game frame by frame, as a
// spectator saw it: hands stay hidden in replays too.
type replayScreen struct {
	env    *env
	code   string
	info   lobby.RoomInfo
	frames []lobby.Frame
	views  []*factories.View // decoded frames, filled as they are shown
	at     int
	loaded bool
	err    string

	round    *string // the round number being typed after r
	showHelp bool
	cards    bool
	cardSel  int
}

type replayMsg struct {
	info   lobby.RoomInfo
	frames []lobby.Frame
	err    error
}

func newReplayScreen(e *env, code string) *replayScreen {
	return &replayScreen{env: e, code: lobby.NormalizeCode(code)}
}

func (r *replayScreen) load() tea.Cmd {
	e, code := r.env, r.code
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, moveTimeout)
		defer cancel()
		info, frames, err := e.lobby.Replay(ctx, code)
		return replayMsg{info: info, frames: frames, err: err}
	}
}

func (r *replayScreen) close() {}

func (r *replayScreen) update(msg tea.Msg) (screen, tea.Cmd) {
	switch msg := msg.(type) {
	case replayMsg:
		if msg.err != nil {
			err := msg.err.Error()
			return r, func() tea.Msg { return toLobby{status: "replay " + r.code + ": " + err} }
		}
		r.info, r.frames, r.loaded = msg.info, msg.frames, true
		r.views = make([]*factories.View, len(msg.frames))
	case tea.KeyMsg:
		return r, r.key(msg)
	}
	return r, nil
}

func (r *replayScreen) key(msg tea.KeyMsg) tea.Cmd {
	k := replayKeyMap
	if r.round != nil {
		switch {
		case msg.Type == tea.KeyEnter:
			n, err := strconv.Atoi(*r.round)
			r.round = nil
			if err == nil {
				r.jumpToRound(n)
			}
		case msg.Type == tea.KeyEsc:
			r.round = nil
		case msg.Type == tea.KeyBackspace && len(*r.round) > 0:
			*r.round = (*r.round)[:len(*r.round)-1]
		case msg.Type == tea.KeyRunes && len(*r.round) < 3 && strings.Trim(string(msg.Runes), "0123456789") == "":
			*r.round += string(msg.Runes)
		}
		return nil
	}
	if r.showHelp {
		r.showHelp = false
		return nil
	}
	if r.cards {
		switch {
		case key.Matches(msg, overlayKeyMap.Up):
			r.cardSel = max(0, r.cardSel-1)
		case key.Matches(msg, overlayKeyMap.Down):
			r.cardSel++
		default:
			r.cards = false
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Leave):
		return func() tea.Msg { return toLobby{} }
	case key.Matches(msg, k.Help):
		r.showHelp = true
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
	case key.Matches(msg, k.Card):
		r.cards, r.cardSel = true, 0
	}
	return nil
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

func (r *replayScreen) current() *factories.View {
	if r.at < 0 || r.at >= len(r.frames) {
		return nil
	}
	if r.views[r.at] == nil {
		v, err := decodeView(r.frames[r.at].View)
		if err != nil {
			r.err = err.Error()
			return nil
		}
		r.views[r.at] = v
	}
	return r.views[r.at]
}

func (r *replayScreen) view(w, h int) string {
	t := r.env.theme
	head := t.Title.Render("smokestack") + " · replay " + r.code
	bh := h - 4
	body := "loading the replay…"
	names := make([]string, len(r.info.Seats))
	for i, s := range r.info.Seats {
		names[i] = s.Name
	}
	banner := ""
	var km help.KeyMap = replayKeyMap
	if v := r.current(); v != nil {
		f := r.frames[r.at]
		head += fmt.Sprintf(" · move %d of %d · round %d", r.at, len(r.frames)-1, f.Round)
		if f.Seat >= 0 {
			banner = "after a move by " + playerName(names, f.Seat)
		} else if r.at == 0 {
			banner = "the starting position"
		}
		switch {
		case r.showHelp:
			body = helpOverlay(t, "REPLAY KEYS", replayKeyMap, w)
		case r.cards:
			cards := visibleCards(v, names)
			r.cardSel = min(r.cardSel, max(0, len(cards)-1))
			body = cardOverlay(t, cards, r.cardSel, min(w, 100), bh)
			km = overlayKeyMap
		case v.Phase == factories.GameOver:
			body = scoresView(t, v, names, -2, r.info.Ended, w) + "\n\n" + othersView(t, v, names, w, bh)
		default:
			body = publicBody(t, v, names, f.Log, w, bh)
		}
	}
	status := t.Dim.Render(r.err)
	if r.round != nil {
		status = "jump to round: " + *r.round + "▏" + t.Dim.Render("  (enter jumps, esc cancels)")
	}
	return strings.Join([]string{fit(head, w, 1), fit(banner, w, 1), fit(body, w, bh), fit(status, w, 1), fit(helpBar(t, km, w), w, 1)}, "\n")
}
