// Command vtscreen is the terminal emulator the tests read screens with
// (internal/vtcheck): one emulated terminal at a time, driven over stdin
// and stdout. It lives in a module of its own so that the main
// module, whose binary never emulates a terminal, does not depend on it.
//
// Usage: vtscreen WIDTH HEIGHT SCROLLBACK
//
// The terminal starts in newline mode (a newline starts the next row at
// its first column, as a terminal's output processing makes it) with a
// scrollback of SCROLLBACK rows. Each request on stdin is one byte, a
// 4-byte big-endian length and that many bytes:
//
//	w  the bytes are written to the terminal (no reply)
//	r  reply the rows of the screen, top first
//	a  reply the rows of the scrollback, then those of the screen
//	s  the terminal is resized: the bytes are the width and the height,
//	   4 bytes each (no reply)
//	n  a new terminal replaces the one written so far: the bytes are its
//	   width and height, as for s (no reply)
//
// A reply is the number of rows (4 bytes), then each row as its length
// (4 bytes) and its text, trailing spaces trimmed. The program ends at the
// end of stdin.
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "vtscreen:", err)
		os.Exit(1)
	}
}

func run(args []string, in io.Reader, out io.Writer) error {
	if len(args) != 3 {
		return errors.New("usage: vtscreen WIDTH HEIGHT SCROLLBACK")
	}
	var size [3]int
	for i, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil || n < 1 {
			return fmt.Errorf("%q is not a positive number", a)
		}
		size[i] = n
	}
	e := newTerminal(size[0], size[1], size[2])

	r, w := bufio.NewReader(in), bufio.NewWriter(out)
	for {
		op, err := r.ReadByte()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var n uint32
		if err := binary.Read(r, binary.BigEndian, &n); err != nil {
			return fmt.Errorf("request %q: %w", op, err)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return fmt.Errorf("request %q: %w", op, err)
		}
		switch op {
		case 'w':
			_, _ = e.Write(body)
		case 's', 'n':
			if n != 8 {
				return fmt.Errorf("request %q with %d bytes, want 8", op, n)
			}
			w, h := int(binary.BigEndian.Uint32(body)), int(binary.BigEndian.Uint32(body[4:]))
			if op == 'n' {
				e = newTerminal(w, h, size[2])
			} else {
				e.Resize(w, h)
			}
		case 'r':
			err = reply(w, screen(e))
		case 'a':
			var rows []string
			if sb := e.Scrollback(); sb != nil {
				for _, l := range sb.Lines() {
					rows = append(rows, l.String())
				}
			}
			err = reply(w, append(rows, screen(e)...))
		default:
			return fmt.Errorf("unknown request %q", op)
		}
		if err != nil {
			return err
		}
	}
}

// newTerminal is an empty terminal in newline mode.
func newTerminal(width, height, scrollback int) *vt.Emulator {
	e := vt.NewEmulator(width, height)
	e.SetScrollbackSize(scrollback)
	_, _ = e.Write([]byte("\x1b[20h"))
	return e
}

// screen is the rows on the screen now, top first.
func screen(e *vt.Emulator) []string {
	rows := make([]string, 0, e.Height())
	for y := range e.Height() {
		line := make(uv.Line, e.Width())
		for x := range line {
			if c := e.CellAt(x, y); c != nil {
				line[x] = *c
			}
		}
		rows = append(rows, line.String())
	}
	return rows
}

func reply(w *bufio.Writer, rows []string) error {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(rows)))
	_, _ = w.Write(n[:])
	for _, row := range rows {
		row = strings.TrimRight(row, " ")
		binary.BigEndian.PutUint32(n[:], uint32(len(row)))
		_, _ = w.Write(n[:])
		_, _ = w.WriteString(row)
	}
	return w.Flush()
}
