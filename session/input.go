package session

import (
	tea "github.com/charmbracelet/bubbletea"
)

// The input model: what a key does, on every screen, decided in one place.
//
// A screen is a stack of layers: a table, a replay or the lobby at the
// bottom; over it whatever shows for a while (a search, a confirm line, the
// card reference, the rules, the keys page, the chat being typed, the log,
// a form or a prompt). A key goes to the top layer only: the layers under
// it, and the table under them all, never see it. Esc closes or cancels
// the top layer and nothing else; on the bottom layer it leaves nothing (q
// leaves a table, a replay, the lobby; the status line says so). Ctrl-C
// leaves the program from anywhere (Model.Update), and while the window is
// too small to show a screen, no screen takes a key at all.
//
// Each screen says what is on its top now (its top method, built from
// layers); route hands it the key. A new layer, such as a line-mode
// prompt or a hint, is one more case of a screen's top: it cannot take a
// key from under another layer, nor leave a table on esc.

// layer is what is on top of a screen: it takes every key but esc, and
// esc closes or cancels it.
type layer struct {
	// key takes a key other than esc; nil ignores it.
	key func(tea.KeyMsg) tea.Cmd
	// esc closes or cancels the layer; on a screen's bottom layer it says
	// how to leave instead.
	esc func()
}

// route hands k to the top layer.
func route(top layer, k tea.KeyMsg) tea.Cmd {
	if k.Type == tea.KeyEscape {
		if top.esc != nil {
			top.esc()
		}
		return nil
	}
	if top.key == nil {
		return nil
	}
	return top.key(k)
}

// overlayLayer is an overlay (overlay.go) as a layer over a screen: it
// takes every key, esc closes it, and set puts what the overlay turns into
// (nil when it closes) in the screen's place for it.
func overlayLayer(o overlay, set func(overlay)) layer {
	return layer{
		key: func(k tea.KeyMsg) tea.Cmd {
			next, cmd := o.update(k)
			set(next)
			return cmd
		},
		esc: func() { set(nil) },
	}
}

// keyName is a key as its bindings name it (tea.KeyMsg.String), for
// key.Matches: a KeyMsg makes its name again, a new string for a letter,
// for every binding it is matched against, and a screen's keys are
// matched against a dozen or two in turn.
type keyName string

func (n keyName) String() string { return string(n) }

// nameOf names k once for every match of it.
func nameOf(k tea.KeyMsg) keyName { return keyName(k.String()) }
