package html

import (
	"bytes"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
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

// codeCSS is the style sheet of chroma's classes: the light style on
// screens that prefer light and in print, the dark one on screens that
// prefer dark. Each is scoped whole, so no colour of one leaks into the
// other. (The blocks' background is the page's, from page.css.)
func codeCSS() string {
	var b bytes.Buffer
	for _, s := range []struct{ media, style string }{
		{"print, (prefers-color-scheme: light)", lightStyle},
		{"screen and (prefers-color-scheme: dark)", darkStyle},
	} {
		b.WriteString("@media " + s.media + " {\n")
		_ = formatter.WriteCSS(&b, styles.Get(s.style))
		b.WriteString("}\n")
	}
	return b.String()
}

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
	var lexer chroma.Lexer
	if lang != "" && len(text) <= maxHighlight {
		lexer = lexers.Get(lang)
	}
	if lexer != nil {
		it, err := chroma.Coalesce(lexer).Tokenise(nil, text)
		if err == nil {
			var b bytes.Buffer
			if formatter.Format(&b, styles.Get(lightStyle), it) == nil {
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
