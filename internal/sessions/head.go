package sessions

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"sync"

	"github.com/tidwall/gjson"
)

// Bounds of the reading done to describe one session file: only its first
// lines are read, whatever its size.
const (
	// headBytes is the most read of one file.
	headBytes = 1 << 20
	// headLines is the most lines read of one file.
	headLines = 400
)

// head reads the first lines of a file, at most headBytes in all: a line
// longer than what is left of the budget comes back cut, and is the last.
type head struct {
	f    *os.File
	r    *bufio.Reader
	left int
	n    int
	buf  []byte
}

// heads are reused from file to file: a listing reads thousands.
// (Reads of 4 KiB: most of what is wanted is in a file's first
// kilobytes, and a listing reads thousands of files.)
var heads = sync.Pool{New: func() any { return &head{r: bufio.NewReaderSize(nil, headChunk)} }}

// headChunk is the size of one read.
const headChunk = 4 << 10

// peek returns the start of the next line, up to headChunk bytes of it,
// without reading past it: enough to tell, often, that the rest is not
// wanted. It is valid until the next call.
func (h *head) peek() []byte {
	if h.left <= 0 || h.n >= headLines {
		return nil
	}
	b, _ := h.r.Peek(min(headChunk, h.left))
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return b
}

func openHead(path string) (*head, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	h := heads.Get().(*head)
	h.f, h.left, h.n = f, headBytes, 0
	h.r.Reset(f)
	return h, nil
}

// next returns the next line, without its newline; ok is false at the end
// of the file or of the budget. The line is valid until the next call.
func (h *head) next() (line []byte, ok bool) {
	if h.left <= 0 || h.n >= headLines {
		return nil, false
	}
	h.buf = h.buf[:0]
	for {
		frag, err := h.r.ReadSlice('\n')
		if len(frag) > h.left {
			frag = frag[:h.left]
			err = io.EOF // the budget is spent: this line is the last
		}
		h.left -= len(frag)
		h.buf = append(h.buf, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			h.left = 0
			if len(h.buf) == 0 {
				return nil, false
			}
		}
		break
	}
	h.n++
	return bytes.TrimRight(h.buf, "\r\n"), true
}

// close closes the file; h is not used again.
func (h *head) close() {
	h.f.Close()
	h.f = nil
	h.r.Reset(nil)
	if cap(h.buf) > 256<<10 {
		h.buf = nil // not kept: one long line must not pin its memory
	}
	heads.Put(h)
}

// record parses a line that holds a JSON object (a cut one too: what it
// has up to the cut is read).
func record(line []byte) (gjson.Result, bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return gjson.Result{}, false
	}
	return gjson.ParseBytes(line), true
}
