package layers

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/engine"
)

// registered are the games' names from the registry: a game's packages
// are engine/NAME (and below it) and session/NAME.
var registered = games.Names(games.All())

// TestEveryGameHasItsFolders keeps a game from escaping the table by
// living in packages its name does not give.
func TestEveryGameHasItsFolders(t *testing.T) {
	pkgs := modulePackages(t)
	for _, g := range registered {
		if !slices.ContainsFunc(pkgs, func(p Package) bool { return p.Path == "engine/"+g }) {
			t.Errorf("the game %q has no package engine/%s", g, g)
		}
	}
}

// withOptions is a game's rules offering other options.
type withOptions struct {
	engine.Ruleset
	options []engine.Option
}

func (r withOptions) Options() []engine.Option { return r.options }

// TestNoOptionShadowsAFlag holds the registry to refusing, at start-up,
// a game option named like one of new's or simulate's own flags, and
// plants one named clock to see it refused.
func TestNoOptionShadowsAFlag(t *testing.T) {
	all := games.All()
	if err := games.Check(all); err != nil {
		t.Fatal(err)
	}
	planted := slices.Clone(all)
	g := planted[len(planted)-1]
	g.Rules = withOptions{g.Rules, append(g.Rules.Options(), engine.Option{Name: "clock", Choices: []string{"on", "off"}})}
	planted[len(planted)-1] = g
	err := games.Check(planted)
	if err == nil || !strings.Contains(err.Error(), `"clock"`) {
		t.Errorf("an option named clock: Check = %v, want it refused by name", err)
	}
}

// TestHouseKeepsItsLayers holds every package of the module, and its
// tests, to the table.
func TestHouseKeepsItsLayers(t *testing.T) {
	for _, bad := range Check(modulePackages(t), registered) {
		t.Error(bad)
	}
}

// TestCheckCatchesPlants plants one wrong edge at a time into the real
// graph and wants each caught, so the test above cannot pass by
// recognising nothing.
func TestCheckCatchesPlants(t *testing.T) {
	real := modulePackages(t)
	plants := []struct {
		name, pkg, imp string
		test           bool
		want           string
	}{
		{"lobby reaches up to session", "lobby", Module + "/session", false, "lobby imports session"},
		{"a game's rules reach the lobby", "engine/furnace", Module + "/lobby", false, "engine/furnace imports lobby"},
		{"one game reads another", "engine/furnace/bot", Module + "/engine/factories", false, "engine/furnace/bot imports engine/factories"},
		{"a game's screens link the lobby", "session/furnace", Module + "/session", false, "session/furnace imports session"},
		{"the kit links the lobby", "session/kit", Module + "/lobby", false, "session/kit imports lobby"},
		{"a game's rules read the clock", "engine/factories", "time", false, "engine/factories imports time"},
		{"a bot rolls a global die", "engine/furnace/bot", "math/rand/v2", false, "engine/furnace/bot imports math/rand/v2"},
		{"the store knows the lobby", "lobby/store", Module + "/lobby", false, "lobby/store imports lobby"},
		{"a room reaches back to the lobby", "lobby/room", Module + "/lobby", false, "lobby/room imports lobby"},
		{"a lobby test reaches the server", "lobby", Module + "/server", true, "lobby has a test importing server"},
		{"a new package nobody placed", "lobby/extra", "fmt", false, "lobby/extra has no row"},
		{"a game's screens link a driver", "session/factories", "github.com/redis/go-redis/v9", false, "session/factories links github.com/redis/go-redis/"},
		{"the store draws screens", "lobby/store", "github.com/charmbracelet/bubbletea", false, "lobby/store imports github.com/charmbracelet/bubbletea"},
		{"a driver draws screens", "lobby/store/redis", "github.com/charmbracelet/lipgloss", false, "lobby/store/redis imports github.com/charmbracelet/lipgloss"},
		{"a driver links another's client", "lobby/store/bolt", "github.com/redis/go-redis/v9", false, "lobby/store/bolt imports github.com/redis/go-redis/v9"},
		{"the engine takes a library", "engine", "golang.org/x/exp/rand", false, "engine imports golang.org/x/exp/rand"},
		{"a game's bots take a library", "engine/factories/bot", "gonum.org/v1/gonum/stat", false, "engine/factories/bot imports gonum.org/v1/gonum/stat"},
		{"the screens link a driver", "session", "go.etcd.io/bbolt", false, "session links go.etcd.io/bbolt"},
		{"the lobby links the UI", "lobby", "github.com/muesli/termenv", false, "lobby links github.com/muesli/termenv"},
	}
	for _, p := range plants {
		t.Run(p.name, func(t *testing.T) {
			pkgs := slices.Clone(real)
			i := slices.IndexFunc(pkgs, func(q Package) bool { return q.Path == p.pkg })
			if i < 0 {
				pkgs = append(pkgs, Package{Path: p.pkg})
				i = len(pkgs) - 1
			}
			q := pkgs[i]
			if p.test {
				q.TestImports = append(slices.Clone(q.TestImports), p.imp)
			} else {
				q.Imports = append(slices.Clone(q.Imports), p.imp)
				q.Deps = append(slices.Clone(q.Deps), p.imp)
			}
			pkgs[i] = q
			bad := Check(pkgs, registered)
			if !slices.ContainsFunc(bad, func(s string) bool { return strings.HasPrefix(s, p.want) }) {
				t.Errorf("planted %s -> %s, want a finding starting %q, got %q", p.pkg, p.imp, p.want, bad)
			}
		})
	}
}

// TestRowsMatchTheirPackages pins how rows are chosen: the most specific
// one wins, and GAME is each game in turn.
func TestRowsMatchTheirPackages(t *testing.T) {
	for pkg, want := range map[string]string{
		"engine":             "engine",
		"engine/furnace":     "engine/GAME",
		"engine/furnace/bot": "engine/GAME/...",
		"session/factories":  "session/GAME",
		"session/kit":        "session/kit",
		"lobby/store/redis":  "lobby/store/redis",
		"cmd/smokestack":     "cmd/...",
	} {
		r, ok := ruleFor(pkg, registered)
		if !ok || r.Pkg != want {
			t.Errorf("row for %s = %q (found %v), want %q", pkg, r.Pkg, ok, want)
		}
	}
}

// modulePackages lists every package of the module with its imports and
// its tests' imports, from one go list.
func modulePackages(t *testing.T) []Package {
	t.Helper()
	cmd := exec.Command("go", "list", "-f",
		`{{.ImportPath}}|{{join .Imports " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}|{{join .Deps " "}}`, Module+"/...")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []Package
	for line := range strings.Lines(string(out)) {
		f := strings.Split(strings.TrimSpace(line), "|")
		rel, ok := strings.CutPrefix(f[0], Module+"/")
		if !ok {
			continue // the module's root has no package
		}
		pkgs = append(pkgs, Package{Path: rel, Imports: strings.Fields(f[1]), TestImports: strings.Fields(f[2]), Deps: strings.Fields(f[3])})
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}
