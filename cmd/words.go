package cmd

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

// What the words after agentfmt may be: FILEs or a command. Completion
// offers both; a word that is neither gets the command it was probably
// meant to be.

// completeFiles is the completion of a FILE: the files and folders that
// begin with what is typed (folders end in /, and then no space is added,
// so that completion goes on into them). The shell's own file completion
// is not enough where commands are offered too: bash uses it only when
// the program offers nothing.
func completeFiles(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	dir, base := filepath.Split(toComplete)
	read := dir
	if read == "" {
		read = "."
	}
	entries, err := os.ReadDir(read)
	if err != nil {
		return nil, cobra.ShellCompDirectiveDefault
	}
	var names []string
	directive := cobra.ShellCompDirectiveDefault
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(read, name)); err == nil {
				isDir = st.IsDir()
			}
		}
		if isDir {
			name += "/"
			directive = cobra.ShellCompDirectiveNoSpace
		}
		names = append(names, dir+name)
		if len(names) >= maxCompletions {
			break
		}
	}
	return names, directive
}

// maxCompletions bounds the files offered from one folder.
const maxCompletions = 2000

// checkTypo returns a usage error when the first word is neither a file
// nor a command but looks like a command: 'agentfmt sesions' is a typo
// of sessions, not a file to open.
func checkTypo(c *cobra.Command, args []string) error {
	if len(args) == 0 || args[0] == "-" || strings.ContainsRune(args[0], filepath.Separator) {
		return nil
	}
	if _, err := os.Stat(args[0]); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	s := c.SuggestionsFor(args[0])
	if len(s) == 0 {
		return nil
	}
	return usagef("%q is neither a file nor a command: did you mean %s?", args[0], strings.Join(s, " or "))
}
