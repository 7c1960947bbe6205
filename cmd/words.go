package cmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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

// suggestFlag adds to an unknown flag's error the flags of c it was
// probably meant to be, as a mistyped command gets: "unknown flag:
// --formt: did you mean --format?". A long flag typed with one dash
// (-format) is looked for as the long flag it is.
func suggestFlag(c *cobra.Command, err error) error {
	msg := err.Error()
	var typed string
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		typed = name
	} else if _, word, ok := strings.Cut(msg, "' in -"); ok && strings.HasPrefix(msg, "unknown shorthand flag: ") && len(word) > 2 {
		typed = word
	}
	typed, _, _ = strings.Cut(typed, "=")
	if typed == "" {
		return err
	}
	var best []string
	bestD := 3 // (at most two edits, as commands)
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := editDistance(strings.ToLower(typed), f.Name)
		if strings.HasPrefix(f.Name, typed) && len(typed) >= 3 {
			d = min(d, 1)
		}
		switch {
		case d < bestD:
			best, bestD = []string{"--" + f.Name}, d
		case d == bestD && d < 3:
			best = append(best, "--"+f.Name)
		}
	})
	if len(best) == 0 {
		return err
	}
	return fmt.Errorf("%s: did you mean %s?", msg, strings.Join(best, " or "))
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
