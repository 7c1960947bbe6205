package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/golden"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
)

// goldenFormats are the renderings kept beside every fixture: the args
// that produce each, at a fixed width. pretty's is kept for the first
// fixture of each folder only (prettyGolden); the others are checked by
// their final screen (checkPrettyScreen).
var goldenFormats = []struct {
	ext  string
	args []string
}{
	{"plain", plainGoldenArgs},
	{"json", []string{"-o", "json"}},
	{"pretty", prettyGoldenArgs},
}

var (
	plainGoldenArgs  = []string{"-o", "plain", "--color", "never", "--width", "80"}
	prettyGoldenArgs = []string{"-o", "pretty", "--color", "always", "--width", "80"}
)

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
				t.Parallel()
				r := cli{args: g.args, stdin: strings.NewReader(string(in))}.run(t)
				if g.ext == "pretty" && !prettyGolden(fx) {
					checkPrettyScreen(t, in, r.stdout)
					if _, err := os.Stat(name); err == nil {
						if golden.Update() {
							os.Remove(name)
						} else {
							t.Errorf("%s is not checked (only the first fixture of a folder keeps a .pretty): -update removes it", name)
						}
					}
					return
				}
				golden.CheckString(t, name, r.stdout)
			})
		}
	}
}

// prettyGolden reports that fixture keeps a .pretty golden: the first of
// its folder (the one whose name sorts first), so that every agent has one
// and a change of styling rewrites about twenty files, not every fixture's.
func prettyGolden(fixture string) bool {
	all, _ := filepath.Glob(filepath.Join(filepath.Dir(fixture), "*.jsonl"))
	return len(all) > 0 && all[0] == fixture
}

// checkPrettyScreen checks pretty output by what a terminal shows of it:
// only the sequences the screen writer uses, and a final screen that
// holds the text of plain's output for the same input (vtcheck.SameText).
func checkPrettyScreen(t *testing.T, in []byte, pretty string) {
	t.Helper()
	if err := vtcheck.Sequences([]byte(pretty)); err != nil {
		t.Error(err)
	}
	plain := cli{args: plainGoldenArgs, stdin: strings.NewReader(string(in))}.run(t)
	screen := vtcheck.Screen([]byte(pretty), 80)
	if err := vtcheck.SameTextScreen(screen, []byte(plain.stdout)); err != nil {
		t.Errorf("%v\nscreen:\n%s\nplain:\n%s", err, strings.Join(screen, "\n"), plain.stdout)
	}
}
