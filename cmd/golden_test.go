package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/golden"
)

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
// and compares with the golden file beside it (see internal/golden: a
// .pretty file shows its escape bytes as ⟨ESC⟩). go test ./cmd -update
// rewrites them; read the diff before committing.
func TestGolden(t *testing.T) {
	t.Parallel()
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
				golden.CheckString(t, name, r.stdout)
			})
		}
	}
}
