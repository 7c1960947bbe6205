package testmain

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/agentfmt/agentfmt/internal/golden"
)

func TestMain(m *testing.M) { Run(m) }

// TestChildrenSkipThePause: under the race detector, the processes a test
// starts are told not to pause at exit.
func TestChildrenSkipThePause(t *testing.T) {
	t.Parallel()
	if !race {
		t.Skip("the pause is the race detector's")
	}
	if got := os.Getenv("GORACE"); !strings.Contains(got, "atexit_sleep_ms") {
		t.Errorf("GORACE = %q, want atexit_sleep_ms set", got)
	}
}

// TestEveryTestPackageRunsMain: every package with tests has a TestMain
// that ends through this package, so that no test binary pauses at exit.
func TestEveryTestPackageRunsMain(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}|{{.Dir}}|{{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}`, "github.com/agentfmt/agentfmt/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(l, "|")
		if len(f) != 3 {
			t.Fatalf("go list: %q", l)
		}
		files := strings.Fields(f[2])
		if len(files) == 0 {
			continue
		}
		if !runsMain(t, f[1], files) {
			t.Errorf("%s has tests but no TestMain calling testmain.Run (or testmain.Exit): add func TestMain(m *testing.M) { testmain.Run(m) }", f[0])
		}
	}
}

// runsMain reports whether one of files declares TestMain and calls this
// package's Run or Exit in it.
func runsMain(t *testing.T, dir string, files []string) bool {
	fset := token.NewFileSet()
	for _, name := range files {
		file, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Name.Name != "TestMain" || fn.Body == nil {
				continue
			}
			found := false
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "testmain" && (sel.Sel.Name == "Run" || sel.Sel.Name == "Exit") {
						found = true
					}
				}
				if id, ok := n.(*ast.Ident); ok && strings.HasSuffix(dir, filepath.Join("internal", "testmain")) && id.Name == "Run" {
					found = true
				}
				return !found
			})
			return found
		}
	}
	return false
}
