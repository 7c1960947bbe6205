// This file reads a JSON array or a pretty-printed document: a first line
// that opens one, and what the reader holds until it knows which it is.

package input

import (
	"bytes"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// isArrayStart reports a first line that opens a JSON array of objects:
// "[", "[{…" or "[ {…". A text line such as "[INFO] starting" is not.
func isArrayStart(b []byte) bool {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '[' {
		return false
	}
	rest := bytes.TrimSpace(b[1:])
	return len(rest) == 0 || rest[0] == '{' || rest[0] == ']'
}

// isObjectStart reports a first line that is only "{": the start of one
// pretty-printed JSON object (gemini --output-format json).
func isObjectStart(b []byte) bool {
	return bytes.Equal(bytes.TrimSpace(b), []byte("{"))
}

// readArray handles a first line that opens an array (or, alone on its
// line, an object). A first line that is a whole array gives its elements,
// and reading goes on line by line after it (nothing more is held).
// Otherwise the value spans lines (a pretty-printed file): it is judged
// line by line as it comes (see readDocument).
func (r *Reader) readArray(first Line) (Line, error) {
	if jsonscan.Valid(first.Bytes) {
		if first.Owned {
			r.arrBuf = first.Bytes
		} else {
			r.arrBuf = append([]byte(nil), first.Bytes...)
		}
		r.pending = r.pending[:0]
		r.elements(r.arrBuf, first.N)
		return r.Next() // the first element, or the line after "[]"
	}
	d := &document{array: bytes.TrimSpace(first.Bytes)[0] == '['}
	d.add(Line{Bytes: first.Bytes, N: first.N, NoNewline: first.NoNewline})
	r.doc = d
	return r.readDocument()
}

// DocumentLookAhead is the most a pretty-printed document (or one element
// of a pretty-printed array) is held before it is judged not one: its
// lines are then read as they came (unless Reader.LookAhead says
// otherwise).
const DocumentLookAhead = 64 << 20

func (r *Reader) lookAhead() int {
	if r.LookAhead > 0 {
		return r.LookAhead
	}
	return DocumentLookAhead
}

// document is a value that spans lines, from a first line of a lone "{"
// or an unfinished "[": its lines are held only while they are still the
// start of one JSON value (jsonscan.Stream, no line scanned twice). An
// object is one value once it closes; an array's elements are handed on
// one by one as each completes, so a long pretty-printed array is shown
// live and never held whole. Anything else (NDJSON after a lone "{", a
// cut-off file, a line over --max-line, more than DocumentLookAhead) gives
// the lines held as they came, and reading goes on line by line.
type document struct {
	s     jsonscan.Stream
	data  []byte // the held lines, each with a '\n'
	lines []heldLine
	array bool
}

// heldLine is a held line: data[start:end], or a skipped line (start -1).
type heldLine struct {
	start, end int
	l          Line
	rest       bool // the rest of a line an element ended in
}

func (d *document) add(l Line) {
	if l.Skipped > 0 {
		d.lines = append(d.lines, heldLine{start: -1, end: -1, l: l})
		return
	}
	start := len(d.data)
	d.data = append(d.data, l.Bytes...)
	d.lines = append(d.lines, heldLine{start: start, end: len(d.data), l: Line{N: l.N, NoNewline: l.NoNewline}})
	d.data = append(d.data, '\n')
}

// readDocument goes on with the document being read.
func (r *Reader) readDocument() (Line, error) {
	d := r.doc
	for {
		st := d.s.Scan(d.data)
		if d.array && len(d.s.Elems) > 0 {
			r.handElements(d)
		}
		if len(r.pending) > 0 {
			return r.Next() // back here for the rest
		}
		switch {
		case st == jsonscan.Done:
			r.doc = nil
			r.first = true // another document may follow
			if !d.array {
				obj := bytes.TrimSpace(d.data[:d.s.End])
				r.pending = append(r.pending, Line{Bytes: obj, N: d.lines[0].l.N, Element: true, Owned: true})
			}
			return r.Next()
		case st == jsonscan.Bad && d.s.Glued:
			return r.glued(d)
		case st == jsonscan.Bad, len(d.data) > r.lookAhead():
			return r.asTheyCame(d)
		}
		l, err := r.readLine()
		if err != nil {
			// io.EOF, or a read error that readLine keeps for later: the
			// value is cut off.
			if len(d.lines) == 0 {
				r.doc = nil
				return Line{}, err
			}
			return r.asTheyCame(d)
		}
		d.add(l)
		if l.Skipped > 0 {
			return r.asTheyCame(d)
		}
	}
}

// glued ends a document whose closing bracket has text glued after it
// on the same line (a program's stderr after a document printed without
// a newline, as `2>&1` gives it): the value is served, then the rest of
// that line as a line of its own, under the same number.
func (r *Reader) glued(d *document) (Line, error) {
	r.doc = nil
	r.first = true
	last := d.lines[len(d.lines)-1]
	if !d.array {
		obj := bytes.TrimSpace(d.data[:d.s.End])
		r.pending = append(r.pending, Line{Bytes: obj, N: d.lines[0].l.N, Element: true, Owned: true})
	}
	rest := d.data[d.s.Rest:last.end]
	r.pending = append(r.pending, Line{Bytes: rest, N: last.l.N, NoNewline: last.l.NoNewline, Owned: true})
	return r.Next()
}

// asTheyCame ends the document: its held lines are served as lines.
func (r *Reader) asTheyCame(d *document) (Line, error) {
	r.doc = nil
	for _, h := range d.lines {
		l := h.l
		if h.start >= 0 {
			l.Bytes = d.data[h.start:h.end]
			l.Owned = true // data is not reused
			if h.rest && len(bytes.Trim(l.Bytes, " \t\r,")) == 0 {
				continue // the comma after an element handed on
			}
		}
		r.pending = append(r.pending, l)
	}
	return r.Next()
}

// handElements queues the completed elements of an array document (each
// in its own memory) and drops the lines wholly read.
func (r *Reader) handElements(d *document) {
	k := 0
	for _, e := range d.s.Elems {
		for k+1 < len(d.lines) && (d.lines[k].start < 0 || d.lines[k].end < e[0]) {
			k++
		}
		r.pending = append(r.pending, Line{Bytes: bytes.Clone(d.data[e[0]:e[1]]), N: d.lines[k].l.N, Element: true, Owned: true})
	}
	// What is read is dropped: whole lines, and the start of a line an
	// element ended in (its rest is held from there).
	cut := d.s.Elems[len(d.s.Elems)-1][1]
	d.s.Elems = d.s.Elems[:0]
	keep := 0
	for keep < len(d.lines) && (d.lines[keep].start < 0 || d.lines[keep].end <= cut) {
		keep++
	}
	d.lines = append(d.lines[:0], d.lines[keep:]...)
	for i := range d.lines {
		h := &d.lines[i]
		if h.start < 0 {
			continue
		}
		h.rest = h.rest || h.start < cut
		h.start = max(h.start-cut, 0)
		h.end -= cut
	}
	d.data = append(d.data[:0], d.data[cut:]...)
	d.s.Rebase(cut)
}

// elements queues the elements of the JSON array data, whose first byte
// is on line n.
func (r *Reader) elements(data []byte, n int) {
	arr := gjson.ParseBytes(data)
	nl, at := n, 0
	arr.ForEach(func(_, v gjson.Result) bool {
		nl += bytes.Count(data[at:v.Index], []byte("\n"))
		at = v.Index
		r.pending = append(r.pending, Line{Bytes: data[v.Index : v.Index+len(v.Raw)], N: nl, Element: true, Owned: true})
		return true
	})
}
