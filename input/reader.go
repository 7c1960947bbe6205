// Package input reads agent output line by line: lines of any length (no
// 64 KiB limit), CRLF and a BOM tolerated, over-long lines skipped without
// being held in memory, and a file holding one JSON array read as its
// elements.
package input

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/tidwall/gjson"
)

// DefaultMaxLine is the longest line read whole unless told otherwise.
const DefaultMaxLine = 1 << 30

// Line is one line of input.
type Line struct {
	// Bytes is the line without its line ending (and without a BOM on the
	// first line). It is valid only until the next call to Next.
	Bytes []byte
	// N is the 1-based line number.
	N int
	// NoNewline reports a last line that ended without a newline: a
	// truncated write, when it is not valid JSON.
	NoNewline bool
	// Skipped is the length of a line longer than the limit; its bytes were
	// discarded and Bytes is empty.
	Skipped int64
	// Element is set for the elements of a top-level JSON array: Bytes is
	// one element, N the line it starts on.
	Element bool
}

// Reader reads lines from an io.Reader.
type Reader struct {
	r       *bufio.Reader
	max     int
	n       int
	buf     []byte
	first   bool
	pending []Line // elements of a JSON array file, served one by one
	arrBuf  []byte
}

// NewReader returns a Reader; max is the longest line kept (0: the default).
func NewReader(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = DefaultMaxLine
	}
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), max: max, first: true}
}

// Buffered reports how many bytes are read from the source but not yet
// returned as lines: zero means the next Next may block, so output should
// be flushed before calling it.
func (r *Reader) Buffered() int {
	if len(r.pending) > 0 {
		return 1
	}
	return r.r.Buffered()
}

// Next returns the next line, or io.EOF after the last one. Read errors of
// the source are returned as they are.
func (r *Reader) Next() (Line, error) {
	if len(r.pending) > 0 {
		l := r.pending[0]
		r.pending = r.pending[1:]
		return l, nil
	}
	line, err := r.readLine()
	if err != nil {
		return line, err
	}
	if r.first {
		r.first = false
		line.Bytes = bytes.TrimPrefix(line.Bytes, []byte("\xef\xbb\xbf"))
		if isArrayStart(line.Bytes) {
			return r.readArray(line)
		}
	}
	return line, nil
}

func (r *Reader) readLine() (Line, error) {
	r.buf = r.buf[:0]
	var skipped int64
	for {
		chunk, err := r.r.ReadSlice('\n')
		if skipped > 0 {
			skipped += int64(len(chunk))
		} else if len(r.buf)+len(chunk) > r.max+2 {
			skipped = int64(len(r.buf) + len(chunk))
			r.buf = r.buf[:0]
		} else {
			r.buf = append(r.buf, chunk...)
		}
		switch {
		case err == nil:
			r.n++
			if skipped > 0 {
				return Line{N: r.n, Skipped: skipped - 1}, nil
			}
			return Line{Bytes: trimEOL(r.buf), N: r.n}, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(r.buf) == 0 && skipped == 0 {
				return Line{}, io.EOF
			}
			r.n++
			if skipped > 0 {
				return Line{N: r.n, Skipped: skipped, NoNewline: true}, nil
			}
			return Line{Bytes: trimEOL(r.buf), N: r.n, NoNewline: true}, nil
		default:
			if len(r.buf) > 0 {
				// Hand over what was read; the error comes on the next call.
				r.n++
				return Line{Bytes: trimEOL(r.buf), N: r.n, NoNewline: true}, nil
			}
			return Line{}, err
		}
	}
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

// readArray reads the whole input after a first line that opens an array.
// When it is one valid JSON array, its elements are returned one by one;
// otherwise the lines are returned as they are.
func (r *Reader) readArray(first Line) (Line, error) {
	firstBytes := append([]byte(nil), first.Bytes...)
	data := append([]byte(nil), firstBytes...)
	data = append(data, '\n')
	startN := first.N
	var lines []Line
	for {
		l, err := r.readLine()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Line{}, err
		}
		if l.Skipped > 0 {
			lines = append(lines, l)
			continue
		}
		b := append([]byte(nil), l.Bytes...)
		lines = append(lines, Line{Bytes: b, N: l.N, NoNewline: l.NoNewline})
		data = append(data, l.Bytes...)
		data = append(data, '\n')
	}
	if gjson.ValidBytes(data) && bytes.HasPrefix(bytes.TrimSpace(data), []byte("[")) {
		r.arrBuf = data
		arr := gjson.ParseBytes(data)
		arr.ForEach(func(_, v gjson.Result) bool {
			n := startN + bytes.Count(data[:v.Index], []byte("\n"))
			r.pending = append(r.pending, Line{Bytes: data[v.Index : v.Index+len(v.Raw)], N: n, Element: true})
			return true
		})
		if len(r.pending) == 0 {
			return Line{}, io.EOF
		}
		return r.Next()
	}
	// Not an array after all: the lines as they came.
	r.pending = lines
	return Line{Bytes: firstBytes, N: first.N, NoNewline: first.NoNewline}, nil
}
