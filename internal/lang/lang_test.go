package lang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]Tag{
		"pl": Polish, "pl_PL.UTF-8": Polish, "pt_BR.UTF-8": Portuguese, "pt_PT": Portuguese,
		"pt-BR": Portuguese, "ru_RU.UTF-8": Russian, "ru_RU@euro": Russian, "en_GB.UTF-8": English,
		"EN": English, "polski": Polish, "Russian": Russian, "Русский": Russian, " português ": Portuguese,
	} {
		if got, ok := Parse(in); !ok || got != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "C", "POSIX", "C.UTF-8", "de_DE.UTF-8", "klingon"} {
		if got, ok := Parse(in); ok {
			t.Errorf("Parse(%q) = %q; want no language", in, got)
		}
	}
}

func TestFromEnv(t *testing.T) {
	for _, c := range []struct {
		env  []string
		want Tag
		ok   bool
	}{
		{[]string{"LANG=pl_PL.UTF-8"}, Polish, true},
		{[]string{"LANG=pl_PL.UTF-8", "LC_ALL=ru_RU.UTF-8"}, Russian, true},
		{[]string{"LANG=ru_RU.UTF-8", "LC_MESSAGES=pt_PT.UTF-8"}, Portuguese, true},
		{[]string{"LC_ALL=C", "LANG=pl_PL.UTF-8"}, "", false}, // LC_ALL decides
		{[]string{"LC_ALL=", "LANG=pl_PL.UTF-8"}, Polish, true},
		{[]string{"TERM=xterm", "LANG=de_DE.UTF-8"}, "", false},
		{[]string{"LANG=C.UTF-8", "LANG=pl_PL.UTF-8"}, Polish, true}, // SendEnv, then SetEnv
		{[]string{"LANG=pl_PL.UTF-8", "LANG="}, "", false},
		{nil, "", false},
	} {
		if got, ok := FromEnv(c.env); got != c.want || ok != c.ok {
			t.Errorf("FromEnv(%q) = %q, %v; want %q, %v", c.env, got, ok, c.want, c.ok)
		}
	}
}

// A stored choice beats the environment; English when neither names a
// language the game speaks.
func TestChoose(t *testing.T) {
	for _, c := range []struct {
		stored string
		env    []string
		want   Tag
	}{
		{"", nil, English},
		{"", []string{"LANG=ru_RU.UTF-8"}, Russian},
		{"pl", []string{"LANG=ru_RU.UTF-8"}, Polish},
		{"en", []string{"LC_ALL=pt_BR.UTF-8"}, English},
		{"xx", []string{"LANG=pt_PT.UTF-8"}, Portuguese},
		{"", []string{"LANG=de_DE.UTF-8"}, English},
	} {
		if got := Choose(c.stored, c.env); got != c.want {
			t.Errorf("Choose(%q, %q) = %q; want %q", c.stored, c.env, got, c.want)
		}
	}
}

// The plural forms of CLDR for 1, 2, 5, 21, 22 and 25.
func TestPlurals(t *testing.T) {
	for tag, want := range map[Tag][]string{
		English:    {"1 player", "2 players", "5 players", "21 players", "22 players", "25 players"},
		Polish:     {"1 gracz", "2 gracze", "5 graczy", "21 graczy", "22 gracze", "25 graczy"},
		Russian:    {"1 игрок", "2 игрока", "5 игроков", "21 игрок", "22 игрока", "25 игроков"},
		Portuguese: {"1 jogador", "2 jogadores", "5 jogadores", "21 jogadores", "22 jogadores", "25 jogadores"},
	} {
		for i, n := range []int{1, 2, 5, 21, 22, 25} {
			if got := For(tag).N("lang.players", n); got != want[i] {
				t.Errorf("%s: N(lang.players, %d) = %q; want %q", tag, n, got, want[i])
			}
		}
	}
}

// TestCountsKept: a plural worded with its count alone is kept once
// worded (N's counted); what it gives, the first time and after, is what
// the catalogue words with an argument beside the count, which is never
// kept, in every language and at every count, kept or not.
func TestCountsKept(t *testing.T) {
	for _, tag := range append(slices.Clone(Tags), Pseudo) {
		p := For(tag)
		for _, id := range []string{"lang.players", "lang.duration.ms", "no.such.message"} {
			for n := range maxCounted + 3 {
				want := p.N(id, n, "Unused", 0)
				for range 2 {
					if got := p.N(id, n); got != want {
						t.Fatalf("%s: N(%s, %d) = %q; worded with an argument beside, %q", tag, id, n, got, want)
					}
				}
			}
		}
	}
}

func TestDecimal(t *testing.T) {
	for tag, want := range map[Tag]string{English: "25.3", Portuguese: "25,3", Polish: "25,3", Russian: "25,3"} {
		if got := For(tag).Decimal(25.34, 1); got != want {
			t.Errorf("%s: Decimal(25.34, 1) = %q; want %q", tag, got, want)
		}
	}
}

func TestDuration(t *testing.T) {
	for tag, want := range map[Tag][]string{
		English:    {"0s", "800ms", "59s", "2m", "1m30s", "30m", "1h30m", "24h"},
		Portuguese: {"0 s", "800 ms", "59 s", "2 min", "1 min 30 s", "30 min", "1 h 30 min", "24 h"},
		Polish:     {"0 s", "800 ms", "59 s", "2 min", "1 min 30 s", "30 min", "1 godz. 30 min", "24 godz."},
		Russian:    {"0 с", "800 мс", "59 с", "2 мин", "1 мин 30 с", "30 мин", "1 ч 30 мин", "24 ч"},
	} {
		for i, d := range []time.Duration{0, 800 * time.Millisecond, 59 * time.Second, 2 * time.Minute, 90 * time.Second,
			30 * time.Minute, 90 * time.Minute, 24 * time.Hour} {
			if got := For(tag).Duration(d); got != want[i] {
				t.Errorf("%s: Duration(%s) = %q; want %q", tag, d, got, want[i])
			}
		}
	}
}

func TestOr(t *testing.T) {
	if got := For(Polish).Or("lang.name", "x"); got != "Polski" {
		t.Errorf("Or of a known message = %q; want Polski", got)
	}
	if got := For(Polish).Or("no.such.message", "Robot"); got != "Robot" {
		t.Errorf("Or of a missing message = %q; want the fallback", got)
	}
	var p *Printer
	if got := p.Or("lang.name", "x"); got != "English" || !p.Has("lang.name") || p.Has("no.such.message") {
		t.Errorf("a nil printer: Or = %q, Has as it should not", got)
	}
}

func TestFallback(t *testing.T) {
	if got := For("xx").T("lang.name"); got != "English" {
		t.Errorf("an unknown language words %q; want English", got)
	}
	var p *Printer
	if got := p.T("lang.name"); got != "English" {
		t.Errorf("a nil printer words %q; want English", got)
	}
	if got := For(Polish).T("no.such.message"); got != "no.such.message" {
		t.Errorf("a missing message words %q; want its ID", got)
	}
}

// TestMain registers every game's catalogue in the module (each
// session/GAME/locales, which its package registers in a binary), so the
// checks here read every message.
func TestMain(m *testing.M) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || !d.IsDir():
			return err
		case path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata"):
			return filepath.SkipDir
		case d.Name() != "locales":
			return nil
		}
		if abs, _ := filepath.Abs(path); abs == mustAbs("locales") {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, "en.toml")); err == nil {
			Register(os.DirFS(filepath.Dir(path)))
		}
		return filepath.SkipDir
	})
	if err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

func mustAbs(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		panic(err)
	}
	return abs
}

// catalogueFiles are the registered catalogues, the shared one first.
func catalogueFiles() []fs.FS {
	catalogues.Lock()
	defer catalogues.Unlock()
	return slices.Clone(catalogues.files)
}

// catalogue reads a language's files, locales/TAG.toml of every
// catalogue, into its messages: ID -> the forms it has ("other" for a
// message without plurals) -> text. A message given in two catalogues
// fails t.
func catalogue(t *testing.T, tag Tag) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	for _, fsys := range catalogueFiles() {
		for id, forms := range catalogueOf(t, fsys, tag) {
			if _, dup := out[id]; dup {
				t.Errorf("%s: %q is given in two catalogues", tag, id)
			}
			out[id] = forms
		}
	}
	return out
}

// catalogueOf reads one catalogue's file for tag.
func catalogueOf(t *testing.T, fsys fs.FS, tag Tag) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	file := "locales/" + string(tag) + ".toml"
	var raw map[string]any
	if _, err := toml.DecodeFS(fsys, file, &raw); err != nil {
		t.Fatal(err)
	}
	walkMessages("", raw, func(id string, forms map[string]string) {
		if _, dup := out[id]; dup {
			t.Errorf("%s: %q is given twice", file, id)
		}
		out[id] = forms
	})
	return out
}

// walkMessages calls fn for each message of a decoded catalogue, with its
// full ID.
func walkMessages(prefix string, m map[string]any, fn func(id string, forms map[string]string)) {
	for k, v := range m {
		id := strings.TrimPrefix(prefix+"."+k, ".")
		switch v := v.(type) {
		case string:
			fn(id, map[string]string{"other": v})
		case map[string]any:
			if _, plural := v["other"]; !plural {
				walkMessages(id, v, fn)
				continue
			}
			forms := map[string]string{}
			for f, s := range v {
				forms[f], _ = s.(string)
			}
			fn(id, forms)
		}
	}
}

// pluralForms are the CLDR cardinal forms each language's plurals must
// give (for integers).
var pluralForms = map[Tag][]string{
	English:    {"one", "other"},
	Portuguese: {"one", "many", "other"},
	Polish:     {"one", "few", "many", "other"},
	Russian:    {"one", "few", "many", "other"},
}

var argument = regexp.MustCompile(`{{\s*\.(\w+)\s*}}`)

func arguments(s string) []string {
	var names []string
	for _, m := range argument.FindAllStringSubmatch(s, -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// TestCatalogues is the key check: in each catalogue (the shared one and
// every game's), every language has exactly English's messages, each
// plural with its language's forms, each taking the same arguments.
func TestCatalogues(t *testing.T) {
	var want []string
	for _, tag := range Tags {
		want = append(want, "locales/"+string(tag)+".toml")
	}
	if len(catalogueFiles()) < 3 {
		t.Errorf("%d catalogues registered; want the shared one and each game's", len(catalogueFiles()))
	}
	for _, fsys := range catalogueFiles() {
		files, err := fs.Glob(fsys, "locales/*.toml")
		if err != nil {
			t.Fatal(err)
		}
		if slices.Sort(files); !slices.Equal(files, slices.Sorted(slices.Values(want))) {
			t.Errorf("a catalogue's locales/ holds %v; want one file per language: %v", files, want)
		}
		checkCatalogue(t, fsys)
	}
	catalogue(t, English) // no message in two catalogues
}

func checkCatalogue(t *testing.T, fsys fs.FS) {
	en := catalogueOf(t, fsys, English)
	for _, tag := range Tags[1:] {
		got := catalogueOf(t, fsys, tag)
		for _, id := range slices.Sorted(maps.Keys(en)) {
			forms, ok := got[id]
			if !ok {
				t.Errorf("%s lacks %q", tag, id)
				continue
			}
			_, enPlural := en[id]["one"]
			_, plural := forms["one"]
			if enPlural != plural {
				t.Errorf("%s: %q is plural in one language and not the other", tag, id)
			}
			if plural {
				for _, f := range pluralForms[tag] {
					if forms[f] == "" {
						t.Errorf("%s: %q lacks its %q form", tag, id, f)
					}
				}
			}
			want := arguments(strings.Join(slices.Collect(maps.Values(en[id])), " "))
			for f, s := range forms {
				if s == "" {
					t.Errorf("%s: %q.%s is empty", tag, id, f)
				}
				if args := arguments(s); !isSubset(args, want) {
					t.Errorf("%s: %q.%s takes %v; English takes %v", tag, id, f, args, want)
				}
			}
		}
		for id := range got {
			if _, ok := en[id]; !ok {
				t.Errorf("%s has %q, which English no longer has", tag, id)
			}
		}
	}
}

func isSubset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// TestCodeNamesOnlyKnownMessages reads every Go file of the module for
// literal message IDs (.T("id" and .N("id") and fails on one English
// does not have, on a plural message worded by T, which words its
// "other" form whatever the count, and on an argument N given to N,
// which the count overwrites.
func TestCodeNamesOnlyKnownMessages(t *testing.T) {
	en := catalogue(t, English)
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "T" && sel.Sel.Name != "N") {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			id, _ := strconv.Unquote(lit.Value)
			if !strings.Contains(id, ".") || strings.Contains(id, " ") {
				return true // not a message ID (t.T? a sentence)
			}
			forms, ok := en[id]
			if !ok && id != "no.such.message" {
				t.Errorf("%s: message %q is not in locales/en.toml", fset.Position(lit.Pos()), id)
			}
			if _, plural := forms["one"]; plural && sel.Sel.Name == "T" {
				t.Errorf("%s: plural message %q is worded by T, which takes no count: use N", fset.Position(lit.Pos()), id)
			}
			if sel.Sel.Name == "N" {
				// N sets .N to its count: an argument of that name is
				// lost, and the message says the count in its place.
				for i := 2; i < len(call.Args); i += 2 {
					if k, ok := call.Args[i].(*ast.BasicLit); ok && k.Value == `"N"` {
						t.Errorf("%s: N(%q) names an argument N, which its count overwrites: name the number another way", fset.Position(k.Pos()), id)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
