package mdterm

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/mddepth"
	"github.com/agentfmt/agentfmt/internal/termwrap"
	"github.com/yuin/goldmark/text"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

const sample = "# Title\n\nSome **bold**, *italic*, `code` and a [link](https://x.dev).\n\n" +
	"- a list item that is long enough to wrap onto the next row\n- second\n  1. nested\n\n" +
	"> quoted text\n\n| Name | Size |\n|:-----|-----:|\n| a | 1 |\n| bbbb | 22 |\n\n" +
	"```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```\n"

func plain(ls []termwrap.Line) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(termwrap.Strip(l.S))
		b.WriteByte('\n')
	}
	return b.String()
}

func TestRenderPlain(t *testing.T) {
	t.Parallel()
	got := plain(Render([]byte(sample), 30, false))
	want := "# Title\n\nSome **bold**, *italic*,\n`code` and a link\n(https://x.dev).\n\n" +
		"- a list item that is long\n  enough to wrap onto the next\n  row\n- second\n  1. nested\n\n" +
		"> quoted text\n\nName ╎ Size\n─────┼─────\na    ╎    1\nbbbb ╎   22\n\n" +
		"```go\nfunc main() {\n    println(\"hi\")\n}\n```\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestRenderColour(t *testing.T) {
	t.Parallel()
	ls := Render([]byte(sample), 30, true)
	got := plain(ls)
	for _, s := range []string{"Title\n", "Some bold, italic, code and", "• a list item", "┃ quoted text", "  func main() {"} {
		if !strings.Contains(got, s) {
			t.Errorf("%q missing from\n%s", s, got)
		}
	}
	all := ""
	for _, l := range ls {
		if l.W > 30 || l.W != termwrap.Width(l.S) {
			t.Errorf("row %q: width %d, measured %d", l.S, l.W, termwrap.Width(l.S))
		}
		all += l.S + "\n"
	}
	for _, s := range []string{"\x1b[1mbold\x1b[22m", "\x1b[3mitalic\x1b[23m", "\x1b[36mcode\x1b[39m", "\x1b[35mfunc\x1b[0m"} {
		if !strings.Contains(all, s) {
			t.Errorf("%q missing", s)
		}
	}
}

// A heading is drawn otherwise than bold text (colour and, at the first
// level, an underline), and its inline styles are kept.
func TestHeadingNotBold(t *testing.T) {
	t.Parallel()
	row := func(src string) string { return Render([]byte(src), 40, true)[0].S }
	bold := row("**Codebase Overview**")
	for _, h := range []string{"# Codebase Overview", "## Codebase Overview", "### Codebase Overview"} {
		got := row(h)
		if got == bold || termwrap.Strip(got) != "Codebase Overview" || !strings.Contains(got, "\x1b[1;") {
			t.Errorf("%q: %q, bold text %q", h, got, bold)
		}
	}
	if row("# A") == row("## A") {
		t.Error("the first level looks like the second")
	}
}

func TestTableTooWide(t *testing.T) {
	t.Parallel()
	src := "| Alpha | Beta | Gamma | Delta |\n|---|---|---|---|\n| one two three | four five six | seven eight | nine ten |\n"
	got := plain(Render([]byte(src), 24, false))
	if !strings.Contains(got, "Alpha: one two three\n") {
		t.Errorf("no list fallback:\n%s", got)
	}
	got = plain(Render([]byte(src), 44, false))
	if !strings.Contains(got, "╎") {
		t.Errorf("no table at 44:\n%s", got)
	}
	for _, l := range strings.Split(got, "\n") {
		if termwrap.Width(l) > 44 {
			t.Errorf("row too wide: %q", l)
		}
	}
}

// TestPlainProse: text with no markdown syntax skips the parse and comes
// out as goldmark's paragraph would.
func TestPlainProse(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]bool{
		"just words\nand more words\n": true,
		"a **b**\n":                    false,
		"- item\n":                     false,
		"1. item\n":                    false,
		"para\n\npara\n":               false,
		"Title\n===\n":                 false,
		"    code\n":                   false,
		"hard  \nbreak\n":              false,
	} {
		if got := plainProse([]byte(src)); got != want {
			t.Errorf("plainProse(%q) = %v", src, got)
		}
		if want {
			r := &renderer{src: []byte(src)}
			doc := md.Parser().Parse(text.NewReader([]byte(src)))
			slow := plain(r.blocks(nil, doc, 12))
			if fast := plain(Render([]byte(src), 12, false)); fast != slow {
				t.Errorf("%q: fast %q, goldmark %q", src, fast, slow)
			}
		}
	}
}

// FuzzNoTableParser: text without a '|' renders the same with the
// parser that has no table extension (the one Render picks for it) as
// with the full one.
func FuzzNoTableParser(f *testing.F) {
	for _, s := range []string{"# T\n\n**b** *i* `c` ~~s~~\n", "- [x] done\n- [ ] todo\n", "a\n---\nb\n", "> q\n\n```go\nx\n```\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.IndexByte(src, '|') >= 0 || plainProse([]byte(src)) {
			return // (plain prose skips goldmark: TestPlainProse)
		}
		lim := mddepth.Limit([]byte(src), mddepth.Max) // (as Render does)
		full := &renderer{src: lim}
		want := plain(full.blocks(nil, md.Parser().Parse(text.NewReader(lim)), 20))
		if got := plain(Render([]byte(src), 20, false)); got != want {
			t.Fatalf("%q: %q, with the table extension %q", src, got, want)
		}
	})
}

// FuzzRender lays out arbitrary markdown at an arbitrary width: no panic,
// and every row measured as it is (W is its width in cells: what the
// live renderer counts rows and cuts them by), with colour and without;
// nesting of any depth included (beyond mddepth.Max it is text).
func FuzzRender(f *testing.F) {
	f.Add(sample, uint8(30))
	f.Add(strings.Repeat("> ", 40)+"deep\n"+strings.Repeat("- ", 40)+"x\n", uint8(20))
	f.Add("- a\n  > b\n  > - c\n    ```\n    code\n    ```\n", uint8(9))
	f.Add("| a | b |\n|---|---|\n| 1 | 2 |\n", uint8(1))
	f.Fuzz(func(t *testing.T, src string, width uint8) {
		if len(src) > 1<<14 {
			return
		}
		w := int(width)%120 + 1
		for _, colour := range []bool{false, true} {
			for _, l := range Render([]byte(src), w, colour) {
				if got := termwrap.Width(l.S); got != l.W {
					t.Fatalf("row %q: W %d, %d cells", l.S, l.W, got)
				}
			}
		}
	})
}

// A code block's language is not a row of its own above the code (issue
// 24 item 14): with colour the code is highlighted and indented, the info
// string nowhere; without colour the fences are shown as written.
func TestCodeBlockLanguage(t *testing.T) {
	t.Parallel()
	src := []byte("Intro.\n\n```go title=main.go\nfunc main() {}\n```\n")
	rows := Render(src, 40, true)
	var plain []string
	for _, l := range rows {
		plain = append(plain, termwrap.Strip(l.S))
	}
	if want := []string{"Intro.", "", "  func main() {}"}; !slices.Equal(plain, want) {
		t.Errorf("with colour: %q, want %q", plain, want)
	}
	plain = plain[:0]
	for _, l := range Render(src, 40, false) {
		plain = append(plain, l.S)
	}
	if want := []string{"Intro.", "", "```go title=main.go", "func main() {}", "```"}; !slices.Equal(plain, want) {
		t.Errorf("without colour: %q, want %q", plain, want)
	}
}

// With colour a backslash escape shows the character it escapes (the
// markers give way to styles; so does the backslash that keeps one from
// being a marker), as the nesting made text beyond mddepth.Max does;
// without colour the text stays as written.
func TestEscapesWithColour(t *testing.T) {
	t.Parallel()
	src := []byte("a \\*b\\* \\# c\n")
	if got := plain(Render(src, 40, true)); got != "a *b* # c\n" {
		t.Errorf("with colour: %q", got)
	}
	if got := plain(Render(src, 40, false)); got != "a \\*b\\* \\# c\n" {
		t.Errorf("without colour: %q", got)
	}
	deep := strings.Repeat("> ", mddepth.Max+3) + "deep\n"
	if got := plain(Render([]byte(deep), 200, true)); !strings.HasSuffix(got, "┃ > > > deep\n") {
		t.Errorf("beyond the cap: %q", got)
	}
}
