package mdterm

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/termwrap"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// minCol is the narrowest a column is squeezed to before a table gives up
// on columns.
const minCol = 6

// table lays out a GitHub table: columns as wide as their widest cell,
// cells aligned as the delimiter row says, the header bold above a rule.
// A table wider than the row shrinks its widest columns and wraps their
// cells; when even columns minCol cells wide do not fit, each row is shown
// as a list of "header: value" lines instead.
func (r *renderer) table(dst []termwrap.Line, t *east.Table, width int) []termwrap.Line {
	var rows [][]string
	header := -1
	for c := t.FirstChild(); c != nil; c = c.NextSibling() {
		if _, ok := c.(*east.TableHeader); ok {
			header = len(rows)
		}
		var cells []string
		for cell := c.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, strings.TrimSpace(r.inline(cell)))
		}
		rows = append(rows, cells)
	}
	ncol := 0
	for _, row := range rows {
		ncol = max(ncol, len(row))
	}
	if ncol == 0 {
		return dst
	}
	widths := make([]int, ncol)
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], termwrap.Width(c), 1)
		}
	}
	sep := 3 // " ╎ "
	total := func() int {
		n := sep * (ncol - 1)
		for _, w := range widths {
			n += w
		}
		return n
	}
	for total() > width {
		wi := 0
		for i, w := range widths {
			if w > widths[wi] {
				wi = i
			}
		}
		if widths[wi] <= minCol {
			return r.tableList(dst, rows, header, width)
		}
		widths[wi]--
	}
	aligns := t.Alignments
	bar := r.style(sgrDim, " ╎ ", termwrap.Reset)
	for ri, row := range rows {
		cols := make([][]termwrap.Line, ncol)
		height := 1
		for i := 0; i < ncol; i++ {
			c := ""
			if i < len(row) {
				c = row[i]
			}
			if ri == header && r.color && c != "" {
				c = sgrBold + c + termwrap.Reset
			}
			cols[i] = termwrap.Wrap(c, widths[i])
			height = max(height, len(cols[i]))
		}
		for y := 0; y < height; y++ {
			var b strings.Builder
			w := 0
			for i := 0; i < ncol; i++ {
				if i > 0 {
					b.WriteString(bar)
					w += sep
				}
				var l termwrap.Line
				if y < len(cols[i]) {
					l = cols[i][y]
				}
				pad := widths[i] - l.W
				left := 0
				if i < len(aligns) {
					switch aligns[i] {
					case east.AlignRight:
						left = pad
					case east.AlignCenter:
						left = pad / 2
					}
				}
				b.WriteString(strings.Repeat(" ", left))
				b.WriteString(l.S)
				if i < ncol-1 {
					b.WriteString(strings.Repeat(" ", pad-left))
					w += widths[i]
				} else {
					w += left + l.W
				}
			}
			s := b.String()
			trimmed := strings.TrimRight(s, " ")
			dst = append(dst, termwrap.Line{S: trimmed, W: w - (len(s) - len(trimmed))})
		}
		if ri == header {
			var b strings.Builder
			for i, w := range widths {
				if i > 0 {
					b.WriteString("─┼─")
				}
				b.WriteString(strings.Repeat("─", w))
			}
			dst = append(dst, termwrap.Line{S: r.style(sgrDim, b.String(), termwrap.Reset), W: total()})
		}
	}
	return dst
}

// tableList is a table too wide for the row: each body row as lines of
// "header: value", rows apart by an empty line.
func (r *renderer) tableList(dst []termwrap.Line, rows [][]string, header, width int) []termwrap.Line {
	var head []string
	if header >= 0 {
		head = rows[header]
	}
	first := true
	for ri, row := range rows {
		if ri == header {
			continue
		}
		if !first {
			dst = append(dst, termwrap.Line{})
		}
		first = false
		for i, c := range row {
			name := ""
			if i < len(head) {
				name = head[i]
			}
			s := c
			if name != "" {
				s = r.style(sgrBold, name+":", sgrBoldOff) + " " + c
			}
			dst = termwrap.AppendWrap(dst, s, width)
		}
	}
	return dst
}

var _ ast.Node = (*east.Table)(nil)
