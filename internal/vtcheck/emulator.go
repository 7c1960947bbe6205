package vtcheck

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// The terminal emulator is the program vtscreen of the module tools/vt,
// a module of its own so that the main go.mod does not name it (the
// binary never emulates a terminal). `go tool -n vtscreen`, run in
// tools/vt, builds it into Go's build cache once and names the file; a
// test process asks once.
var emulator = sync.OnceValue(func() string {
	dir, err := toolsVT()
	if err == nil {
		var out []byte
		cmd := exec.Command("go", "tool", "-n", "vtscreen")
		cmd.Dir = dir
		if out, err = cmd.Output(); err == nil {
			return strings.TrimSpace(string(out))
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		err = fmt.Errorf("go tool -n vtscreen in %s: %w", dir, err)
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
