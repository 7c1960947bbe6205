// Package input reads agent output line by line: lines of any length (no
// 64 KiB limit), CRLF and a BOM (at the start of any line) tolerated, over-long lines skipped without
// being held in memory, and a file holding one JSON array read as its
// elements.
package input

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// DefaultMaxLine is the longest line read whole unless told otherwise.
const DefaultMaxLine = 1 << 30

var bom = []byte("\xef\xbb\xbf")

// Line is one line of input.
type Line struct {
	// Bytes is the line without its line ending (and without a BOM at its
	// start). It is valid only until the next call to Next.
	Bytes []byte
	// N is the 1-based line number.
	N int
	// NoNewline reports a last line that ended without a newline: a
	// truncated write, when it is not valid JSON.
	NoNewline bool
	// Skipped is the length of a line longer than the limit (without its
	// line ending); its bytes were discarded and Bytes is empty.
	Skipped int64
	// Element is set for the elements of a top-level JSON array: Bytes is
	// one element, N the line it starts on.
	Element bool
	// Owned reports that the Reader will not reuse Bytes: the caller may
	// keep it without a copy. It is set for the elements of a JSON array
	// file, and for long lines (over OwnedMin) joined from pieces, so that
	// a line of many megabytes is not copied again. Where the system lends
	// a region (see region), a long line grows in place there, is not
	// Owned, and is valid until the next call to Next like any other.
	Owned bool
}

// OwnedMin is the length from which a line's buffer is handed over to the
// caller (Line.Owned) instead of being reused for the next line.
const OwnedMin = 1 << 20

// Reader reads lines from an io.Reader.
type Reader struct {
	r       *bufio.Reader
	max     int
	n       int
	buf     []byte
	first   bool
	pending []Line // elements of a JSON array file, served one by one
	arrBuf  []byte
	err     error    // a read error, returned once the lines before it are served
	blocks  [][]byte // a long line being read (see keep)
	size    int      // its length so far
	reg     region   // where a long line is gathered, when the system lends one
	inReg   bool     // the line being read is in reg
	doc     *document
	// afterText: the last line with content was text, not JSON (log lines
	// before a document): a lone "{" or "[" may begin a document there too.
	afterText bool
}

// readSize is the read buffer: lines shorter than it are handed out from
// it without a copy. (A bigger one saves a few system calls on a file but
// leaves the processor's cache.)
const readSize = 64 << 10

// NewReader returns a Reader; max is the longest line kept (0: the default).
func NewReader(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = DefaultMaxLine
	}
	return &Reader{r: bufio.NewReaderSize(r, readSize), max: max, first: true}
}

// Buffered reports how many bytes of whole lines are read from the source
// but not yet returned: zero means the next Next may block (the buffer is
// empty or holds only the start of a line), so output should be flushed
// before calling it.
func (r *Reader) Buffered() int {
	if len(r.pending) > 0 || r.err != nil {
		return 1
	}
	n := r.r.Buffered()
	if n == 0 {
		return 0
	}
	b, _ := r.r.Peek(n) // never blocks: n bytes are buffered
	if bytes.IndexByte(b, '\n') < 0 {
		return 0
	}
	return n
}

// Next returns the next line, or io.EOF after the last one. Read errors of
// the source are returned as they are, after the partial line read before
// them, and again on every later call.
func (r *Reader) Next() (Line, error) {
	if len(r.pending) > 0 {
		l := r.pending[0]
		r.pending[0] = Line{}
		r.pending = r.pending[1:]
		return l, nil
	}
	if r.doc != nil {
		return r.readDocument()
	}
	line, err := r.readLine()
	if err != nil {
		return line, err
	}
	if r.first {
		r.first = false
		if line.Skipped == 0 && (isArrayStart(line.Bytes) || isObjectStart(line.Bytes)) {
			return r.readArray(line)
		}
	}
	if r.afterText && line.Skipped == 0 && (isObjectStart(line.Bytes) || bytes.Equal(bytes.TrimSpace(line.Bytes), []byte("["))) {
		// A pretty-printed document after log lines (OpenClaw, Gemini's
		// credential notices in a 2>&1 capture); a whole array on one
		// line is a line, as everywhere after the first.
		r.afterText = false
		return r.readArray(line)
	}
	if t := bytes.TrimSpace(line.Bytes); len(t) > 0 || line.Skipped > 0 {
		r.afterText = line.Skipped == 0 && t[0] != '{' && !isArrayStart(t)
	}
	return line, nil
}

// readLine reads one line. The line is kept only while it is no longer
// than max: beyond that its bytes are counted and dropped as they come.
func (r *Reader) readLine() (Line, error) {
	if r.err != nil {
		return Line{}, r.err
	}
	if cap(r.buf) >= OwnedMin {
		r.buf = nil // handed over with the last line (Owned), or too big to keep
	}
	r.buf = r.buf[:0]
	if r.inReg {
		r.inReg = false
		r.reg.release()
	}
	var (
		total    int64 // bytes of the line read so far, line ending included
		last     byte  // the last byte read
		skipping bool
	)
	for {
		chunk, err := r.r.ReadSlice('\n')
		if total == 0 && bytes.HasPrefix(chunk, bom) {
			// A BOM at the start of any line: logs concatenated from
			// tools that write one per file.
			chunk = chunk[len(bom):]
		}
		total += int64(len(chunk))
		if len(chunk) > 0 {
			// The line's length so far: a CR at the end of a chunk may be
			// the start of a CRLF, so it does not count yet.
			prevLast := last
			last = chunk[len(chunk)-1]
			content := total
			switch {
			case err == nil: // chunk ends with '\n'
				content--
				if (len(chunk) >= 2 && chunk[len(chunk)-2] == '\r') || (len(chunk) == 1 && prevLast == '\r') {
					content--
				}
			case last == '\r':
				content--
			}
			if !skipping && content > int64(r.max) {
				skipping = true
				r.drop()
			}
			if !skipping && err == nil && total == int64(len(chunk)) {
				// The whole line is in the read buffer: handed out from
				// there, without a copy (it is valid until the next read).
				r.n++
				return Line{Bytes: trimEOL(chunk), N: r.n}, nil
			}
			if !skipping {
				r.keep(chunk)
			}
			if err == nil {
				r.n++
				if skipping {
					return Line{N: r.n, Skipped: content}, nil
				}
				b, owned := r.joined()
				return Line{Bytes: trimEOL(b), N: r.n, Owned: owned}, nil
			}
		}
		switch {
		case err == nil:
			// ReadSlice gives no empty chunk without an error; go on.
		case errors.Is(err, bufio.ErrBufferFull):
		case total == 0:
			if !errors.Is(err, io.EOF) {
				r.err = err
			}
			return Line{}, err
		default:
			// The last line, without a newline; a read error comes on the
			// next call.
			if !errors.Is(err, io.EOF) {
				r.err = err
			}
			r.n++
			if skipping {
				content := total
				if last == '\r' {
					content--
				}
				return Line{N: r.n, Skipped: content, NoNewline: true}, nil
			}
			b, owned := r.joined()
			return Line{Bytes: trimEOL(b), N: r.n, NoNewline: true, Owned: owned}, nil
		}
	}
}

// keep appends chunk to the line being read. Up to OwnedMin bytes go to
// r.buf, reused from line to line. A longer line grows in place in the
// region (see region), and is held once. Where the system lends no region
// it is gathered in blocks and joined once, at its end, into a buffer of
// its exact size: growing one buffer by appending would leave old copies
// of it to the garbage collector, several times the line's size in all.
func (r *Reader) keep(chunk []byte) {
	if r.inReg {
		r.reg.add(chunk)
		return
	}
	if r.blocks == nil && len(r.buf)+len(chunk) <= OwnedMin {
		r.buf = append(r.buf, chunk...)
		return
	}
	// The longest line kept, with its line ending.
	if r.blocks == nil && r.reg.start(r.buf, r.max+2) {
		r.inReg = true
		r.reg.add(chunk)
		return
	}
	if r.blocks == nil {
		r.blocks = [][]byte{r.buf}
		r.size = len(r.buf)
		r.buf = nil
	}
	for len(chunk) > 0 {
		b := r.blocks[len(r.blocks)-1]
		if len(b) == cap(b) {
			b = make([]byte, 0, max(OwnedMin, r.size/8))
			r.blocks = append(r.blocks, b)
		}
		n := min(cap(b)-len(b), len(chunk))
		r.blocks[len(r.blocks)-1] = append(b, chunk[:n]...)
		r.size += n
		chunk = chunk[n:]
	}
}

// drop forgets the line being read (it is over the limit).
func (r *Reader) drop() {
	if r.inReg {
		r.inReg = false
		r.reg.release()
	}
	r.blocks = nil
	r.buf = r.buf[:0]
	if cap(r.buf) >= OwnedMin {
		r.buf = nil // do not keep a huge buffer for the lines after
	}
}

// joined returns the line read, in one buffer, and whether it is the
// caller's to keep (Line.Owned): a line joined from blocks is; one in
// r.buf or the region is reused.
func (r *Reader) joined() ([]byte, bool) {
	if r.inReg {
		return r.reg.line(), false
	}
	if r.blocks == nil {
		return r.buf, false
	}
	out := make([]byte, 0, r.size)
	for i, b := range r.blocks {
		out = append(out, b...)
		r.blocks[i] = nil // the collector may take it during the copy
	}
	r.blocks = nil
	r.buf = out
	return out, true
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

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
// lines are then read as they came.
var DocumentLookAhead = 64 << 20

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
		case st == jsonscan.Bad, len(d.data) > DocumentLookAhead:
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
