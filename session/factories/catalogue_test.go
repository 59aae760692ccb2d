package factories

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestCodeNamesKnownMessages reads the game's engine and screens for the
// message IDs they name ("factories.…" literals, and the refusals'
// refuse("id", …)): each is in the English catalogue, or is the start of
// IDs made from it (a card's, a term's, a refusal's variant).
func TestCodeNamesKnownMessages(t *testing.T) {
	en := lang.For(lang.English)
	known := func(id string) bool {
		if en.Has(id) {
			return true
		}
		// A prefix the code completes: "factories.card.", "…refuse.undo_".
		return strings.HasSuffix(id, ".") || strings.HasSuffix(id, "_")
	}
	n := 0
	for _, dir := range []string{".", filepath.Join("..", "..", "engine", "factories")} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(node ast.Node) bool {
				if call, ok := node.(*ast.CallExpr); ok {
					if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "refuse" && len(call.Args) > 0 {
						if lit, ok := call.Args[0].(*ast.BasicLit); ok {
							s, _ := strconv.Unquote(lit.Value)
							n++
							if !known("factories.refuse." + s) {
								t.Errorf("%s: refusal %q is not in the catalogue", path, s)
							}
						}
					}
				}
				lit, ok := node.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(lit.Value)
				if strings.HasPrefix(s, "factories.") && !strings.Contains(s, " ") {
					n++
					if !known(s) {
						t.Errorf("%s: message %q is not in the catalogue", path, s)
					}
				}
				return true
			})
		}
	}
	if n < 100 {
		t.Errorf("only %d message IDs found in the code", n)
	}
}

// TestCardsAsPrinted: the English catalogue words every card and its text
// as cards.json prints them, and every language names every card and
// words its text.
func TestCardsAsPrinted(t *testing.T) {
	var data struct {
		Blueprints, Contractors []struct{ Name, Text string }
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "engine", "factories", "cards.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	en := kit.Theme{L: lang.For(lang.English)}
	for _, c := range append(data.Blueprints, data.Contractors...) {
		if got := cardName(en, c.Name); got != c.Name {
			t.Errorf("English names %q %q", c.Name, got)
		}
		if got := cardText(en, c.Name, ""); got != c.Text {
			t.Errorf("English words %s as %q; cards.json prints %q", c.Name, got, c.Text)
		}
		for _, tag := range lang.Tags[1:] {
			th := kit.Theme{L: lang.For(tag)}
			if cardText(th, c.Name, "") == c.Text {
				t.Errorf("%s: %s's text is in English", tag, c.Name)
			}
		}
	}
}

var number = regexp.MustCompile(`\d+`)

// numbers are the numbers a text states, in order of size: die faces,
// costs, limits.
func numbers(s string) []string {
	n := number.FindAllString(s, -1)
	slices.SortFunc(n, func(a, b string) int {
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return x - y
	})
	return n
}

// TestRulesStateTheSameNumbers holds every language's rules pages, board
// rules and card texts to English's numbers: each states the same die
// faces, costs, limits and counts, so none can drift from the rules the
// engine plays.
func TestRulesStateTheSameNumbers(t *testing.T) {
	var ids []string
	for _, p := range rulesPages {
		ids = append(ids, p.Title, p.Text)
	}
	for key := range boardRules {
		ids = append(ids, "factories.rule."+key+".name", "factories.rule."+key+".text")
	}
	var data struct{ Blueprints, Contractors []struct{ Name string } }
	raw, _ := os.ReadFile(filepath.Join("..", "..", "engine", "factories", "cards.json"))
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	for _, c := range append(data.Blueprints, data.Contractors...) {
		ids = append(ids, "factories.text."+c.Name)
	}
	en := lang.For(lang.English)
	for _, tag := range lang.Tags[1:] {
		p := lang.For(tag)
		for _, id := range ids {
			if want, got := numbers(en.T(id)), numbers(p.T(id)); !slices.Equal(want, got) {
				t.Errorf("%s: %s states %v; English states %v", tag, id, got, want)
			}
		}
	}
}

// TestGoodsPlurals: the board counts goods by CLDR's forms, Polish and
// Russian with their three.
func TestGoodsPlurals(t *testing.T) {
	for tag, want := range map[lang.Tag][]string{
		lang.English:    {"1 good", "2 goods", "5 goods", "21 goods", "22 goods", "25 goods"},
		lang.Portuguese: {"1 produto", "2 produtos", "5 produtos", "21 produtos", "22 produtos", "25 produtos"},
		lang.Polish:     {"1 Towar", "2 Towary", "5 Towarów", "21 Towarów", "22 Towary", "25 Towarów"},
		lang.Russian:    {"1 товар", "2 товара", "5 товаров", "21 товар", "22 товара", "25 товаров"},
	} {
		for i, n := range []int{1, 2, 5, 21, 22, 25} {
			if got := lang.For(tag).N("factories.gain.goods", n); got != want[i] {
				t.Errorf("%s: %d goods words %q; want %q", tag, n, got, want[i])
			}
		}
	}
}
