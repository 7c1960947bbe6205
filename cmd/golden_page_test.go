package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/golden"
)

// TestGoldenPage: -o html writes the pages kept under testdata/html, which
// render/html's TestGolden renders through the packages the command chains
// (decoder, session, filters, renderer) without the command: the command
// adds nothing to a page and leaves nothing out. The embedded style sheet
// and script are left out of the comparison (a golden holds a line naming
// each, with its hash). go test ./render/html -update rewrites the pages.
func TestGoldenPage(t *testing.T) {
	t.Parallel()
	pages, _ := filepath.Glob(filepath.Join("..", "testdata", "html", "*.html"))
	n := 0
	for _, name := range pages {
		fx := pageFixture(name)
		if fx == "" {
			continue // (a page of events made in render/html's tests)
		}
		n++
		t.Run(filepath.Base(name), func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(fx)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			r := cli{args: []string{"-o", "html"}, stdin: strings.NewReader(string(in))}.run(t)
			if r.code != ExitOK && r.code != ExitFailed && r.code != ExitIncomplete {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if got, want := withoutAssets(r.stdout), withoutAssets(string(want)); got != want {
				t.Errorf("-o html of %s is not the page render/html keeps in %s:\n%s", fx, name, golden.Diff(want, got))
			}
		})
	}
	if n < 6 {
		t.Errorf("only %d pages of fixtures under testdata/html", n)
	}
}

// pageFixture is the fixture whose page render/html keeps in the golden
// file name: testdata/html/NAME.jsonl for NAME.html, else
// testdata/AGENT/REST.jsonl for AGENT-REST.html; "" for none.
func pageFixture(name string) string {
	dir, base := filepath.Split(strings.TrimSuffix(name, ".html"))
	candidates := []string{filepath.Join(dir, base+".jsonl")}
	if agent, rest, ok := strings.Cut(base, "-"); ok {
		candidates = append(candidates, filepath.Join(dir, "..", agent, rest+".jsonl"))
	}
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	return ""
}

// assets are the page's embedded style sheet and script.
var assets = regexp.MustCompile(`(?s)(<style>|<script>).*?(</style>|</script>)`)

// withoutAssets is a page without the text of its style sheet and script.
func withoutAssets(page string) string { return assets.ReplaceAllString(page, "$1$2") }
