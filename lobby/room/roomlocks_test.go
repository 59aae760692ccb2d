package room

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRoomLocksLiveInTypes holds the package to roomlocks.go: a room's
// locks are taken, and its lock types made, in that file alone; its
// guarded memory is reached only through a held, a changing or (for what
// changes only with both locks, read) a writer; and the store's writes
// of a game are called from a writer's methods alone. A new method that
// reads a room's metadata without a lock, or appends a move without the
// writer, fails here, not in a race found in production. (That the room
// reaches nothing of the lobby is the layering table's to hold: package
// room may not import it.)
func TestRoomLocksLiveInTypes(t *testing.T) {
	for _, bad := range roomLockFindings(t, nil) {
		t.Error(bad)
	}
}

// TestRoomLockCheckCatchesPlants plants each kind of breach in a copy of
// the package and wants each found, so the test above cannot pass by
// finding nothing.
func TestRoomLockCheckCatchesPlants(t *testing.T) {
	for _, p := range []struct{ name, src, want string }{
		{"a read without the lock", "func (r *Room) planted() bool { return r.meta.Over }", "planted reads room.meta through *Room"},
		{"the memory locked by hand", "func (r *Room) planted() { r.mu.Lock(); r.mu.Unlock() }", "planted takes room.mu"},
		{"the writes locked by hand", "func (r *Room) planted() { r.writing.Lock() }", "planted takes room.writing"},
		{"a lock type forged", "func (r *Room) planted() held { return held{r} }", "planted makes a held"},
		{"a write without the writer", "func (r held) planted() { _ = r.env.Writes.SaveMeta(nil, r.meta) }", "planted reaches Env.writes"},
		{"a writer changing the metadata", "func (r writer) planted() { r.meta.Over = true }", "planted changes room.meta through writer"},
	} {
		t.Run(p.name, func(t *testing.T) {
			got := roomLockFindings(t, []string{"package room\n\n" + p.src + "\n"})
			if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, p.want) }) {
				t.Errorf("planted %q: want a finding with %q, got %q", p.src, p.want, got)
			}
		})
	}
}

// lockedFields are the room's fields its memory's lock guards; of them,
// writerReads change only with both locks held, so a writer reads them.
var (
	lockedFields = []string{"meta", "table", "log", "clock", "seen", "timer", "conns", "notice",
		"chat", "chatAsked", "chatTaken", "outcome", "recording", "recorded"}
	writerReads = []string{"meta", "table", "log", "clock"}
)

// lockCheck is one importer for every check, which type-checks the
// package's imports from source once.
var lockCheck = func() (c struct {
	fset *token.FileSet
	imp  types.Importer
}) {
	c.fset = token.NewFileSet()
	c.imp = importer.ForCompiler(c.fset, "source", nil)
	return c
}()

// roomLockFindings type-checks the package's own files, with extra
// sources added, and returns every breach of roomlocks.go's rules.
func roomLockFindings(t *testing.T, extra []string) []string {
	t.Helper()
	fset, imp := lockCheck.fset, lockCheck.imp
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, f := range pkgs["room"].Files {
		files = append(files, f)
	}
	for i, src := range extra {
		f, err := parser.ParseFile(fset, "planted"+string(rune('a'+i))+".go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}, Types: map[ast.Expr]types.TypeAndValue{},
		Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: imp}).Check("room", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	named := func(name string) types.Type { return pkg.Scope().Lookup(name).Type() }
	fieldOf := func(typ, field string) types.Object {
		obj, _, _ := types.LookupFieldOrMethod(named(typ), true, pkg, field)
		return obj
	}
	roomFields := map[types.Object]string{}
	for _, f := range lockedFields {
		roomFields[fieldOf("Room", f)] = f
	}
	locks := map[types.Object]string{fieldOf("Room", "mu"): "mu", fieldOf("Room", "writing"): "writing"}
	writes := fieldOf("Env", "Writes")
	lockTypes := map[types.Type]string{named("held"): "held", named("writer"): "writer", named("changing"): "changing"}

	var bad []string
	for _, f := range files {
		file := fset.Position(f.Pos()).Filename
		home := strings.HasSuffix(file, "roomlocks.go")
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			recv := ""
			if fn.Recv != nil {
				recv = types.TypeString(info.Types[fn.Recv.List[0].Type].Type, types.RelativeTo(pkg))
			}
			assigned := map[ast.Expr]bool{}
			ast.Inspect(fn, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					for _, lhs := range n.Lhs {
						changed(lhs, assigned)
					}
				case *ast.IncDecStmt:
					changed(n.X, assigned)
				case *ast.CompositeLit:
					if name, ok := lockTypes[info.Types[n].Type]; ok && !home {
						bad = append(bad, fmt.Sprintf("%s: %s makes a %s: only roomlocks.go takes a room's locks", where(fset, n), fn.Name.Name, name))
					}
				case *ast.SelectorExpr:
					sel := info.Selections[n]
					if sel == nil {
						return true
					}
					x := types.TypeString(sel.Recv(), types.RelativeTo(pkg))
					switch {
					case locks[sel.Obj()] != "" && !home:
						bad = append(bad, fmt.Sprintf("%s: %s takes room.%s: only roomlocks.go does", where(fset, n), fn.Name.Name, locks[sel.Obj()]))
					case sel.Obj() == writes && recv != "writer":
						bad = append(bad, fmt.Sprintf("%s: %s reaches Env.writes: only a writer's methods do", where(fset, n), fn.Name.Name))
					case roomFields[sel.Obj()] != "" && (x == "*Room"):
						bad = append(bad, fmt.Sprintf("%s: %s reads room.%s through %s: take it through a held", where(fset, n), fn.Name.Name, roomFields[sel.Obj()], x))
					case roomFields[sel.Obj()] != "" && x == "writer":
						field := roomFields[sel.Obj()]
						if !slices.Contains(writerReads, field) {
							bad = append(bad, fmt.Sprintf("%s: %s reads room.%s through writer: take it through a held", where(fset, n), fn.Name.Name, field))
						} else if assigned[n] {
							bad = append(bad, fmt.Sprintf("%s: %s changes room.%s through writer: change it through a changing", where(fset, n), fn.Name.Name, field))
						}
					}
				}
				return true
			})
		}
	}
	return bad
}

// changed marks every selector an assignment to e changes: r.meta and
// r.meta.Seats for r.meta.Seats[0].Bot.
func changed(e ast.Expr, assigned map[ast.Expr]bool) {
	for {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			assigned[x] = true
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return
		}
	}
}

func where(fset *token.FileSet, n ast.Node) string {
	p := fset.Position(n.Pos())
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}
