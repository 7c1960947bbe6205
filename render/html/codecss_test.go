package html

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/highlight"
	"github.com/alecthomas/chroma/v2"
)

// TestCodeCSS: the token kinds a reader tells code by — keywords,
// strings, comments, numbers, function names — each get a colour from
// code.css in code of several languages, and code.css is the page's own
// (its colours are the page's palette, no other project's style sheet).
func TestCodeCSS(t *testing.T) {
	t.Parallel()
	samples := map[string]string{
		"go":     "// Add sums.\nfunc Add(a, b int) int { return a + b + 42 } // \"x\"\nvar s = \"hi\\n\"\n",
		"python": "# sums\ndef add(a, b):\n    return a + b + 42\nprint(\"hi\")\n",
		"diff":   "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n",
	}
	wanted := map[string][]string{ // a language's token classes, by kind, that must be coloured
		"go":     {"k", "c1", "nf", "mi", "s"},
		"python": {"k", "c1", "nf", "mi", "s2"},
		"diff":   {"gd", "gi"},
	}
	tokenClass := map[string]bool{}
	for tt, c := range chroma.StandardTypes {
		if tt >= 0 || tt == chroma.Error { // the negative rest name the block's and its lines' wrappers
			tokenClass[c] = true
		}
	}
	rule := func(class string) bool {
		if strings.Contains(codeCSS, "."+class+" ") || strings.Contains(codeCSS, "."+class+",") {
			return true
		}
		for _, m := range regexp.MustCompile(`\[class\^="(\w+)"\](?::not\(\.(\w+)\))?`).FindAllStringSubmatch(codeCSS, -1) {
			if strings.HasPrefix(class, m[1]) && class != m[2] {
				return true
			}
		}
		return false
	}
	for lang, src := range samples {
		toks, ok := highlight.Tokens(lang, src)
		if !ok {
			t.Fatalf("%s: not highlighted", lang)
		}
		var b strings.Builder
		if err := formatter.Format(&b, classStyle, chroma.Literator(toks...)); err != nil {
			t.Fatal(err)
		}
		classes := map[string]bool{}
		for _, m := range regexp.MustCompile(`class="(\w+)"`).FindAllStringSubmatch(b.String(), -1) {
			classes[m[1]] = true
		}
		for c := range classes {
			if c != "chroma" && !tokenClass[c] && rule(c) { // (the block itself is .chroma, not inside it)
				t.Errorf("%s: chroma's %q is no token (a line's or the block's wrapper) but code.css styles it as one", lang, c)
			}
		}
		for _, c := range wanted[lang] {
			if !classes[c] {
				t.Errorf("%s: chroma gave no %q token (classes %v): the sample no longer tests it", lang, c, classes)
			} else if !rule(c) {
				t.Errorf("%s: code.css colours no %q token", lang, c)
			}
		}
	}
	if strings.Contains(codeCSS, "#") {
		t.Errorf("code.css names a colour of its own: it takes the page's palette (var(--…))")
	}
}
