package session

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/session/kit"
)

// logOrChat draws, in the log's place, the chat said while the frame
// shown stood (from its move until the next) when t opened it, the
// frame's log otherwise. The last frame shows the whole chat, what was
// said after the game too. Its lines are fitted to w (kit.Frame.Log).
func (r *replayScreen) logOrChat(s kit.Seats, log []string, w, h int) string {
	t := r.env.theme
	if !r.chat.open {
		return fittedLogTail(t, len(log), func(i int) (string, bool) { return kit.Wrap(log[i], w), false }, w, h)
	}
	pane := *r.chat
	pane.lines = r.chatUntil()
	return kit.FitLines(strings.Split(pane.view(t, s, true, w, h), "\n"), w)
}

// chatUntil is the chat said before the move after the frame shown.
func (r *replayScreen) chatUntil() []store.ChatLine {
	if r.at+1 >= len(r.frames) {
		return r.chat.lines
	}
	next := r.frames[r.at+1].At
	var out []store.ChatLine
	for _, l := range r.chat.lines {
		if l.At.Before(next) {
			out = append(out, l)
		}
	}
	return out
}

// withChat puts the chat under the final scores, when t opened it and
// there is room.
func (r *replayScreen) withChat(scores string, s kit.Seats, w, h int) string {
	rest := h - lipgloss.Height(scores) - 1
	if !r.chat.open || rest < 3 {
		return scores
	}
	return scores + "\n\n" + r.logOrChat(s, nil, w, rest-1)
}
