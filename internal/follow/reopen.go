package follow

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
)

// What a followed file goes through under real log handling (logrotate,
// a writer that starts the file again), as `tail -F` meets it: the file
// truncated, started again, replaced, holes of NULs.

// headLen is how many of a file's first bytes tell it from another run
// written behind the same name: enough for the first line's session id,
// which follows a prefix every run shares.
const headLen = 4096

// reopened handles truncation and rotation at the end of the file. A file
// that replaced the one read but may not be read ends the following with
// an error: the run goes on where agentfmt cannot see it.
func (fl *File) reopened() (bool, error) {
	st, err := os.Stat(fl.name)
	fl.missing = errors.Is(err, fs.ErrNotExist)
	if err != nil {
		return false, nil // moved away and not yet replaced: keep the old file
	}
	if !os.SameFile(st, fl.info) {
		open := os.Open
		if fl.open != nil {
			open = fl.open
		}
		f, err := open(fl.name)
		if errors.Is(err, fs.ErrPermission) {
			return false, fmt.Errorf("%s was replaced (rotated) by a file agentfmt may not read (%w): the run cannot be followed further", fl.name, fs.ErrPermission)
		}
		if err != nil {
			return false, nil
		}
		if fl.use(f) != nil {
			f.Close()
			return false, nil
		}
		fl.lastData = time.Now()
		fl.Say(fl.name + " was replaced (rotated): reading the new file from the start")
		return true, nil
	}
	if st.Size() < fl.off {
		if !fl.rewind() {
			return false, nil
		}
		fl.Say(fl.name + " was truncated: reading it from the start")
		return true, nil
	}
	return false, nil
}

// rewind reads the file again from its start.
func (fl *File) rewind() bool {
	if _, err := fl.f.Seek(0, io.SeekStart); err != nil {
		return false
	}
	fl.off, fl.head, fl.lineStart = 0, fl.head[:0], true
	fl.lastData = time.Now()
	return true
}

// noteHead keeps the file's first bytes, of b read at fl.off.
func (fl *File) noteHead(b []byte) {
	if fl.off < headLen {
		fl.head = append(fl.head, b[:min(len(b), headLen-int(fl.off))]...)
	}
}

// restarted reports that the file's first bytes are no longer those read:
// another run was written behind the same name (`agent … > run.jsonl`
// again), maybe past the old size before agentfmt looked, so that neither
// the size nor the name tells. Copytruncate's hole of NULs counts too.
func (fl *File) restarted() bool {
	if len(fl.head) == 0 {
		return false
	}
	var buf [headLen]byte
	n, _ := fl.f.ReadAt(buf[:len(fl.head)], 0)
	return !bytes.Equal(buf[:n], fl.head)
}

// skipNULs drops the NULs that begin a line in b, in place, and returns
// how much is left: a writer that does not append (`>`) goes on at its old
// offset after a copytruncate, leaving a hole that reads as NULs before
// its next line. NULs within a line are the line's.
func (fl *File) skipNULs(b []byte) int {
	start := fl.lineStart
	fl.lineStart = b[len(b)-1] == '\n'
	if !(start && b[0] == 0) && !bytes.Contains(b, []byte{'\n', 0}) {
		return len(b) // (no line here begins with a NUL)
	}
	w := 0
	for _, c := range b {
		if c == 0 && start {
			continue
		}
		start = c == '\n'
		b[w] = c
		w++
	}
	return w
}

// isDocument reports that a file holds one JSON document written over
// several lines (a Gemini CLI chat saved as .json), not JSON lines: its
// first line is not a JSON value of its own.
func isDocument(f *os.File) bool {
	var buf [4096]byte
	n, _ := f.ReadAt(buf[:], 0)
	b := bytes.TrimLeft(buf[:n], " \t\r\n")
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	line, _, whole := bytes.Cut(b, []byte{'\n'})
	return whole && !jsonscan.Valid(bytes.TrimSpace(line))
}
