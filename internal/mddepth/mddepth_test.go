package mddepth

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

var md = goldmark.New(goldmark.WithExtensions(extension.GFM))

// depth is how deep block quotes and list items nest in goldmark's tree of
// src.
func depth(src []byte) int {
	doc := md.Parser().Parse(text.NewReader(src))
	deepest := 0
	var walk func(n ast.Node, d int)
	walk = func(n ast.Node, d int) {
		switch n.Kind() {
		case ast.KindBlockquote, ast.KindListItem:
			d++
		}
		deepest = max(deepest, d)
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if c.Type() == ast.TypeBlock {
				walk(c, d)
			}
		}
	}
	walk(doc, 0)
	return deepest
}

func deepList(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s- item %d\n", strings.Repeat("  ", i), i)
	}
	return b.String()
}

func steppingQuotes(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s q %d\n", strings.Repeat(">", i+1), i)
	}
	return b.String()
}

// What nests deeper than the cap is text of the deepest level kept:
// goldmark's tree is no deeper, and every word is still there, each deep
// line a line of its own.
func TestLimitDepth(t *testing.T) {
	t.Parallel()
	for name, src := range map[string]string{
		"list":            deepList(300),
		"ordered":         strings.ReplaceAll(deepList(300), "- item", "1. item"),
		"quotes":          steppingQuotes(300),
		"spaced quotes":   strings.ReplaceAll(steppingQuotes(200), ">", "> "),
		"one line":        strings.Repeat("> ", 500) + "deep\n",
		"markers":         strings.Repeat("- ", 500) + "deep\n",
		"mixed":           strings.Repeat("> - ", 200) + "deep\n" + strings.Repeat("> 1. ", 200) + "deeper\n",
		"tabs":            strings.ReplaceAll(deepList(200), "  ", "\t"),
		"lazy":            deepList(100) + "lazy line\n" + deepList(100),
		"in a fence":      "- a\n  ```\n" + deepList(300) + "  ```\n",
		"unclosed fence":  "```\n" + deepList(300),
		"indented fence":  "    ```\n" + deepList(300),
		"after quotes":    steppingQuotes(100) + "\nback at the top\n\n- a\n  - b\n",
		"crlf":            strings.ReplaceAll(deepList(100), "\n", "\r\n"),
		"empty items":     strings.Repeat("-\n  ", 100) + "x\n",
		"star breaks":     strings.Repeat("* ", 300) + "\n",
		"numbers as text": strings.Repeat("  ", 40) + "- 12. twelve\n" + strings.Repeat("  ", 41) + "- 1) one\n",
	} {
		in := []byte(src)
		out := Limit(in, Max)
		limit := Max
		if strings.Contains(name, "fence") {
			limit = 2 * Max
		}
		if d := depth(out); d > limit {
			t.Errorf("%s: nests %d deep after Limit (was %d)", name, d, depth(in))
		}
		// Every word is still there, in order.
		got, want := strings.Fields(strings.NewReplacer("\\", "", ">", "", "-", "", "*", "").Replace(string(out))),
			strings.Fields(strings.NewReplacer(">", "", "-", "", "*", "").Replace(src))
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: words changed:\n%.300q\nwant\n%.300q", name, got, want)
		}
		if again := Limit(out, Max); !bytes.Equal(again, out) {
			t.Errorf("%s: a second Limit changes it again", name)
		}
	}
	// Deep lines stay lines: a hard break each.
	out := Limit([]byte(deepList(40)), Max)
	if n := bytes.Count(out, []byte("  \n")); n < 40-Max-1 {
		t.Errorf("%d hard breaks in\n%s", n, out)
	}
}

// Text under the cap comes back as it is, the same slice: Limit costs a
// scan, no copy, for what people write.
func TestLimitKeepsWhatIsShallow(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"",
		"plain text\n",
		"# Title\n\nSome **bold** and `code`.\n\n- a\n  - b\n    - c\n\n1. one\n2. two\n   > quoted\n   > > twice\n",
		deepList(Max),
		steppingQuotes(Max),
		strings.Repeat("> ", Max) + "at the cap\n",
		"```json\n" + strings.Repeat(" ", 120) + "\"deeply\": \"indented code\"\n```\n",
		"```\n" + strings.Repeat("- ", 60) + "a YAML-ish line in code\n```\n",
		strings.Repeat(" ", 200) + "an indented line with no marker\n",
		"| a | b |\n|---|---|\n| 1 | 2 |\n",
		"***\n---\n- - -\n",
	} {
		in := []byte(src)
		if out := Limit(in, Max); len(in) > 0 && &out[0] != &in[0] || !bytes.Equal(out, in) {
			t.Errorf("changed:\n%q\n%q", src, out)
		}
	}
}

// FuzzLimit: whatever the text, goldmark's tree of it after Limit nests
// at most twice the cap (the cap itself outside what the scan takes for
// fenced code), and a second Limit changes nothing.
func FuzzLimit(f *testing.F) {
	for _, s := range []string{deepList(80), steppingQuotes(80), strings.Repeat("> - ", 50) + "x", "```\n" + deepList(80), "- a\n\tb\n> c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<16 {
			return
		}
		out := Limit([]byte(src), 8)
		if d := depth(out); d > 16 {
			t.Fatalf("nests %d deep after Limit:\n%q\n%q", d, src, out)
		}
		if !strings.Contains(src, "```") && !strings.Contains(src, "~~~") {
			if d := depth(out); d > 8 {
				t.Fatalf("nests %d deep after Limit (no fence):\n%q\n%q", d, src, out)
			}
		}
	})
}
