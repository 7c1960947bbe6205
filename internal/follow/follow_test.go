package follow

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

// The file followed is replaced (rotated) by one agentfmt may not read:
// reading ends with an error that says so, once the old file is read to
// its end.
func TestRotatedUnreadable(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	lines := []string{`{"type":"a"}` + "\n", `{"type":"b"}` + "\n", `{"type":"c"}` + "\n", `{"type":"d"}` + "\n"}
	os.WriteFile(path, []byte(strings.Join(lines[:3], "")), 0o644)
	src, err := Open(path, Options{Poll: 5 * time.Millisecond, Settle: 100 * time.Millisecond, Safety: time.Second, Stop: make(chan struct{})})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	src.open = func(name string) (*os.File, error) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	got := make(chan error, 1)
	var read strings.Builder
	go func() {
		_, err := io.Copy(&read, src)
		got <- err
	}()
	time.Sleep(50 * time.Millisecond)
	os.Rename(path, path+".1")
	os.WriteFile(path, []byte(lines[3]), 0o600)
	select {
	case err := <-got:
		if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "may not read") {
			t.Errorf("error %v, want one saying the new file may not be read", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still following the old file")
	}
	if read.String() != strings.Join(lines[:3], "") {
		t.Errorf("the old file not read whole: %q", read.String())
	}
}

// A directory is not followed: the error names it.
func TestOpenDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, err := Open(dir, Options{Poll: time.Millisecond})
	var fe *Error
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), dir+": is a directory") {
		t.Errorf("Open of a directory: %v", err)
	}
}
