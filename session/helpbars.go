package session

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// helpBars holds the help bars drawn so far. A screen's bar depends only
// on the theme, the keys it lists and the width, so every session with
// the same ones shows the same bar: it is drawn once, not for every frame
// of every session (drawing it was a sixth of a game frame's work).
var helpBars = kit.NewShared[barKey, string](4096) // themes × key maps × widths: a few thousand at most

type barKey struct {
	styles *kit.Styles
	lang   lang.Tag
	keys   string // each enabled key and its help, as the bar lists them
	w      int
}

// keyOf is the cache key of a bar of keys in theme t, w wide.
func keyOf(t kit.Theme, keys []key.Binding, w int) barKey {
	var b strings.Builder
	b.Grow(keysLen(keys)) // made at most screens' every frame: one allocation
	writeKeys(&b, keys)
	return barKey{styles: t.Styles, lang: t.L.Tag(), keys: b.String(), w: w}
}

// pageKey is the cache key of a page of keys in columns, in theme t, w
// wide, under head (its title and note), given in pieces: they are
// written one after another, not joined first.
func pageKey(t kit.Theme, cols [][]key.Binding, w int, head ...string) barKey {
	return barKey{styles: t.Styles, lang: t.L.Tag(), keys: pageKeys(cols, head), w: w}
}

// pageKeys is a page's barKey.keys: its head, then each column's keys.
// Bars' keys never hold the byte 1 that starts each column here, so a
// page never takes a bar's place.
func pageKeys(cols [][]key.Binding, head []string) string {
	n := len(cols)
	for _, h := range head {
		n += len(h)
	}
	for _, col := range cols {
		n += keysLen(col)
	}
	var b strings.Builder
	b.Grow(n)
	for _, h := range head {
		b.WriteString(h)
	}
	for _, col := range cols {
		b.WriteByte(1)
		writeKeys(&b, col)
	}
	return b.String()
}

// writeKeys writes each enabled key and its help, as a bar lists them.
func writeKeys(b *strings.Builder, keys []key.Binding) {
	for _, k := range keys {
		if k.Enabled() {
			h := k.Help()
			b.WriteString(h.Key)
			b.WriteByte(0)
			b.WriteString(h.Desc)
			b.WriteByte(0)
		}
	}
}

// keysLen is the length of what writeKeys writes of keys.
func keysLen(keys []key.Binding) int {
	n := 0
	for _, k := range keys {
		if k.Enabled() {
			h := k.Help()
			n += len(h.Key) + len(h.Desc) + 2
		}
	}
	return n
}

// wordedBindings is keys with their help in the theme's language: a binding's
// help names its message ("session.key.play"), and a key's name that is a
// word rather than a key cap ("session.keyname.any") is worded too. Bars
// and pages are cached per language (barKey), so this runs once a bar.
func wordedBindings(t kit.Theme, keys []key.Binding) []key.Binding {
	out := make([]key.Binding, len(keys))
	for i, k := range keys {
		h := k.Help()
		name := h.Key
		if strings.HasPrefix(name, "session.") {
			name = t.L.T(name)
		}
		k.SetHelp(name, t.L.T(h.Desc))
		out[i] = k
	}
	return out
}

// wordedMap is km with its keys worded in the theme's language.
type wordedMap struct {
	short []key.Binding
	full  [][]key.Binding
}

func wordedKeys(t kit.Theme, km help.KeyMap) wordedMap {
	w := wordedMap{short: wordedBindings(t, km.ShortHelp())}
	for _, col := range km.FullHelp() {
		w.full = append(w.full, wordedBindings(t, col))
	}
	return w
}

func (w wordedMap) ShortHelp() []key.Binding  { return w.short }
func (w wordedMap) FullHelp() [][]key.Binding { return w.full }
