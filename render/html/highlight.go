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

// maxHighlight is the longest code block highlighted; a longer one is
// shown as plain text (lexers are regular expressions: bounded work).
const maxHighlight = 256 << 10

// codeCSS colours chroma's token classes with the page's palette, light
// and dark (code.css). It is the page's own: chroma's styles package
// would parse every style it has when the program starts (measured in
// docs/performance.md), which every output format would pay for -o html.
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
