package layers

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The house's sizes: a function reads in one screen, and a lobby file in
// one sitting. Card tables are data written as code, and exempt.
const (
	maxFuncLines  = 80
	maxLobbyLines = 400
)

// cardTables are the functions that are card data, by file and name.
var cardTables = map[string]bool{"engine/factories/recipes.go:recipe": true}

// TestHouseSizes fails on a non-test function over maxFuncLines lines
// and on any lobby file, its tests included, over maxLobbyLines.
func TestHouseSizes(t *testing.T) {
	fset := token.NewFileSet()
	funcs := 0
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("../..", path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasPrefix(rel, "lobby/") {
			if n := bytes.Count(src, []byte("\n")); n > maxLobbyLines {
				t.Errorf("%s has %d lines: split it by concept (at most %d in lobby)", rel, n, maxLobbyLines)
			}
		}
		if strings.HasSuffix(rel, "_test.go") || bytes.Contains(src, []byte("Code generated")) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || cardTables[rel+":"+fn.Name.Name] {
				continue
			}
			funcs++
			if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > maxFuncLines {
				t.Errorf("%s: %s is %d lines (at most %d)", rel, fn.Name.Name, n, maxFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if funcs < 1000 {
		t.Fatalf("read only %d functions: the walk missed the module", funcs)
	}
}
