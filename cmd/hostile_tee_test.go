package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/gen"
	"github.com/agentfmt/agentfmt/internal/testenv"
)

// TestTeeFullDisk: with stdout on /dev/full, --tee still gets the whole
// input (1 MiB: many times what a pipe or a write buffer holds), and the exit status is 74 (EX_IOERR) with one line on stderr.
func TestTeeFullDisk(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	bin := hostileBinary(t)
	dir := t.TempDir()
	var in bytes.Buffer
	if err := gen.Mixed(&in, 1<<20, 3); err != nil {
		t.Fatal(err)
	}
	path := writeTemp(t, dir, "in.jsonl", in.String())
	for _, format := range testenv.Cases([]string{"plain", "json", "markdown", "pretty"}, 1) {
		for _, viaStdin := range []bool{true, false} {
			tee := filepath.Join(dir, "tee-"+format+".jsonl")
			args := []string{"-o", format, "--tee", tee}
			if !viaStdin {
				args = append(args, path)
			}
			c := exec.Command(bin, args...)
			if viaStdin {
				c.Stdin = bytes.NewReader(in.Bytes()) // a pipe
			}
			full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			c.Stdout = full
			var stderr bytes.Buffer
			c.Stderr = &stderr
			_ = c.Run()
			full.Close()
			if code := c.ProcessState.ExitCode(); code != ExitIOErr {
				t.Errorf("%s (stdin %v): exit %d, want 74; stderr %q", format, viaStdin, code, stderr.String())
			}
			if n := strings.Count(stderr.String(), "\n"); n != 1 {
				t.Errorf("%s: stderr %q, want one line", format, stderr.String())
			}
			got, _ := os.ReadFile(tee)
			if !bytes.Equal(got, in.Bytes()) {
				t.Errorf("%s (stdin %v): --tee got %d of %d bytes", format, viaStdin, len(got), in.Len())
			}
		}
	}
}

// TestTeeIntoItsInput: --tee naming an input file is refused before
// anything is read or truncated.
func TestTeeIntoItsInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const content = `{"type":"system","subtype":"init","session_id":"s","model":"m"}` + "\n"
	path := writeTemp(t, dir, "run.jsonl", content)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--tee", path, path}, {"--tee", link, path}, {"--tee", path, "other.jsonl", link}} {
		r := cli{args: args}.run(t)
		if r.code != ExitUsage || !strings.Contains(r.stderr, "also an input") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
		if b, _ := os.ReadFile(path); string(b) != content {
			t.Errorf("%v: the input was changed to %q", args, b)
		}
	}
	// stdin redirected from the tee file.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := cli{args: []string{"--tee", path}, stdin: f}.run(t)
	if r.code != ExitUsage {
		t.Errorf("stdin is the tee file: exit %d, stderr %q", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(path); string(b) != content {
		t.Errorf("stdin: the input was changed to %q", b)
	}
}
