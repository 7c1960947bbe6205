package html

import (
	"bytes"
	_ "embed"
	"strings"

	"github.com/agentfmt/agentfmt/internal/highlight"
	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// Code blocks are highlighted by chroma with CSS classes (no style
// attributes, which the page's Content-Security-Policy would refuse); the
// classes' colours, light and dark, are in the page's style sheet
// (codeCSS).
var formatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(false))

// Styles of highlighted code: light, and dark under prefers-color-scheme.
const (
	lightStyle = "github"
	darkStyle  = "github-dark"
)

// maxHighlight is the longest code block highlighted; a longer one is
// shown as plain text (lexers are regular expressions: bounded work).
const maxHighlight = 256 << 10

// codeCSS is the style sheet of chroma's classes (code.css): the light
// style on screens that prefer light and in print, the dark one on screens
// that prefer dark. Each is scoped whole, so no colour of one leaks into
// the other. (The blocks' background is the page's, from page.css.)
//
// It is made from chroma's styles by TestCodeCSS (go test ./render/html
// -run TestCodeCSS -update), not at run time: chroma's styles package
// parses every style it has when the program starts (10 ms and 2 MB,
// measured with GODEBUG=inittrace=1), which every output format would
// pay for the sake of -o html.
//
//go:embed code.css
var codeCSS string

// classStyle is the style handed to the formatter, which writes class
// names only: the colours are codeCSS's.
var classStyle = chroma.MustNewStyle("agentfmt-classes", chroma.StyleEntries{})

func fencedCode(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		b := n.(*ast.FencedCodeBlock)
		code(w, string(b.Language(src)), lines(b, src))
	}
	return ast.WalkSkipChildren, nil
}

func indentedCode(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		code(w, "", lines(n, src))
	}
	return ast.WalkSkipChildren, nil
}

func lines(n ast.Node, src []byte) string {
	var b strings.Builder
	ls := n.Lines()
	for i := 0; i < ls.Len(); i++ {
		s := ls.At(i)
		b.Write(s.Value(src))
	}
	return b.String()
}

// code writes a code block, highlighted when its language is known.
func code(w util.BufWriter, lang, text string) {
	if len(text) <= maxHighlight {
		if toks, ok := highlight.Tokens(lang, text); ok {
			var b bytes.Buffer
			if formatter.Format(&b, classStyle, chroma.Literator(toks...)) == nil {
				w.Write(b.Bytes())
				w.WriteByte('\n')
				return
			}
		}
	}
	w.WriteString(`<pre><code>`)
	w.Write(util.EscapeHTML([]byte(text)))
	w.WriteString("</code></pre>\n")
}
