// Package lang is what a player reads, in the player's language: the
// languages offered, their message catalogues (the shared words in
// locales/, each game's in its own, which it registers; one file per
// language, English the source every other follows) and a Printer per
// language that words a message by its ID with CLDR plural rules.
//
// Code names a message by a literal ID ("lobby.title", or in the catalogue
// a table [lobby] with title = …) and passes its arguments as pairs:
//
//	p.T("lobby.seats", "Free", 2)           // "{{.Free}} seats free"
//	p.N("lobby.rounds", n)                  // one/few/many/other by n, {{.N}}
//
// A message missing from a language falls back to English; one missing
// from English words as its ID, and the catalogue's tests fail on both.
package lang

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Tag is a language the game speaks: "en", "pt", "pl" or "ru".
type Tag string

// The languages the game speaks; English is the default and the fallback.
const (
	English    Tag = "en"
	Portuguese Tag = "pt"
	Polish     Tag = "pl"
	Russian    Tag = "ru"
)

// Tags are the languages the game speaks, in the order a picker offers
// them.
var Tags = []Tag{English, Portuguese, Polish, Russian}

// Name is the language's name in itself, as a picker shows it.
func (t Tag) Name() string {
	switch t {
	case Portuguese:
		return "Português"
	case Polish:
		return "Polski"
	case Russian:
		return "Русский"
	case Pseudo:
		return Accent("Pseudo")
	}
	return "English"
}

// Parse reads a language as a player or a locale names it: a tag ("pl",
// "pt-BR"), a POSIX locale ("pl_PL.UTF-8", "ru_RU@euro") or the language's
// own or English name ("polski", "Russian"). ok is false for anything the
// game does not speak, including "C" and "POSIX".
func Parse(s string) (t Tag, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexAny(s, "_-"); i >= 0 {
		s = s[:i]
	}
	for _, t := range Tags {
		if s == string(t) || s == strings.ToLower(t.Name()) || s == strings.ToLower(englishNames[t]) {
			return t, true
		}
	}
	return "", false
}

var englishNames = map[Tag]string{English: "English", Portuguese: "Portuguese", Polish: "Polish", Russian: "Russian"}

// FromEnv is the language a client's environment asks for ("NAME=value"
// pairs, as an SSH session's Environ gives them), by POSIX precedence:
// LC_ALL, then LC_MESSAGES, then LANG. ok is false when none names a
// language the game speaks.
//
// A variable sent twice takes its last value, as setenv would: OpenSSH
// sends SendEnv's variables (LANG=C.UTF-8 from the client's own shell)
// before SetEnv's (ssh -o SetEnv=LANG=pl_PL.UTF-8), which the player
// meant.
func FromEnv(environ []string) (t Tag, ok bool) {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := ""
		for _, kv := range environ {
			if val, found := strings.CutPrefix(kv, name+"="); found {
				v = val
			}
		}
		if v != "" {
			// The first variable set decides, as it does for
			// programs: LC_ALL=C means C, whatever LANG says.
			return Parse(v)
		}
	}
	return "", false
}

// Choose is the language a player reads: the one their profile keeps
// (stored, a tag; "" for none), which beats the one their client's
// environment asks for (FromEnv), and English when neither names a
// language the game speaks.
func Choose(stored string, environ []string) Tag {
	if t, ok := Parse(stored); ok {
		return t
	}
	if t, ok := FromEnv(environ); ok {
		return t
	}
	return English
}

//go:embed locales/*.toml
var locales embed.FS

// catalogues are the message files the printers read: the shared ones
// here, then each game's, which the game's package registers (Register).
var catalogues = struct {
	sync.Mutex
	files  []fs.FS
	bundle *i18n.Bundle        // nil until a printer needs it, and again after Register
	plain  map[string][]string // the bundle's messages, plainNames
}{files: []fs.FS{locales}}

// Register adds a catalogue: fsys holds locales/TAG.toml, one file per
// language, as this package's own locales/ does. A game's package
// registers its words from its init, as image/png registers its format,
// so every binary that has the game speaks it. A message given twice is
// a catalogue's test failure.
func Register(fsys fs.FS) {
	catalogues.Lock()
	defer catalogues.Unlock()
	catalogues.files = append(catalogues.files, fsys)
	catalogues.bundle = nil
	printers.Clear() // their localizers read the bundle before this one
}

// bundle holds every catalogue, read once (and again after Register),
// and which of their messages are plain (plainNames).
func bundle() (*i18n.Bundle, map[string][]string, error) {
	catalogues.Lock()
	defer catalogues.Unlock()
	if catalogues.bundle != nil {
		return catalogues.bundle, catalogues.plain, nil
	}
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	plain := map[string][]string{}
	for _, fsys := range catalogues.files {
		files, err := fs.Glob(fsys, "locales/*.toml")
		if err != nil {
			return nil, nil, err
		}
		for _, name := range files {
			f, err := b.LoadMessageFileFS(fsys, name)
			if err != nil {
				return nil, nil, fmt.Errorf("lang: %s: %w", name, err)
			}
			plainNames(plain, f.Messages)
			if f.Tag == language.English {
				pseudo := pseudoMessages(f.Messages)
				if err := b.AddMessages(language.Make(string(Pseudo)), pseudo...); err != nil {
					return nil, nil, fmt.Errorf("lang: %s: %w", name, err)
				}
				plainNames(plain, pseudo)
			}
		}
	}
	catalogues.bundle, catalogues.plain = b, plain
	return b, plain, nil
}

// Printer words messages in one language. Printers are shared by every
// session speaking that language, and safe for concurrent use.
type Printer struct {
	tag Tag
	loc *i18n.Localizer
	num *message.Printer // numbers as the language writes them
	// plain caches the messages without arguments, which a screen asks
	// for on every frame, and whether the catalogue has them.
	plain sync.Map // id -> looked; piecesKey -> []string (plainT)
	// plainIDs are the catalogues' messages with the arguments they
	// name, nil for a message that is not plain (plainNames).
	plainIDs map[string][]string
	// counted caches the plural messages worded with a count alone
	// ("3 buildings"), which boards ask for on every update: a
	// template run a time was a tenth of a game frame. Counts from 0
	// to maxCounted only, so it holds at most that many per message.
	counted sync.Map // countKey -> string
}

// countKey is a plural message and its count, as counted keeps them.
type countKey struct {
	id string
	n  int
}

// maxCounted is the largest count counted keeps.
const maxCounted = 255

var printers sync.Map // Tag -> *Printer

// For returns the Printer of t; English for a language the game does not
// speak.
func For(t Tag) *Printer {
	if t != Pseudo {
		if parsed, ok := Parse(string(t)); ok {
			t = parsed
		} else {
			t = English
		}
	}
	if p, ok := printers.Load(t); ok {
		return p.(*Printer)
	}
	b, plain, err := bundle()
	if err != nil {
		// The catalogues are embedded and their tests parse them: a
		// broken one is a build that must not ship.
		panic(err)
	}
	p, _ := printers.LoadOrStore(t, &Printer{tag: t, loc: i18n.NewLocalizer(b, string(t), string(English)),
		num: message.NewPrinter(language.Make(string(t))), plainIDs: plain})
	return p.(*Printer)
}

// Tag is the printer's language.
func (p *Printer) Tag() Tag {
	if p == nil {
		return English
	}
	return p.tag
}

// T words message id with its arguments given as name, value pairs.
// A nil Printer words English.
func (p *Printer) T(id string, args ...any) string {
	if p == nil {
		return For(English).T(id, args...)
	}
	if len(args) == 0 {
		return p.lookup(id).text
	}
	if s, ok := p.plainT(id, args); ok {
		return s
	}
	d := data(args)
	defer release(d)
	return p.word(id, nil, d)
}

// Or words message id, which takes no arguments, or gives fallback when
// the catalogue lacks it: a card, a term or a game's word that a
// catalogue may not name reads as its data has it.
func (p *Printer) Or(id, fallback string) string {
	if p == nil {
		p = For(English)
	}
	if l := p.lookup(id); l.found {
		return l.text
	}
	return fallback
}

// Has reports whether id is in the catalogue (in English, or the
// printer's language).
func (p *Printer) Has(id string) bool {
	if p == nil {
		p = For(English)
	}
	return p.lookup(id).found
}

// looked is a message without arguments as the catalogue words it, and
// whether it has it (text is the ID when not).
type looked struct {
	text  string
	found bool
}

// lookup words id once and remembers it.
func (p *Printer) lookup(id string) looked {
	if l, ok := p.plain.Load(id); ok {
		return l.(looked)
	}
	s, err := p.loc.Localize(&i18n.LocalizeConfig{MessageID: id})
	l := looked{text: s, found: err == nil}
	if err != nil && s == "" {
		l.text = id
	}
	p.plain.Store(id, l)
	return l
}

// N words message id in the plural form n takes in the printer's language
// (CLDR: Polish and Russian have one, few, many and other). The message
// reads n as {{.N}}; further arguments come as name, value pairs.
func (p *Printer) N(id string, n int, args ...any) string {
	if p == nil {
		return For(English).N(id, n, args...)
	}
	if len(args) == 0 && n >= 0 && n <= maxCounted {
		k := countKey{id, n}
		if s, ok := p.counted.Load(k); ok {
			return s.(string)
		}
		s := p.n(id, n, nil)
		p.counted.Store(k, s)
		return s
	}
	return p.n(id, n, args)
}

// n is N, worded from the catalogue.
func (p *Printer) n(id string, n int, args []any) string {
	d := data(args)
	defer release(d)
	d["N"] = n
	if n == 0 && zeroTakesOther[p.tag] {
		return p.word(id, nil, d) // the other form
	}
	return p.word(id, n, d)
}

// zeroTakesOther are the languages whose speakers count none with the
// plural, where CLDR gives 0 the form of 1: Brazilian Portuguese writes
// "0 partidas", not "0 partida".
var zeroTakesOther = map[Tag]bool{Portuguese: true}

// Decimal writes x with places decimals as the printer's language writes
// numbers: 25.3 in English, 25,3 in Portuguese, Polish and Russian.
func (p *Printer) Decimal(x float64, places int) string {
	if p == nil {
		p = For(English)
	}
	return p.num.Sprintf("%.*f", places, x)
}

// Signed is Decimal with its sign, plus or minus: a change, +3.4 or
// -1,8.
func (p *Printer) Signed(x float64, places int) string {
	if p == nil {
		p = For(English)
	}
	return p.num.Sprintf("%+.*f", places, x)
}

// Duration writes d as the printer's language abbreviates its units,
// largest first, the zero ones left out: 1h30m and 800ms in English (as
// Go writes them), 1 h 30 min in Portuguese, 1 godz. 30 min in Polish,
// 1 ч 30 мин in Russian. Below a second it counts milliseconds, else
// whole seconds.
func (p *Printer) Duration(d time.Duration) string {
	if d > 0 && d < time.Second {
		return p.N("lang.duration.ms", int(d.Milliseconds()))
	}
	d = d.Round(time.Second)
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	out := ""
	for _, part := range []struct {
		n  int
		id string
	}{{h, "lang.duration.h"}, {m, "lang.duration.m"}, {s, "lang.duration.s"}} {
		if part.n == 0 {
			continue
		}
		w := p.N(part.id, part.n)
		if out != "" {
			w = p.T("lang.duration.join", "A", out, "B", w)
		}
		out = w
	}
	if out == "" {
		// Nothing left: a clock at zero reads "0s", not "0ms", whatever
		// unit its caller rounded to.
		out = p.N("lang.duration.s", 0)
	}
	return out
}

func (p *Printer) word(id string, count any, d map[string]any) string {
	s, err := p.loc.Localize(&i18n.LocalizeConfig{MessageID: id, PluralCount: count, TemplateData: d})
	if err != nil && s == "" {
		return id
	}
	return s
}

// dataMaps are template data for reuse: every message worded with
// arguments takes one, and its template reads it only while it runs.
var dataMaps = sync.Pool{New: func() any { return make(map[string]any, 4) }}

// data makes template data of name, value pairs; an odd one out is kept
// under "Arg" so a slip shows instead of vanishing. release gives it back
// once the message is worded.
func data(args []any) map[string]any {
	d := dataMaps.Get().(map[string]any)
	for i := 0; i+1 < len(args); i += 2 {
		name, ok := args[i].(string) // as every caller names them
		if !ok {
			name = fmt.Sprint(args[i])
		}
		d[name] = args[i+1]
	}
	if len(args)%2 == 1 {
		d["Arg"] = args[len(args)-1]
	}
	return d
}

func release(d map[string]any) {
	clear(d)
	dataMaps.Put(d)
}
