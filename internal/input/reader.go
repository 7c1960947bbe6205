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

	// LookAhead is the most a pretty-printed document is held before it
	// is judged not one (0: DocumentLookAhead).
	LookAhead int
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
