package layers

import (
	"fmt"
	"slices"
	"strings"
)

// Module is the import path every row of the table is relative to.
const Module = "github.com/smokestack/smokestack"

// GAME in a pattern stands for each registered game's name; "/..." at the
// end of a pattern matches every package below it (not the package).
const game = "GAME"

// Rule is one row: the packages matching Pkg may import (directly) the
// module packages matching any of May, and of the modules outside this
// one only those Libs names (a prefix of the import path; none: the
// standard library alone). Test files may also import the module
// packages matching TestMay: the real games, stores and helpers tests
// use, whatever their libraries. Nothing the package links, directly or
// not, may start with one of Unlinked: what its floor must never carry.
type Rule struct {
	Pkg      string
	May      []string
	TestMay  []string
	Libs     []string
	Unlinked []string
}

// The libraries outside the module, by what they are for: drawing a
// terminal's screens, and the stores' client libraries.
var (
	ui      = []string{"github.com/charmbracelet/", "github.com/muesli/termenv"}
	drivers = []string{"github.com/redis/go-redis/", "go.etcd.io/bbolt"}
)

// testKit is what any test above the engine may reach beyond its own row:
// real games to play, real stores, and the shared test helpers.
var testKit = []string{
	"cmd/games", "engine/GAME", "engine/GAME/...", "session/GAME", "internal/tally",
	"lobby/store/mem", "lobby/store/bolt", "lobby/store/redis", "lobby/store/storetest",
	"internal/redistest", "internal/waittest", "internal/movetest", "session/screentest", "lobby/room/roomtest",
}

// Table is the house, top to bottom: server -> session -> lobby ->
// store -> engine; each game's engine on the engine alone; each game's
// screens on the kit and their own engine.
var Table = []Rule{
	{Pkg: "cmd/...", May: []string{"*"}, Libs: []string{"*"}},
	// The registry wires each game's engine and screens for the commands,
	// at the top of the house where it is used.
	{Pkg: "cmd/games", May: []string{"engine", "engine/GAME", "engine/GAME/...", "session/kit", "session/GAME", "lobby"}, TestMay: []string{"lobby/store/mem"}},

	{Pkg: "server", May: []string{"server/cmd", "session", "session/line", "session/kit", "lobby", "lobby/players", "lobby/chat", "lobby/store", "engine", "hostkeys", "internal/ratelog", "internal/lang"}, TestMay: testKit,
		Libs: append([]string{"github.com/pires/go-proxyproto", "github.com/prometheus/client_golang/", "golang.org/x/crypto/ssh", "golang.org/x/time/rate"}, ui...), Unlinked: drivers},
	{Pkg: "server/cmd", May: []string{"session", "session/kit", "lobby", "lobby/players", "lobby/chat", "lobby/store", "engine", "internal/ratelog", "internal/lang"}, TestMay: testKit,
		Libs: []string{"github.com/agnivade/levenshtein"}, Unlinked: drivers},
	{Pkg: "session", May: []string{"session/kit", "lobby", "lobby/players", "lobby/chat", "lobby/store", "engine", "internal/lang"}, TestMay: testKit, Libs: ui, Unlinked: drivers},
	// The line mode speaks the lobby and the tables in sentences, worded
	// as the screens word them.
	{Pkg: "session/line", May: []string{"session", "session/kit", "lobby", "lobby/store", "engine", "internal/lang"}, TestMay: testKit, Libs: ui, Unlinked: drivers},
	// Golden screens for the tests of the screens, beside them.
	{Pkg: "session/screentest", May: []string{"session", "session/kit", "lobby", "engine", "engine/factories", "engine/factories/bot", "internal/lang"}, Libs: []string{"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/x/exp/"}},
	{Pkg: "session/kit", May: []string{"engine", "internal/lang"}, TestMay: testKit, Libs: ui, Unlinked: drivers},
	// A game's goldens draw its screens through the real session and lobby.
	{Pkg: "session/GAME", May: []string{"session/kit", "engine", "engine/GAME", "internal/lang"}, TestMay: append([]string{"session", "lobby"}, testKit...), Libs: ui, Unlinked: drivers},

	{Pkg: "lobby", May: []string{"lobby/room", "lobby/store", "lobby/players", "lobby/chat", "engine", "internal/openskill", "internal/ratelog"}, TestMay: testKit,
		Libs: []string{"golang.org/x/sync/singleflight", "golang.org/x/time/rate"}, Unlinked: append(drivers, ui...)},
	// A room is made from its env alone: it knows nothing of the Lobby
	// that wires it, nor of the services beside it.
	{Pkg: "lobby/room", May: []string{"lobby/store", "lobby/players", "lobby/chat", "engine"}, TestMay: testKit,
		Libs: []string{"golang.org/x/time/rate"}, Unlinked: append(drivers, ui...)},
	// The clock the tests of rooms and of the lobby move.
	{Pkg: "lobby/room/roomtest"},
	{Pkg: "lobby/players", May: []string{"lobby/store", "engine", "internal/openskill", "internal/ratelog"}, TestMay: testKit,
		Libs: []string{"golang.org/x/text/", "github.com/rivo/uniseg"}, Unlinked: append(drivers, ui...)},
	// lobby/chat's refusals carry engine.Words, for the reader's language.
	{Pkg: "lobby/chat", May: []string{"lobby/store", "engine", "internal/ratelog"}, TestMay: testKit, Libs: []string{"golang.org/x/time/rate"}, Unlinked: append(drivers, ui...)},
	{Pkg: "lobby/store", May: []string{"engine", "internal/openskill"}, TestMay: testKit, Libs: []string{"golang.org/x/text/"}, Unlinked: append(drivers, ui...)},
	{Pkg: "lobby/store/storetest", May: []string{"lobby/store", "engine", "internal/waittest"}, TestMay: testKit, Unlinked: append(drivers, ui...)},
	// Each driver links its own client library, and nothing of the UI.
	{Pkg: "lobby/store/mem", May: []string{"lobby/store", "engine"}, TestMay: testKit, Unlinked: append(drivers, ui...)},
	{Pkg: "lobby/store/bolt", May: []string{"lobby/store", "engine", "internal/batch"}, TestMay: testKit, Libs: []string{"go.etcd.io/bbolt"}, Unlinked: ui},
	{Pkg: "lobby/store/redis", May: []string{"lobby/store", "engine", "internal/batch", "internal/ratelog"}, TestMay: testKit, Libs: []string{"github.com/redis/go-redis/"}, Unlinked: ui},

	// The engine and the games' rules and bots: the standard library only.
	{Pkg: "engine", TestMay: []string{"internal/tally", "internal/movetest"}},
	{Pkg: "engine/GAME", May: []string{"engine"}, TestMay: []string{"internal/movetest", "engine/GAME/..."}},
	{Pkg: "engine/GAME/...", May: []string{"engine", "engine/GAME", "engine/GAME/..."}, TestMay: []string{"internal/movetest"}},

	{Pkg: "hostkeys", Libs: []string{"golang.org/x/crypto/ssh"}},
	{Pkg: "internal/layers", TestMay: []string{"cmd/games", "engine"}},
	{Pkg: "internal/openskill"},
	{Pkg: "internal/ratelog"},
	// The stores' group commit: generic, the standard library alone.
	{Pkg: "internal/batch"},
	// The catalogues: what every screen and command words, per language.
	{Pkg: "internal/lang", Libs: []string{"github.com/BurntSushi/toml", "github.com/nicksnyder/go-i18n/", "golang.org/x/text/"}},
	{Pkg: "internal/tally", May: []string{"engine"}, TestMay: []string{"internal/movetest"}},
	{Pkg: "internal/movetest", May: []string{"engine"}},
	{Pkg: "internal/waittest"},
	{Pkg: "internal/redistest", Libs: []string{"github.com/redis/go-redis/"}},
}

// Impure are the standard packages a game's rules and bots may not
// import: each reaches a clock, a file, the network, the process or a
// global random source, and a game must replay from its seed alone.
var Impure = []string{
	"crypto/rand", "io/ioutil", "log", "log/slog", "math/rand", "math/rand/v2",
	"net", "net/http", "os", "os/exec", "os/signal", "path/filepath", "plugin",
	"syscall", "time", "unsafe",
}

// Package is one package as the check sees it: its path relative to the
// module, its imports, its tests' imports and everything it links, full
// paths.
type Package struct {
	Path        string
	Imports     []string
	TestImports []string
	Deps        []string
}

// Unlinked are what a game's packages must never link, directly or not:
// the rooms, the generic screens over them, and the stores' drivers. A
// game's screens are drawn from session/kit.
var Unlinked = []string{Module + "/lobby", Module + "/session", "github.com/redis/go-redis/", "go.etcd.io/bbolt"}

// Check returns every import that breaks the table, every impure import
// in the engine, and every package the table has no row for, given the
// registered games' names.
func Check(pkgs []Package, games []string) []string {
	var bad []string
	for _, p := range pkgs {
		rule, ok := ruleFor(p.Path, games)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s has no row in the layers table: place it", p.Path))
			continue
		}
		bad = append(bad, checkImports(p.Path, p.Imports, rule.May, games, "imports")...)
		bad = append(bad, checkLibs(p.Path, p.Imports, rule.Libs)...)
		bad = append(bad, checkUnlinked(p, rule.Unlinked, "which its floor must never carry")...)
		testMay := append(slices.Clip(rule.May), rule.TestMay...)
		bad = append(bad, checkImports(p.Path, p.TestImports, testMay, games, "has a test importing")...)
		if ownGame(p.Path, games) != "" {
			bad = append(bad, checkUnlinked(p, Unlinked, "a game's packages stand on the engine and the kit")...)
		}
		if p.Path == "engine" || strings.HasPrefix(p.Path, "engine/") {
			for _, imp := range p.Imports {
				if slices.Contains(Impure, imp) {
					bad = append(bad, fmt.Sprintf("%s imports %s: the engine and the games stay pure", p.Path, imp))
				}
			}
		}
	}
	return bad
}

func checkImports(pkg string, imports, may, games []string, verb string) []string {
	var bad []string
	for _, imp := range imports {
		rel, ok := strings.CutPrefix(imp, Module+"/")
		if !ok || rel == pkg {
			continue
		}
		if !allowed(pkg, rel, may, games) {
			bad = append(bad, fmt.Sprintf("%s %s %s, which its row does not allow", pkg, verb, rel))
		}
	}
	return bad
}

// checkLibs returns each import from outside the module and the
// standard library that libs does not name.
func checkLibs(pkg string, imports, libs []string) []string {
	var bad []string
	for _, imp := range imports {
		if standard(imp) || strings.HasPrefix(imp, Module+"/") || slices.Contains(libs, "*") {
			continue
		}
		if !slices.ContainsFunc(libs, func(lib string) bool { return under(imp, lib) || strings.HasPrefix(imp, lib+"/") }) {
			bad = append(bad, fmt.Sprintf("%s imports %s, a library its row does not allow", pkg, imp))
		}
	}
	return bad
}

// checkUnlinked returns each part of never that p links, directly or not.
func checkUnlinked(p Package, never []string, why string) []string {
	var bad []string
	for _, part := range never {
		if slices.ContainsFunc(p.Deps, func(dep string) bool { return under(dep, part) }) {
			bad = append(bad, fmt.Sprintf("%s links %s: %s", p.Path, part, why))
		}
	}
	return bad
}

// under reports whether path is the package prefix names, or any below
// it when prefix ends in "/".
func under(path, prefix string) bool {
	if strings.HasSuffix(prefix, "/") {
		return strings.HasPrefix(path, prefix)
	}
	return path == prefix
}

// standard reports whether path is of the standard library: its first
// element has no dot.
func standard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// ruleFor finds the most specific row matching pkg: a longer pattern
// beats a shorter one, an exact one beats one ending in "/...".
func ruleFor(pkg string, games []string) (Rule, bool) {
	best, bestScore := Rule{}, -1
	for _, r := range Table {
		for _, g := range gameNames(r.Pkg, games) {
			if !match(expand(r.Pkg, g), pkg) {
				continue
			}
			score := 2 * len(r.Pkg)
			if !strings.HasSuffix(r.Pkg, "/...") {
				score++
			}
			if score > bestScore {
				best, bestScore = r, score
			}
		}
	}
	return best, bestScore >= 0
}

// allowed reports whether pkg may import imp under may. Within a game's
// own packages GAME means that game: one game never imports another's.
func allowed(pkg, imp string, may, games []string) bool {
	own := ownGame(pkg, games)
	for _, m := range may {
		if m == "*" {
			return true
		}
		names := gameNames(m, games)
		if own != "" && strings.Contains(m, game) {
			names = []string{own}
		}
		for _, g := range names {
			if match(expand(m, g), imp) {
				return true
			}
		}
	}
	return false
}

// ownGame is the game pkg belongs to, or "" for a package of no game.
func ownGame(pkg string, games []string) string {
	for _, g := range games {
		if pkg == "engine/"+g || strings.HasPrefix(pkg, "engine/"+g+"/") || pkg == "session/"+g {
			return g
		}
	}
	return ""
}

func gameNames(pattern string, games []string) []string {
	if strings.Contains(pattern, game) {
		return games
	}
	return []string{""}
}

func expand(pattern, g string) string { return strings.ReplaceAll(pattern, game, g) }

func match(pattern, pkg string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return strings.HasPrefix(pkg, base+"/")
	}
	return pattern == pkg
}
