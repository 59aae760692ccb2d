package lang

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// Most messages with arguments are plain: their text only puts each
// argument in its place ({{.Name}}), in every catalogue. go-i18n runs a
// text/template for them at every wording, with a map of the arguments:
// a few microseconds and nine allocations for "♥ bob: took Foundry", at
// every new log line of every screen. T words a plain message once per
// printer with a marker for each argument and then fills the markers
// with the arguments' values, as the template would print them (a string
// as it is, an int in decimal); anything else goes to the template.

// action is a plain template action: an argument put in its place.
var action = regexp.MustCompile(`{{\s*\.(\w+)\s*}}`)

// plainNames records, for every message of msgs, the arguments its forms
// name if they are plain, or nil if any form is not: a message is plain
// only if it is in every catalogue that has it.
func plainNames(into map[string][]string, msgs []*i18n.Message) {
	for _, m := range msgs {
		names, seen := into[m.ID]
		if seen && names == nil {
			continue // not plain in another catalogue
		}
		plain := true
		for _, form := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
			if strings.Contains(action.ReplaceAllString(form, ""), "{{") {
				plain = false
				break
			}
			for _, sub := range action.FindAllStringSubmatch(form, -1) {
				if !slices.Contains(names, sub[1]) {
					names = append(names, sub[1])
				}
			}
		}
		if !plain {
			into[m.ID] = nil
			continue
		}
		if names == nil {
			names = []string{} // plain, with no arguments
		}
		into[m.ID] = names
	}
}

// marker brackets an argument's name where a plain message is worded to
// find its pieces: a control character no catalogue holds.
const marker = "\x1f"

// plainT is T for a plain message whose arguments are all strings or
// ints, and false for anything else.
func (p *Printer) plainT(id string, args []any) (string, bool) {
	names, ok := p.plainIDs[id]
	if !ok || names == nil || len(args)%2 == 1 {
		return "", false
	}
	pieces := p.pieces(id, names)
	if pieces == nil {
		return "", false
	}
	n := 0
	for i := 0; i < len(pieces); i += 2 {
		n += len(pieces[i])
	}
	var vals [8]string
	if len(pieces)/2 > len(vals) {
		return "", false
	}
	for i := 1; i < len(pieces); i += 2 {
		v, ok := argValue(args, pieces[i])
		if !ok {
			return "", false // unset, or a value the template prints its own way
		}
		vals[i/2] = v
		n += len(v)
	}
	var b strings.Builder
	b.Grow(n)
	for i, piece := range pieces {
		if i%2 == 0 {
			b.WriteString(piece)
		} else {
			b.WriteString(vals[i/2])
		}
	}
	return b.String(), true
}

// argValue is the value named name among args (name, value pairs) as
// text/template prints it, if it is a string or an int.
func argValue(args []any, name string) (string, bool) {
	for i := 0; i+1 < len(args); i += 2 {
		if n, ok := args[i].(string); !ok || n != name {
			continue
		}
		switch v := args[i+1].(type) {
		case string:
			return v, true
		case int:
			return strconv.Itoa(v), true
		}
		return "", false
	}
	return "", false
}

// pieces are id's text and its arguments' names, alternately ("", Who,
// ": ", What, ""), worded once; nil when they cannot be told apart.
func (p *Printer) pieces(id string, names []string) []string {
	if v, ok := p.plain.Load(piecesKey(id)); ok {
		return v.([]string)
	}
	d := make(map[string]any, len(names))
	for _, n := range names {
		d[n] = marker + n + marker
	}
	pieces := strings.Split(p.word(id, nil, d), marker)
	for i := 1; i < len(pieces); i += 2 {
		if !slices.Contains(names, pieces[i]) {
			pieces = nil
			break
		}
	}
	if len(pieces)%2 == 0 {
		pieces = nil
	}
	p.plain.Store(piecesKey(id), pieces)
	return pieces
}

// piecesKey keeps a message's pieces in Printer.plain beside its plain
// wording without arguments, under a key no message ID is.
type piecesKey string
