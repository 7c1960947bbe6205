// Package mddepth caps how deep markdown's containers nest before it is
// parsed. goldmark's block parser checks every open container on every
// line, each check scanning the line's indentation, so a list nested 2,000
// deep (4 MB) takes seconds, and a renderer that lays out each level of a
// quote stepping to 4,000 deep minutes. Nobody reads structure that deep:
// Limit rewrites the lines that could open a container beyond the cap as
// text of a container within it, so that the parse, and whatever renders
// its tree, stays linear in the text.
//
// The bound needs no memory of the lines before. A line opens containers
// only with markers at its start: block quote markers ('>') and list
// markers ('-', '+', '*', "1." or "1)" and a blank). The containers it
// stays in are quotes, each of which needs its '>' on the line too, and
// list items, each of which needs two columns of indentation at least (its
// marker and a blank) before the markers that open new ones. So a line
// nests at most as deep as its markers plus half the columns of blank
// before its first list marker: when that is over the cap, the markers
// beyond it are made text. A line without markers opens nothing.
package mddepth

import "bytes"

// Max is the nesting depth, block quotes and list items together, that
// keeps its structure.
const Max = 32

// Limit returns src with the start of every line that could nest a block
// quote or list item more than max deep made text after its first max
// levels: the markers beyond them shown as they are (the first one
// escaped), and a hard line break at the line's end, so that such lines
// stay lines. Lines of a fenced code block are left as they are unless
// they could nest twice as deep (a fence the scan mistook for one cannot
// let more through). src itself comes back when nothing is that deep.
func Limit(src []byte, max int) []byte {
	var out []byte // nil until a line is rewritten
	var fence []byte
	text := false // the line before is text left as it was (not code)
	for i := 0; i < len(src); {
		end := bytes.IndexByte(src[i:], '\n')
		next := len(src)
		if end < 0 {
			end = len(src)
		} else {
			end += i
			next = end + 1
		}
		line := src[i:end]
		p := scan(line)
		body := line[p.end:]
		limit := max
		if fence != nil {
			limit = 2 * max
		}
		if p.bound > limit {
			if out == nil {
				out = make([]byte, 0, len(src)+len(src)/16)
				out = append(out, src[:i]...)
			}
			if text {
				out = hardBreak(out) // the first line made text starts a line too
			}
			out = asText(out, line, limit)
			if next > end {
				out = append(out, '\n')
			}
			text = false
			i = next
			continue
		}
		wasCode := fence != nil
		if fence != nil {
			if closesFence(body, fence) {
				fence = nil
			}
		} else {
			fence = opensFence(body)
		}
		text = !wasCode && fence == nil && len(bytes.TrimSpace(line)) > 0
		if out != nil {
			out = append(out, src[i:next]...)
		}
		i = next
	}
	if out == nil {
		return src
	}
	return out
}

// hardBreak ends the last line of out, which ends in a newline, in a hard
// line break.
func hardBreak(out []byte) []byte {
	if len(out) == 0 || out[len(out)-1] != '\n' {
		return out
	}
	out = bytes.TrimRight(out[:len(out)-1], " \t\r")
	return append(out, ' ', ' ', '\n')
}

// prefix is what a line's markers come to.
type prefix struct {
	bound int // the deepest the line may nest
	end   int // where its markers and the blanks after them end
}

// scan reads the markers at the start of l. Each quote marker counts one,
// each list marker one, and the blank columns before each of them one for
// every two (a tab to the next multiple of 4) up to the first list marker:
// what follows a list marker is in the item it opens, which no blank
// continues.
func scan(l []byte) prefix {
	var p prefix
	col, blank, opened := 0, 0, false
	for i := 0; ; {
		j, c := blanks(l, i, col)
		n := marker(l[j:])
		if n == 0 {
			p.end = j
			p.bound += blank / 2
			return p
		}
		if !opened {
			blank += c - col
		}
		opened = opened || l[j] != '>'
		p.bound++
		i, col = j+n, c+n
	}
}

// asText appends l to dst with its markers beyond the first limit levels
// made text.
func asText(dst, l []byte, limit int) []byte {
	col, blank, depth, opened := 0, 0, 0, false
	keep := 0
	for i := 0; ; {
		j, c := blanks(l, i, col)
		n := marker(l[j:])
		b := blank
		if !opened {
			b += c - col
		}
		if n == 0 || depth+1+b/2 > limit {
			break
		}
		blank = b
		opened = opened || l[j] != '>'
		depth++
		i, col = j+n, c+n
		keep = i
	}
	dst = append(dst, l[:keep]...)
	body := bytes.TrimLeft(l[keep:], " \t")
	switch {
	case len(body) == 0:
	case isPunct(body[0]):
		dst = append(dst, '\\')
	default:
		// "12." or "1)": the delimiter escaped, not to start a list.
		if d := digits(body); d > 0 && d < len(body) && (body[d] == '.' || body[d] == ')') {
			dst = append(dst, body[:d]...)
			dst = append(dst, '\\')
			body = body[d:]
		}
	}
	dst = append(dst, bytes.TrimRight(body, " \t\r")...)
	return append(dst, ' ', ' ')
}

// blanks skips the spaces and tabs of l from i, at column col.
func blanks(l []byte, i, col int) (int, int) {
	for ; i < len(l); i++ {
		switch l[i] {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return i, col
		}
	}
	return i, col
}

// marker is the length of the container marker b starts with: '>' (and
// one blank after it), or a list marker ('-', '+', '*', or up to nine
// digits and '.' or ')') followed by a blank or the line's end; 0 when it
// starts with none.
func marker(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	if b[0] == '>' {
		if len(b) > 1 && (b[1] == ' ' || b[1] == '\t') {
			return 2
		}
		return 1
	}
	n := 0
	switch {
	case b[0] == '-' || b[0] == '+' || b[0] == '*':
		n = 1
	default:
		d := digits(b)
		if d == 0 || d > 9 || d >= len(b) || b[d] != '.' && b[d] != ')' {
			return 0
		}
		n = d + 1
	}
	if n < len(b) && b[n] != ' ' && b[n] != '\t' && b[n] != '\r' {
		return 0
	}
	return n
}

func digits(b []byte) int {
	n := 0
	for n < len(b) && '0' <= b[n] && b[n] <= '9' {
		n++
	}
	return n
}

// opensFence is the fence a line's text opens (three or more backticks
// or tildes; backticks with none in the info after), or nil.
func opensFence(b []byte) []byte {
	if len(b) < 3 || b[0] != '`' && b[0] != '~' {
		return nil
	}
	n := 0
	for n < len(b) && b[n] == b[0] {
		n++
	}
	if n < 3 || b[0] == '`' && bytes.IndexByte(b[n:], '`') >= 0 {
		return nil
	}
	return b[:n:n]
}

// closesFence reports that a line's text closes fence.
func closesFence(b, fence []byte) bool {
	n := 0
	for n < len(b) && b[n] == fence[0] {
		n++
	}
	return n >= len(fence) && len(bytes.TrimSpace(b[n:])) == 0
}

// isPunct reports ASCII punctuation: a backslash before it makes it text.
func isPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}
