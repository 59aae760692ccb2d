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
// module packages matching any of May. Test files may also import those
// matching TestMay: the real games, stores and helpers tests use.
type Rule struct {
	Pkg     string
	May     []string
	TestMay []string
}

// testKit is what any test above the engine may reach beyond its own row:
// real games to play, real stores, and the shared test helpers.
var testKit = []string{
	"internal/games", "engine/GAME", "engine/GAME/...", "session/GAME", "internal/tally",
	"lobby/store/mem", "lobby/store/bolt", "lobby/store/redis", "lobby/store/storetest",
	"internal/redistest", "internal/waittest", "internal/movetest", "internal/screentest",
}

// Table is the house, top to bottom: server -> session -> lobby ->
// store -> engine; each game's engine on the engine alone; each game's
// screens on the kit and their own engine.
var Table = []Rule{
	{Pkg: "cmd/...", May: []string{"*"}},
	{Pkg: "internal/games", May: []string{"engine", "engine/GAME", "engine/GAME/...", "session/kit", "session/GAME", "lobby"}, TestMay: []string{"lobby/store/mem"}},

	{Pkg: "server", May: []string{"server/cmd", "session", "session/kit", "lobby", "lobby/players", "lobby/chat", "lobby/store", "engine", "hostkeys", "internal/ratelog", "internal/lang"}, TestMay: testKit},
	{Pkg: "server/cmd", May: []string{"session", "session/kit", "lobby", "lobby/players", "lobby/chat", "lobby/store", "engine", "internal/ratelog", "internal/lang"}, TestMay: testKit},
	{Pkg: "session", May: []string{"session/kit", "lobby", "lobby/players", "lobby/chat", "lobby/store", "engine", "internal/lang"}, TestMay: testKit},
	{Pkg: "session/kit", May: []string{"engine", "internal/lang"}, TestMay: testKit},
	// A game's goldens draw its screens through the real session and lobby.
	{Pkg: "session/GAME", May: []string{"session/kit", "engine", "engine/GAME", "internal/lang"}, TestMay: append([]string{"session", "lobby"}, testKit...)},

	{Pkg: "lobby", May: []string{"lobby/store", "lobby/players", "lobby/chat", "engine", "internal/openskill", "internal/ratelog"}, TestMay: testKit},
	{Pkg: "lobby/players", May: []string{"lobby/store", "engine", "internal/openskill", "internal/ratelog"}, TestMay: testKit},
	// lobby/chat's refusals carry engine.Words, for the reader's language.
	{Pkg: "lobby/chat", May: []string{"lobby/store", "engine", "internal/ratelog"}, TestMay: testKit},
	{Pkg: "lobby/store", May: []string{"engine", "internal/openskill"}, TestMay: testKit},
	{Pkg: "lobby/store/storetest", May: []string{"lobby/store", "engine", "internal/waittest"}, TestMay: testKit},
	{Pkg: "lobby/store/mem", May: []string{"lobby/store", "engine"}, TestMay: testKit},
	{Pkg: "lobby/store/bolt", May: []string{"lobby/store", "engine"}, TestMay: testKit},
	{Pkg: "lobby/store/redis", May: []string{"lobby/store", "engine", "internal/ratelog"}, TestMay: testKit},

	{Pkg: "engine", TestMay: []string{"internal/tally", "internal/movetest"}},
	{Pkg: "engine/GAME", May: []string{"engine"}, TestMay: []string{"internal/movetest", "engine/GAME/..."}},
	{Pkg: "engine/GAME/...", May: []string{"engine", "engine/GAME", "engine/GAME/..."}, TestMay: []string{"internal/movetest"}},

	{Pkg: "hostkeys"},
	{Pkg: "internal/layers", TestMay: []string{"internal/games", "engine"}},
	{Pkg: "internal/openskill"},
	{Pkg: "internal/ratelog"},
	// The catalogues: what every screen and command words, per language.
	{Pkg: "internal/lang"},
	{Pkg: "internal/tally", May: []string{"engine"}, TestMay: []string{"internal/movetest"}},
	{Pkg: "internal/movetest", May: []string{"engine"}},
	{Pkg: "internal/waittest"},
	{Pkg: "internal/redistest"},
	{Pkg: "internal/screentest", May: []string{"session", "session/kit", "lobby", "engine"}},
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
		testMay := append(slices.Clip(rule.May), rule.TestMay...)
		bad = append(bad, checkImports(p.Path, p.TestImports, testMay, games, "has a test importing")...)
		if ownGame(p.Path, games) != "" {
			bad = append(bad, checkLinks(p)...)
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

func checkLinks(p Package) []string {
	var bad []string
	for _, part := range Unlinked {
		if slices.ContainsFunc(p.Deps, func(dep string) bool {
			return dep == part || strings.HasSuffix(part, "/") && strings.HasPrefix(dep, part)
		}) {
			bad = append(bad, fmt.Sprintf("%s links %s: a game's packages stand on the engine and the kit", p.Path, part))
		}
	}
	return bad
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
