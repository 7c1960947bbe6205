package repo

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/doc"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

// listed is what go list says of a package.
type listed struct {
	ImportPath, Name, Dir, Doc, Export string
	TestGoFiles, XTestGoFiles          []string
}

// publicAPI is what loadPublic found, once for every test of the binary.
var publicAPI struct {
	sync.Once
	fset   *token.FileSet
	imp    types.Importer
	public []listed
	err    error
	skip   bool
}

// loadPublic lists the module's public packages (isPublic) with go list
// and an importer that reads their compiled export data, as the build
// cache holds it: no package is type-checked from source.
func loadPublic(t *testing.T) (*token.FileSet, types.Importer, []listed) {
	t.Helper()
	a := &publicAPI
	a.Do(func() {
		list := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Name,Dir,Doc,Export,TestGoFiles,XTestGoFiles", "./...")
		list.Dir = root
		out, err := list.Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				a.err = fmt.Errorf("go list: %v\n%s", err, ee.Stderr)
			} else {
				a.err, a.skip = fmt.Errorf("go list: %v", err), true
			}
			return
		}
		exports := map[string]string{}
		dec := json.NewDecoder(strings.NewReader(string(out)))
		for {
			var p listed
			if err := dec.Decode(&p); err == io.EOF {
				break
			} else if err != nil {
				a.err = err
				return
			}
			exports[p.ImportPath] = p.Export
			if isPublic(p) {
				a.public = append(a.public, p)
			}
		}
		if len(a.public) < 4 {
			a.err = fmt.Errorf("only %d public packages", len(a.public))
			return
		}
		sort.Slice(a.public, func(i, j int) bool { return a.public[i].ImportPath < a.public[j].ImportPath })
		a.fset = token.NewFileSet()
		a.imp = importer.ForCompiler(a.fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) })
	})
	if a.skip {
		t.Skip(a.err)
	}
	if a.err != nil {
		t.Fatal(a.err)
	}
	return a.fset, a.imp, a.public
}

// isPublic: a package a Go program embedding agentfmt imports:
// not internal, not the command (cmd, main), not the bench tools and not
// an agent's parser (parsers/<agent>, built on the kit in internal/parsers
// and reached through parsers.Read).
func isPublic(p listed) bool {
	const mod = "github.com/agentfmt/agentfmt"
	rel, ok := strings.CutPrefix(p.ImportPath, mod+"/")
	return ok && p.Name != "main" && !strings.Contains("/"+rel+"/", "/internal/") &&
		rel != "cmd" && !strings.HasPrefix(rel, "cmd/") && rel != "bench" && !strings.HasPrefix(rel, "bench/") &&
		!strings.HasPrefix(rel, "parsers/")
}

// TestPublicAPI: each public package (streaming, parsers, render,
// render/html) has a package comment and a runnable example (with its
// output), and what it exports names no internal type except through a
// public alias: a program outside this module cannot name an internal
// type, so a function that takes one could not be called from it.
func TestPublicAPI(t *testing.T) {
	fset, imp, public := loadPublic(t)
	for _, p := range public {
		t.Run(strings.TrimPrefix(p.ImportPath, "github.com/agentfmt/agentfmt/"), func(t *testing.T) {
			if !strings.HasPrefix(p.Doc, "Package "+p.Name+" ") {
				t.Errorf("no package comment (Package %s …)", p.Name)
			}
			if !hasRunnableExample(t, fset, p) {
				t.Errorf("no runnable example (a func Example… with an // Output: comment)")
			}
			pkg, err := imp.Import(p.ImportPath)
			if err != nil {
				t.Fatal(err)
			}
			for _, leak := range internalNames(pkg) {
				t.Errorf("exports an internal type: %s", leak)
			}
		})
	}
}

func hasRunnableExample(t *testing.T, fset *token.FileSet, p listed) bool {
	var files []*ast.File
	for _, name := range append(append([]string(nil), p.TestGoFiles...), p.XTestGoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for _, ex := range doc.Examples(files...) {
		if ex.Output != "" || ex.EmptyOutput {
			return true
		}
	}
	return false
}

// internalNames lists where the exported declarations of pkg (functions,
// methods, exported fields, variables, constants) name a type declared in
// an internal package, other than through an alias declared outside one.
func internalNames(pkg *types.Package) []string {
	var leaks []string
	seen := map[types.Type]bool{}
	var walk func(where string, t types.Type)
	walk = func(where string, t types.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Alias:
			if !isInternal(t.Obj().Pkg()) {
				return // named through a public alias
			}
			walk(where, types.Unalias(t))
		case *types.Named:
			if isInternal(t.Obj().Pkg()) {
				leaks = append(leaks, where+": "+t.String())
				return
			}
			if t.Obj().Pkg() == nil || !strings.HasPrefix(t.Obj().Pkg().Path(), "github.com/agentfmt/agentfmt") {
				return
			}
			walk(where, t.Underlying())
			for i := 0; i < t.NumMethods(); i++ {
				if m := t.Method(i); m.Exported() {
					walk(where+"."+m.Name(), m.Type())
				}
			}
		case *types.Pointer:
			walk(where, t.Elem())
		case *types.Slice:
			walk(where, t.Elem())
		case *types.Array:
			walk(where, t.Elem())
		case *types.Chan:
			walk(where, t.Elem())
		case *types.Map:
			walk(where, t.Key())
			walk(where, t.Elem())
		case *types.Signature:
			for i := 0; i < t.Params().Len(); i++ {
				walk(where, t.Params().At(i).Type())
			}
			for i := 0; i < t.Results().Len(); i++ {
				walk(where, t.Results().At(i).Type())
			}
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				if f := t.Field(i); f.Exported() {
					walk(where+"."+f.Name(), f.Type())
				}
			}
		case *types.Interface:
			for i := 0; i < t.NumMethods(); i++ {
				if m := t.Method(i); m.Exported() {
					walk(where+"."+m.Name(), m.Type())
				}
			}
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if o := scope.Lookup(name); o.Exported() {
			walk(pkg.Name()+"."+name, o.Type())
		}
	}
	sort.Strings(leaks)
	return leaks
}

func isInternal(p *types.Package) bool {
	return p != nil && strings.Contains(p.Path()+"/", "/internal/")
}
