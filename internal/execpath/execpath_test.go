package execpath

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

// A command is found in the first folder of the PATH given that holds it
// executable; a directory or a file that is not executable is passed
// over; a name with a separator is taken as it is.
func TestFind(t *testing.T) {
	t.Parallel()
	a, b := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(a, "tool"), []byte("#!/bin/sh\n"), 0o644) // not executable
	os.WriteFile(filepath.Join(b, "tool"), []byte("#!/bin/sh\n"), 0o755)
	os.Mkdir(filepath.Join(a, "dir"), 0o755)
	path := a + string(filepath.ListSeparator) + b
	if got, err := Find(path, "tool"); err != nil || got != filepath.Join(b, "tool") {
		t.Errorf("Find tool = %q, %v", got, err)
	}
	if _, err := Find(path, "dir"); err == nil || !strings.Contains(err.Error(), "not found on PATH") {
		t.Errorf("Find dir: %v", err)
	}
	if _, err := Find("", filepath.Join(a, "tool")); err == nil || !strings.Contains(err.Error(), "not executable") {
		t.Errorf("Find of a path not executable: %v", err)
	}
}
