// Package execpath finds a command on a PATH given, as exec.LookPath does
// on the process's own: 'agentfmt run' looks on the PATH of the
// environment it was given, the pager on the PATH it will run with.
package execpath

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Find returns the file name runs on path (a list of folders, as $PATH):
// name itself when it holds a path separator. A name found in a relative
// folder is given as ./name, so that it runs as a path.
func Find(path, name string) (string, error) {
	if strings.ContainsRune(name, filepath.Separator) {
		if err := executable(name); err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		return name, nil
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if executable(p) == nil {
			if !filepath.IsAbs(p) {
				p = "." + string(filepath.Separator) + p
			}
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found on PATH (is it installed?)", name)
}

func executable(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return errors.New("is a directory")
	}
	if st.Mode()&0o111 == 0 {
		return errors.New("not executable")
	}
	return nil
}
