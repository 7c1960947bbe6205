package vtcheck

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// scrollback is how many rows scrolled off the top a Term keeps: all of
// any test's output.
const scrollback = 1 << 24

// Term is an emulated terminal fed as the output arrives, for tests that
// read the screen while a run is live (Screen reads it once, at the end):
//
//	term := vtcheck.NewTerm(80, 24)
//	defer term.Close()
//	term.Write(frame)
//	rows := term.Rows() // what a person sees now
//
// The emulator runs in a process of its own (tools/vt's vtscreen, see
// emulator.go); Close ends it. A Term that cannot talk to it panics,
// naming the cause.
type Term struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
	buf    []byte
}

// NewTerm returns an empty terminal width cells wide and height rows tall,
// in newline mode as Screen's (a newline starts the next row at its first
// column, as a terminal's output processing makes it), that keeps every
// row scrolled off its top.
func NewTerm(width, height int) *Term {
	t := &Term{cmd: exec.Command(emulator(), strconv.Itoa(width), strconv.Itoa(height), strconv.Itoa(scrollback))}
	t.cmd.Stderr = &t.stderr
	in, err := t.cmd.StdinPipe()
	if err == nil {
		var out io.ReadCloser
		if out, err = t.cmd.StdoutPipe(); err == nil {
			t.in, t.out = in, bufio.NewReader(out)
			err = t.cmd.Start()
		}
	}
	if err != nil {
		panic(fmt.Sprintf("vtcheck: starting the terminal emulator %s: %v", t.cmd.Path, err))
	}
	return t
}

// Write feeds output to the terminal, every escape sequence the renderer
// does not write made visible (as Screen does). A write holds whole
// sequences: the renderer's frames do.
func (t *Term) Write(out []byte) { t.send('w', defuse(out)) }

// Resize makes the terminal width cells wide and height rows tall.
func (t *Term) Resize(width, height int) {
	t.send('s', binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uint32(width)), uint32(height)))
}

// Rows returns the rows on the screen now, top first, trailing spaces
// trimmed; the scrollback is not read.
func (t *Term) Rows() []string {
	t.send('r', nil)
	return t.rows()
}

// All returns every row the terminal holds: the scrollback first, then
// the screen, trailing spaces trimmed and trailing empty rows dropped.
func (t *Term) All() []string {
	t.send('a', nil)
	rows := t.rows()
	for len(rows) > 0 && rows[len(rows)-1] == "" {
		rows = rows[:len(rows)-1]
	}
	return rows
}

// Close ends the terminal's process. It may be called more than once.
func (t *Term) Close() {
	if t.in == nil {
		return
	}
	_ = t.in.Close()
	t.in = nil
	if err := t.cmd.Wait(); err != nil {
		t.fail(err)
	}
}

// send writes one request to the emulator: op, the length of body, body.
func (t *Term) send(op byte, body []byte) {
	if t.in == nil {
		panic("vtcheck: the terminal is used after Close")
	}
	t.buf = binary.BigEndian.AppendUint32(append(t.buf[:0], op), uint32(len(body)))
	_, err := t.in.Write(t.buf)
	if err == nil {
		_, err = t.in.Write(body)
	}
	if err != nil {
		t.fail(err)
	}
}

// rows reads the emulator's reply to a request for rows: their number,
// then each row's length and text.
func (t *Term) rows() []string {
	n, err := t.uint32()
	var rows []string
	for i := uint32(0); err == nil && i < n; i++ {
		var k uint32
		if k, err = t.uint32(); err == nil {
			row := make([]byte, k)
			_, err = io.ReadFull(t.out, row)
			rows = append(rows, string(row))
		}
	}
	if err != nil {
		t.fail(err)
	}
	return rows
}

func (t *Term) uint32() (uint32, error) {
	var b [4]byte
	_, err := io.ReadFull(t.out, b[:])
	return binary.BigEndian.Uint32(b[:]), err
}

// fail panics with what went wrong talking to the emulator and what it
// said on stderr.
func (t *Term) fail(err error) {
	if t.in != nil {
		_ = t.in.Close()
		t.in = nil
		_ = t.cmd.Wait()
	}
	panic(fmt.Sprintf("vtcheck: the terminal emulator %s failed: %v: %s", t.cmd.Path, err, strings.TrimSpace(t.stderr.String())))
}

var (
	// runningLine is the live region's line of a running call: a spinner
	// frame of the pretty renderer, the call's name.
	// (after a subagent's label, if any).
	runningLine = regexp.MustCompile(`^ *(?:[^ ┃][^┃]{0,40}? ┃ +)?[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (\S+)`)
	// moreRunning is the row that counts the running calls not shown.
	moreRunning = regexp.MustCompile(`… (\d+) more running`)
)

// CallsShown reads the running calls' lines on rows against want (a
// call's name: how many of that name run): missing is how many running
// calls have no line and no "… N more running" row counts; twice names a
// call with more lines than run (one left behind, or drawn twice).
func CallsShown(rows []string, want map[string]int) (missing int, twice string) {
	got, uncounted := map[string]int{}, 0
	for _, s := range rows {
		if m := runningLine.FindStringSubmatch(s); m != nil {
			got[m[1]]++
		}
		if m := moreRunning.FindStringSubmatch(s); m != nil {
			uncounted, _ = strconv.Atoi(m[1])
		}
	}
	for name, k := range want {
		missing += max(k-got[name], 0)
	}
	for name, k := range got {
		if k > want[name] {
			twice = name
		}
	}
	return max(missing-uncounted, 0), twice
}
