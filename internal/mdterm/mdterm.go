// Package mdterm renders markdown for a terminal: goldmark parses it
// (CommonMark with GitHub tables, strikethrough and task lists), chroma
// highlights fenced code, and every row is broken per UAX #14 to the
// width given (internal/termwrap). With colour on, markers give way to
// styles (bold, italic, underlined links, coloured inline code); with
// colour off the text stays readable plain text: inline markers are kept
// as written, code blocks keep their fences, while lists still get
// hanging indents and tables still line up.
package mdterm

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/mddepth"
	"github.com/agentfmt/agentfmt/internal/termwrap"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

var md = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))

// mdNoTable parses text without a '|', which holds no table: the table
// extension looks at every paragraph for one, a good part of the parse.
var mdNoTable = goldmark.New(goldmark.WithExtensions(extension.Strikethrough, extension.TaskList))

// parse is goldmark's document for src.
func parse(src []byte) ast.Node {
	p := md.Parser()
	if bytes.IndexByte(src, '|') < 0 {
		p = mdNoTable.Parser()
	}
	return p.Parse(text.NewReader(src))
}

// SGR sequences, switched off one by one so they nest.
const (
	sgrBold      = "\x1b[1m"
	sgrHeading   = "\x1b[1;34m"
	sgrHeading1  = "\x1b[1;4;34m"
	sgrBoldOff   = "\x1b[22m"
	sgrDim       = "\x1b[2m"
	sgrItalic    = "\x1b[3m"
	sgrItalicOff = "\x1b[23m"
	sgrUnder     = "\x1b[4m"
	sgrUnderOff  = "\x1b[24m"
	sgrStrike    = "\x1b[9m"
	sgrStrikeOff = "\x1b[29m"
	sgrCode      = "\x1b[36m"
	sgrFgOff     = "\x1b[39m"
)

// Render lays out markdown src in rows of at most width cells. Blocks are
// separated by one empty row.
func Render(src []byte, width int, color bool) []termwrap.Line {
	width = max(width, 8)
	if plainProse(src) {
		// Nothing in it that markdown reads: one paragraph, as goldmark
		// would make it, without the parse.
		s := strings.Join(strings.Fields(string(src)), " ")
		return termwrap.Wrap(s, width)
	}
	// Containers nested beyond mddepth.Max are text: parse and layout
	// stay linear however deep the text nests.
	src = mddepth.Limit(src, mddepth.Max)
	doc := parse(src)
	r := &renderer{src: src, color: color}
	return r.blocks(nil, doc, width)
}

// plainProse reports that src is one paragraph with no markdown syntax:
// no character that opens inline markup or escapes, no line that starts
// a block (indent, list marker, quote, heading, rule, table, setext
// underline), no blank line, no hard break.
func plainProse(src []byte) bool {
	lineStart := true
	for i, c := range src {
		switch c {
		case '*', '_', '`', '[', ']', '<', '>', '!', '#', '|', '~', '\\', '&', '\t', '\r':
			return false
		case '\n':
			if lineStart || i >= 2 && src[i-1] == ' ' && src[i-2] == ' ' {
				return false // a blank line, a hard break
			}
			lineStart = true
			continue
		}
		if lineStart {
			switch {
			case c == ' ', c == '-', c == '+', c == '=', c >= '0' && c <= '9':
				return false
			}
			lineStart = false
		}
	}
	return true
}

type renderer struct {
	src   []byte
	color bool
	// levels are the prefixes of the containers being rendered, the
	// outermost first: each row is given them once, when it is made (a
	// row copied once per level would cost the depth squared).
	levels []level
}

// level is a container's prefix: first before its first row, rest before
// the others (both of width w).
type level struct {
	first, rest           string
	w                     int
	firstBlank, restBlank bool // nothing but spaces
	used                  bool // its first row is made
}

// push opens a container whose rows go after first, then rest; pop
// closes it.
func (r *renderer) push(first, rest string) {
	blank := func(p string) bool { return strings.TrimSpace(termwrap.Strip(p)) == "" }
	r.levels = append(r.levels, level{first: first, rest: rest, w: termwrap.Width(first), firstBlank: blank(first), restBlank: blank(rest)})
}

func (r *renderer) pop() { r.levels = r.levels[:len(r.levels)-1] }

// prefix gives the rows of ls the open containers' prefixes. An empty row
// takes them only up to the innermost that shows something (a quote's
// bar), so that it ends in no blanks.
func (r *renderer) prefix(ls []termwrap.Line) {
	if len(r.levels) == 0 {
		return
	}
	var b strings.Builder
	for i, l := range ls {
		upto := len(r.levels)
		if l.S == "" {
			for upto > 0 {
				lv := &r.levels[upto-1]
				if lv.used && !lv.restBlank || !lv.used && !lv.firstBlank {
					break
				}
				upto--
			}
		}
		b.Reset()
		w := l.W
		for k := range r.levels {
			lv := &r.levels[k]
			if k < upto {
				if lv.used {
					b.WriteString(lv.rest)
				} else {
					b.WriteString(lv.first)
				}
				w += lv.w
			}
			lv.used = true
		}
		if upto == 0 {
			ls[i] = termwrap.Line{}
			continue
		}
		b.WriteString(l.S)
		ls[i] = termwrap.Line{S: b.String(), W: w}
	}
}

// put appends rows made here (not by a container of their own).
func (r *renderer) put(dst []termwrap.Line, ls ...termwrap.Line) []termwrap.Line {
	start := len(dst)
	dst = append(dst, ls...)
	r.prefix(dst[start:])
	return dst
}

func (r *renderer) style(on, s, off string) string {
	if !r.color || s == "" {
		return s
	}
	return on + s + off
}

// blocks renders the block children of n, an empty row between each two
// (none in a tight list item).
func (r *renderer) blocks(dst []termwrap.Line, n ast.Node, width int) []termwrap.Line {
	tight := false
	if li, ok := n.(*ast.ListItem); ok {
		if l, ok := li.Parent().(*ast.List); ok {
			tight = l.IsTight
		}
	}
	first := true
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if !first && !tight {
			dst = r.put(dst, termwrap.Line{})
		}
		first = false
		dst = r.block(dst, c, width)
	}
	return dst
}

func (r *renderer) block(dst []termwrap.Line, n ast.Node, width int) []termwrap.Line {
	width = max(width, 1) // (nested deep in a narrow row, the prefixes take it all)
	switch n := n.(type) {
	case *ast.Blockquote:
		bar := "┃ "
		if !r.color {
			bar = "> "
		}
		bar = r.style(sgrDim, bar, termwrap.Reset)
		r.push(bar, bar)
		dst = r.blocks(dst, n, width-2)
		r.pop()
		return dst
	case *ast.List:
		return r.list(dst, n, width)
	case *ast.CodeBlock:
		r.push("  ", "  ")
		dst = r.put(dst, Code(r.rawLines(n), "", width-2, r.color)...)
		r.pop()
		return dst
	}
	if len(r.levels) > 0 {
		start := len(dst)
		dst = r.leaf(dst, n, width)
		r.prefix(dst[start:])
		return dst
	}
	return r.leaf(dst, n, width)
}

// leaf renders a block that holds no other (or, for a kind not known
// here, its children).
func (r *renderer) leaf(dst []termwrap.Line, n ast.Node, width int) []termwrap.Line {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return r.wrapLines(dst, r.inline(n), width)
	case *ast.Heading:
		s := r.inline(n)
		if r.color {
			// Bold and blue, the first level underlined too: a heading
			// is not drawn as bold text is (a long answer's structure
			// shows).
			on := sgrHeading
			if n.Level == 1 {
				on = sgrHeading1
			}
			s = on + s + termwrap.Reset
		} else {
			s = strings.Repeat("#", n.Level) + " " + s
		}
		return r.wrapLines(dst, s, width)
	case *ast.ThematicBreak:
		return append(dst, termwrap.Line{S: r.style(sgrDim, strings.Repeat("─", width), termwrap.Reset), W: width})
	case *ast.FencedCodeBlock:
		f := Fence{Char: '`', N: 3, Line: "```"}
		if n.Info != nil {
			f.Info = string(n.Info.Segment.Value(r.src))
		}
		if start := n.Lines(); start.Len() > 0 || n.Info != nil {
			// The opening line as written, for colour off.
			pos := 0
			if n.Info != nil {
				pos = n.Info.Segment.Start
			} else if start.Len() > 0 {
				pos = max(start.At(0).Start-1, 0)
			}
			ls := strings.LastIndexByte(string(r.src[:pos]), '\n') + 1
			le := strings.IndexByte(string(r.src[ls:]), '\n')
			if le < 0 {
				le = len(r.src) - ls
			}
			if fo, ok := OpenFence(string(r.src[ls : ls+le])); ok {
				f = fo
			}
		}
		return append(dst, CodeBlock(r.rawLines(n), f, width, r.color, true, true)...)
	case *ast.HTMLBlock:
		return r.wrapLines(dst, strings.TrimRight(r.rawLines(n), "\n"), width)
	case *east.Table:
		return r.table(dst, n, width)
	}
	if n.HasChildren() {
		// (prefixed by the blocks it holds, not again here)
		levels := r.levels
		r.levels = nil
		dst = r.blocks(dst, n, width)
		r.levels = levels
		return dst
	}
	return r.wrapLines(dst, strings.TrimRight(r.rawLines(n), "\n"), width)
}

// rawLines is the text of a block's lines as written.
func (r *renderer) rawLines(n ast.Node) string {
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(r.src))
	}
	return b.String()
}

func (r *renderer) wrapLines(dst []termwrap.Line, s string, width int) []termwrap.Line {
	for _, l := range strings.Split(s, "\n") {
		dst = termwrap.AppendWrap(dst, expandTabs(l), width)
	}
	return dst
}

// indent puts first before the first row of lines and rest before the
// others (both of the same width).
func (r *renderer) indent(dst, lines []termwrap.Line, first, rest string) []termwrap.Line {
	w := termwrap.Width(first)
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if l.S == "" && strings.TrimSpace(termwrap.Strip(p)) == "" {
			dst = append(dst, termwrap.Line{})
			continue
		}
		dst = append(dst, termwrap.Line{S: p + l.S, W: w + l.W})
	}
	return dst
}

// list renders items with their marker and a hanging indent: the rows
// after an item's first line up under its text.
func (r *renderer) list(dst []termwrap.Line, n *ast.List, width int) []termwrap.Line {
	num := n.Start
	markers := []string{}
	mw := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		m := "•"
		switch {
		case n.IsOrdered():
			m = strconv.Itoa(num) + string(n.Marker)
			num++
		case !r.color:
			m = string(n.Marker)
		}
		markers = append(markers, m)
		mw = max(mw, termwrap.Width(m))
	}
	i := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if i > 0 && !n.IsTight {
			dst = r.put(dst, termwrap.Line{})
		}
		m := markers[i]
		if n.IsOrdered() {
			m = strings.Repeat(" ", mw-termwrap.Width(m)) + m
		} else {
			m = r.style(sgrDim, m, termwrap.Reset) + strings.Repeat(" ", mw-termwrap.Width(markers[i]))
		}
		r.push(m+" ", strings.Repeat(" ", mw+1))
		start := len(dst)
		dst = r.blocks(dst, c, width-mw-1)
		if len(dst) == start {
			dst = r.put(dst, termwrap.Line{})
		}
		r.pop()
		i++
	}
	return dst
}

// inline renders the inline children of n as one styled string; hard
// line breaks are newlines.
func (r *renderer) inline(n ast.Node) string {
	var b strings.Builder
	r.inlines(&b, n)
	return b.String()
}

func (r *renderer) inlines(b *strings.Builder, n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inlineNode(b, c)
	}
}

func (r *renderer) inlineNode(b *strings.Builder, n ast.Node) {
	switch n := n.(type) {
	case *ast.Text:
		if seg := n.Segment.Value(r.src); r.color && bytes.IndexByte(seg, '\\') >= 0 {
			// With colour the markers give way to styles, and a
			// backslash that keeps a character from being one goes too
			// ("\\*" is a '*'; so is what mddepth made text).
			b.Write(util.UnescapePunctuations(seg))
		} else {
			b.Write(seg)
		}
		switch {
		case n.HardLineBreak():
			b.WriteByte('\n')
		case n.SoftLineBreak():
			b.WriteByte(' ')
		}
	case *ast.String:
		b.Write(n.Value)
	case *ast.CodeSpan:
		var in strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				in.Write(t.Segment.Value(r.src))
			} else if s, ok := c.(*ast.String); ok {
				in.Write(s.Value)
			}
		}
		if r.color {
			b.WriteString(sgrCode + in.String() + sgrFgOff)
		} else {
			b.WriteString("`" + in.String() + "`")
		}
	case *ast.Emphasis:
		on, off, mark := sgrItalic, sgrItalicOff, "*"
		if n.Level >= 2 {
			on, off, mark = sgrBold, sgrBoldOff, "**"
		}
		if r.color {
			b.WriteString(on)
			r.inlines(b, n)
			b.WriteString(off)
		} else {
			b.WriteString(mark)
			r.inlines(b, n)
			b.WriteString(mark)
		}
	case *east.Strikethrough:
		if r.color {
			b.WriteString(sgrStrike)
			r.inlines(b, n)
			b.WriteString(sgrStrikeOff)
		} else {
			b.WriteString("~~")
			r.inlines(b, n)
			b.WriteString("~~")
		}
	case *ast.Link:
		var in strings.Builder
		r.inlines(&in, n)
		label := in.String()
		b.WriteString(r.style(sgrUnder, label, sgrUnderOff))
		if dest := string(n.Destination); dest != "" && dest != termwrap.Strip(label) {
			b.WriteString(r.style(sgrDim, " ("+dest+")", sgrBoldOff))
		}
	case *ast.AutoLink:
		b.WriteString(r.style(sgrUnder, string(n.URL(r.src)), sgrUnderOff))
	case *ast.Image:
		var in strings.Builder
		r.inlines(&in, n)
		b.WriteString(in.String())
		b.WriteString(r.style(sgrDim, " ("+string(n.Destination)+")", sgrBoldOff))
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			b.Write(seg.Value(r.src))
		}
	case *east.TaskCheckBox:
		if n.IsChecked {
			b.WriteString("[x] ")
		} else {
			b.WriteString("[ ] ")
		}
	default:
		r.inlines(b, n)
	}
}
