package layers

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/smokestack/smokestack"

// generic are the packages that must not know any game.
var generic = []string{"lobby", "server", "server/cmd", "session", "session/kit", "engine", "hostkeys"}

// kits are the shared packages that sit under a folder of games: what
// every game's screens are made of.
var kits = map[string]bool{"session/kit": true}

// isGame reports whether pkg belongs to one game: its rules, its bots or
// its screens.
func isGame(pkg string) bool {
	rel, ok := strings.CutPrefix(pkg, module+"/")
	if !ok {
		return false
	}
	parts := strings.Split(rel, "/")
	if kits[strings.Join(parts[:min(len(parts), 2)], "/")] {
		return false
	}
	return len(parts) >= 2 && (parts[0] == "engine" || parts[0] == "session")
}

// TestSharedLayersKnowNoGame walks every import, direct or not, of the
// generic packages (not their tests, which may play a real game) and fails
// on any game package.
func TestSharedLayersKnowNoGame(t *testing.T) {
	imports := moduleImports(t)
	for _, pkg := range generic {
		seen := map[string]bool{}
		var walk func(p string, via []string)
		walk = func(p string, via []string) {
			if seen[p] || !strings.HasPrefix(p, module) {
				return
			}
			seen[p] = true
			if isGame(p) {
				t.Errorf("%s imports the game package %s (via %s)", pkg, p, strings.Join(via, " -> "))
				return
			}
			for _, imp := range imports[p] {
				walk(imp, append(via, p))
			}
		}
		walk(module+"/"+pkg, nil)
	}
}

// moduleImports lists the imports (not the tests' imports) of every
// package of the module, from one go list: go/build's Import runs go list
// once a package.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"/...")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		imports[fields[0]] = fields[1:]
	}
	for _, pkg := range generic {
		if _, ok := imports[module+"/"+pkg]; !ok {
			t.Fatalf("go list did not list %s", pkg)
		}
	}
	return imports
}

// TestIsGame pins what counts as a game package, so the test above cannot
// pass by recognising nothing.
func TestIsGame(t *testing.T) {
	for pkg, want := range map[string]bool{
		module + "/engine/factories":     true,
		module + "/engine/factories/bot": true,
		module + "/engine/furnace":       true,
		module + "/session/factories":    true,
		module + "/engine":               false,
		module + "/session":              false,
		module + "/session/kit":          false,
		module + "/lobby":                false,
		"github.com/redis/go-redis/v9":   false,
	} {
		if isGame(pkg) != want {
			t.Errorf("isGame(%s) = %v", pkg, !want)
		}
	}
}

// storeParts are what a game's packages must never link: the rooms and
// the stores' drivers. A game's screens are drawn from session/kit, not
// from session, which imports the lobby.
var storeParts = []string{module + "/lobby", module + "/session", "github.com/redis/go-redis/", "go.etcd.io/bbolt"}

// TestGamesLinkNoLobby checks every game package's dependencies, direct
// or not, for the lobby, the generic screens and the store drivers.
func TestGamesLinkNoLobby(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", module+"/...")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	games := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if !isGame(fields[0]) {
			continue
		}
		games++
		for _, part := range storeParts {
			if slices.ContainsFunc(fields[1:], func(dep string) bool {
				return dep == part || strings.HasSuffix(part, "/") && strings.HasPrefix(dep, part)
			}) {
				t.Errorf("%s links %s", fields[0], part)
			}
		}
	}
	if games == 0 {
		t.Fatal("go list listed no game package")
	}
}
