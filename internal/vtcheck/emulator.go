package vtcheck

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// The terminal emulator is the program vtscreen of the module tools/vt,
// a module of its own so that the main go.mod does not name it (the
// binary never emulates a terminal); it is that module's tool, which the
// go command builds once into its cache (`go tool -n` says where). A test
// process finds it once.
var emulator = sync.OnceValue(func() string {
	dir, err := toolsVT()
	if err == nil {
		cmd := exec.Command("go", "tool", "-n", "vtscreen")
		cmd.Dir = dir
		var out []byte
		if out, err = cmd.Output(); err == nil {
			return strings.TrimSpace(string(out))
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = fmt.Errorf("go tool vtscreen in %s: %w: %s", dir, err, bytes.TrimSpace(exit.Stderr))
		}
	}
	panic("vtcheck: the terminal emulator cannot be built: " + err.Error())
})

// toolsVT is the directory of the module tools/vt: found from this
// file's place in the repository, else from the main module's go.mod.
func toolsVT() (string, error) {
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		dir := filepath.Join(filepath.Dir(file), "..", "..", "tools", "vt")
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
	}
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not in the agentfmt module (go env GOMOD is %q)", gomod)
	}
	return filepath.Join(filepath.Dir(gomod), "tools", "vt"), nil
}

// scrollback is how many rows scrolled off the top a terminal keeps: all
// of any test's output.
const scrollback = 1 << 24

// proc is one running emulator, driven by the requests vtscreen reads
// (tools/vt/vtscreen/main.go). It serves one Term at a time; a closed
// Term's waits in idle for the next NewTerm, which asks it for a new
// terminal: a process start costs more than most Terms' whole use. An
// idle process ends when this one does (its stdin reaches its end).
type proc struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
	buf    []byte
	failed bool
}

// maxIdle bounds the processes kept for reuse: more than the tests that
// read screens at once.
const maxIdle = 8

var idle struct {
	sync.Mutex
	procs []*proc
}

// take returns a process emulating an empty terminal width cells wide
// and height rows tall: an idle one, else a new one.
func take(width, height int) *proc {
	idle.Lock()
	var p *proc
	if n := len(idle.procs); n > 0 {
		p, idle.procs = idle.procs[n-1], idle.procs[:n-1]
	}
	idle.Unlock()
	if p != nil {
		p.send('n', size(width, height))
		return p
	}
	p = &proc{cmd: exec.Command(emulator(), strconv.Itoa(width), strconv.Itoa(height), strconv.Itoa(scrollback))}
	p.cmd.Stderr = &p.stderr
	p.cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	in, err := p.cmd.StdinPipe()
	if err == nil {
		var out io.ReadCloser
		if out, err = p.cmd.StdoutPipe(); err == nil {
			p.in, p.out = in, bufio.NewReader(out)
			err = p.cmd.Start()
		}
	}
	if err != nil {
		panic(fmt.Sprintf("vtcheck: starting the terminal emulator %s: %v", p.cmd.Path, err))
	}
	return p
}

// release keeps p for the next Term, or ends it when enough are idle.
func (p *proc) release() {
	if p.failed {
		return
	}
	p.buf = p.buf[:0] // what was written since the last read: nobody reads it
	idle.Lock()
	keep := len(idle.procs) < maxIdle
	if keep {
		idle.procs = append(idle.procs, p)
	}
	idle.Unlock()
	if !keep {
		_ = p.in.Close()
		if err := p.cmd.Wait(); err != nil {
			p.panic(err)
		}
	}
}

func size(width, height int) []byte {
	return binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uint32(width)), uint32(height))
}

// send makes one request: op, the length of body, body. Requests without
// a reply (all but r and a) wait in buf for the next that has one, and go
// with it.
func (p *proc) send(op byte, body []byte) {
	p.buf = binary.BigEndian.AppendUint32(append(p.buf, op), uint32(len(body)))
	p.buf = append(p.buf, body...)
	if op != 'r' && op != 'a' && len(p.buf) < 1<<20 {
		return
	}
	_, err := p.in.Write(p.buf)
	p.buf = p.buf[:0]
	if err != nil {
		p.fail(err)
	}
}

// rows reads the reply to a request for rows: their number, then each
// row's length and text.
func (p *proc) rows() []string {
	n, err := p.uint32()
	var rows []string
	for i := uint32(0); err == nil && i < n; i++ {
		var k uint32
		if k, err = p.uint32(); err == nil {
			row := make([]byte, k)
			_, err = io.ReadFull(p.out, row)
			rows = append(rows, string(row))
		}
	}
	if err != nil {
		p.fail(err)
	}
	return rows
}

func (p *proc) uint32() (uint32, error) {
	var b [4]byte
	_, err := io.ReadFull(p.out, b[:])
	return binary.BigEndian.Uint32(b[:]), err
}

// fail ends the process, never to be used again, and panics with what
// went wrong, how the process ended and what it said on stderr.
func (p *proc) fail(err error) {
	p.failed = true
	_ = p.in.Close()
	if end := p.cmd.Wait(); end != nil {
		err = fmt.Errorf("%w (%v)", err, end)
	}
	p.panic(err)
}

func (p *proc) panic(err error) {
	msg := fmt.Sprintf("vtcheck: the terminal emulator %s failed: %v", p.cmd.Path, err)
	if said := strings.TrimSpace(p.stderr.String()); said != "" {
		msg += ": " + said
	}
	panic(msg)
}
