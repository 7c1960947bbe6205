package html

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// newMarkdown is the markdown converter of answers and thinking: GitHub's
// dialect (tables, task lists, strikethrough, bare links), with the
// renderers of safeNodes in front of goldmark's own. goldmark is never
// told WithUnsafe: what it would render raw, safeNodes escapes.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			extension.Strikethrough, extension.Linkify, extension.TaskList),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(safeNodes{}, 100))),
	)
}

// safeNodes renders the markdown nodes that could carry markup or a URL
// from the text: raw HTML is shown as text, links are kept only to
// http(s) and file paths, images only as small inline thumbnails of
// their own data, and code is highlighted (highlight.go).
type safeNodes struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (safeNodes) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, rawHTML)
	reg.Register(ast.KindHTMLBlock, htmlBlock)
	reg.Register(ast.KindLink, link)
	reg.Register(ast.KindAutoLink, autoLink)
	reg.Register(ast.KindImage, image)
	reg.Register(ast.KindFencedCodeBlock, fencedCode)
	reg.Register(ast.KindCodeBlock, indentedCode)
}

// rawHTML is inline HTML (<b>, <script>…, <img onerror=…>): its source,
// escaped.
func rawHTML(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		segs := n.(*ast.RawHTML).Segments
		for i := 0; i < segs.Len(); i++ {
			s := segs.At(i)
			w.Write(util.EscapeHTML(s.Value(src)))
		}
	}
	return ast.WalkSkipChildren, nil
}

// htmlBlock is a block of HTML: its lines, escaped, as preformatted text.
func htmlBlock(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := n.(*ast.HTMLBlock)
	w.WriteString(`<pre class="rawhtml">`)
	lines := b.Lines()
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		w.Write(util.EscapeHTML(s.Value(src)))
	}
	if b.HasClosure() {
		w.Write(util.EscapeHTML(b.ClosureLine.Value(src)))
	}
	w.WriteString("</pre>\n")
	return ast.WalkSkipChildren, nil
}

// link keeps a link when its destination is http(s) or a file path;
// otherwise its text is shown with the destination after it as code.
func link(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	l := n.(*ast.Link)
	// The destination as the href will hold it (entities resolved: "&#106;"
	// is a "j") is what is checked.
	href := util.URLEscape(l.Destination, true)
	ok := linkOK(href)
	switch {
	case entering && ok:
		w.WriteString(`<a href="`)
		w.Write(util.EscapeHTML(href))
		w.WriteString(`" rel="noopener noreferrer nofollow"`)
		if len(l.Title) > 0 {
			w.WriteString(` title="`)
			w.Write(util.EscapeHTML(l.Title))
			w.WriteByte('"')
		}
		w.WriteByte('>')
	case !entering && ok:
		w.WriteString("</a>")
	case !entering:
		w.WriteString(` <code class="blocked" title="link not followed">`)
		w.Write(util.EscapeHTML(clip(l.Destination, 200)))
		w.WriteString("</code>")
	}
	return ast.WalkContinue, nil
}

// autoLink is <https://…> or a bare www./http link: a link when it is
// http(s), else text (an e-mail address, another scheme).
func autoLink(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	a := n.(*ast.AutoLink)
	label := a.Label(src)
	href := util.URLEscape(a.URL(src), false)
	if a.AutoLinkType == ast.AutoLinkURL && linkOK(href) {
		w.WriteString(`<a href="`)
		w.Write(util.EscapeHTML(href))
		w.WriteString(`" rel="noopener noreferrer nofollow">`)
		w.Write(util.EscapeHTML(label))
		w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	w.Write(util.EscapeHTML(label))
	return ast.WalkContinue, nil
}

// maxThumb is the largest image (base64 text) shown inline; a larger one
// is a summary line, as the terminal shows images.
const maxThumb = 256 << 10

// image shows a data:image/png|jpeg|gif|webp;base64 image of at most
// maxThumb as a thumbnail; a larger one as ‹image/png 412 KB›; an image
// on the network as a link (the page loads nothing); anything else as
// its alt text.
func image(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	img := n.(*ast.Image)
	alt := nodeText(img, src)
	dest := img.Destination
	if media, data, ok := imageData(dest); ok {
		if len(data) > maxThumb {
			fmt.Fprintf(w, `<span class="image">‹%s %s›</span>`, media, size(len(data)/4*3))
			return ast.WalkSkipChildren, nil
		}
		w.WriteString(`<img class="thumb" src="`)
		w.Write(dest)
		w.WriteString(`" alt="`)
		w.Write(util.EscapeHTML(alt))
		w.WriteString(`">`)
		return ast.WalkSkipChildren, nil
	}
	if href := util.URLEscape(dest, true); linkOK(href) {
		w.WriteString(`<a class="image" href="`)
		w.Write(util.EscapeHTML(href))
		w.WriteString(`" rel="noopener noreferrer nofollow">🖼 `)
		if len(alt) == 0 {
			alt = dest
		}
		w.Write(util.EscapeHTML(alt))
		w.WriteString("</a>")
		return ast.WalkSkipChildren, nil
	}
	w.WriteString(`<span class="image">🖼 `)
	w.Write(util.EscapeHTML(alt))
	w.WriteString("</span>")
	return ast.WalkSkipChildren, nil
}

// imageData recognises data:image/(png|jpeg|gif|webp);base64,DATA with
// DATA strictly base64.
func imageData(dest []byte) (media string, data []byte, ok bool) {
	rest, found := bytes.CutPrefix(dest, []byte("data:"))
	if !found {
		return "", nil, false
	}
	head, data, found := bytes.Cut(rest, []byte(","))
	if !found {
		return "", nil, false
	}
	media, enc, _ := strings.Cut(string(head), ";")
	switch media {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
	default:
		return "", nil, false
	}
	if enc != "base64" || len(data) == 0 {
		return "", nil, false
	}
	for _, c := range data {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '=') {
			return "", nil, false
		}
	}
	if len(data) <= maxThumb {
		if _, err := base64.StdEncoding.DecodeString(string(data)); err != nil {
			return "", nil, false
		}
	}
	return media, data, true
}

// linkOK reports whether a link destination (as written in the href,
// entities resolved) may be followed: http(s), file: URLs, and paths (no
// scheme at all). Tabs, newlines and spaces, which browsers drop from a
// URL, are dropped before the scheme is read; an entity left unresolved
// ('&') before a ':' is refused too.
func linkOK(dest []byte) bool {
	var d []byte
	for _, c := range dest {
		if c > ' ' && c != 0x7f {
			d = append(d, c)
		}
		if len(d) >= 8 {
			break
		}
	}
	lower := strings.ToLower(string(d))
	for _, p := range []string{"http://", "https://", "file://"} {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	if strings.HasPrefix(lower, "http:") || strings.HasPrefix(lower, "https:") || strings.HasPrefix(lower, "file:") {
		return true
	}
	// A path: no scheme, that is no ':' before the first '/', '?' or '#',
	// and no '&' at all before that ':'.
	amp := false
	for _, c := range dest {
		switch c {
		case ':':
			return false
		case '&':
			amp = true
		case '/', '?':
			return true
		case '#':
			if !amp {
				return true
			}
		}
	}
	return true
}

// nodeText is the text of a node's descendants (an image's alt text).
func nodeText(n ast.Node, src []byte) []byte {
	var b []byte
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b = append(b, t.Segment.Value(src)...)
		case *ast.String:
			b = append(b, t.Value...)
		}
		return ast.WalkContinue, nil
	})
	return b
}

func clip(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return append(append([]byte(nil), b[:n]...), "…"...)
}
