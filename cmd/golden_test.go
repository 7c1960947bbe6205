package cmd

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenFormats are the renderings kept beside every fixture: the args
// that produce each, at a fixed width.
var goldenFormats = []struct {
	ext  string
	args []string
}{
	{"plain", []string{"-o", "plain", "--color", "never", "--width", "80"}},
	{"json", []string{"-o", "json"}},
	{"pretty", []string{"-o", "pretty", "--color", "always", "--width", "80"}},
}

// TestGolden renders every fixture testdata/<agent>/*.jsonl in each format
// and compares with the golden file beside it. go test ./cmd -update
// rewrites them; read the diff before committing.
func TestGolden(t *testing.T) {
	fixtures, _ := filepath.Glob(filepath.Join("..", "testdata", "*", "*.jsonl"))
	if len(fixtures) == 0 {
		t.Skip("no fixtures")
	}
	for _, fx := range fixtures {
		if strings.Contains(fx, string(filepath.Separator)+"cli"+string(filepath.Separator)) ||
			strings.Contains(fx, string(filepath.Separator)+"hostile"+string(filepath.Separator)) {
			continue
		}
		in, err := os.ReadFile(fx)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range goldenFormats {
			name := strings.TrimSuffix(fx, ".jsonl") + "." + g.ext
			t.Run(filepath.Base(filepath.Dir(fx))+"/"+filepath.Base(name), func(t *testing.T) {
				r := cli{args: g.args, stdin: strings.NewReader(string(in))}.run(t)
				got := r.stdout
				if *update {
					if err := os.WriteFile(name, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(name)
				if err != nil {
					t.Fatalf("%v (run go test ./cmd -update)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from its golden file (go test ./cmd -update, then read the diff)\n%s", name, firstDiff(string(want), got))
				}
			})
		}
	}
}

// firstDiff shows the first differing line.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n want %q\n  got %q", i+1, w, g)
		}
	}
	return ""
}
