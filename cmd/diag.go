package cmd

import (
	"fmt"
	"io"
	"os"

	"github.com/agentfmt/agentfmt/internal/sanitize"
)

// warnf writes one diagnostic line to stderr: "agentfmt: " and the message,
// made one safe line (sanitize.Line). Messages quote input (a --strict
// "not JSON: " echo, a --debug report, a file name, an error), and stderr
// is a terminal or the same CI log as the output: nothing in it may be
// obeyed, nor break the line.
func warnf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "agentfmt: %s\n", sanitize.Line(fmt.Sprintf(format, args...)))
}

// saveStack writes the stack of an internal error to a file, so that the
// report on stderr stays one line; it returns the file's name, or "" when
// it could not be written.
func saveStack(stack []byte) string {
	f, err := os.CreateTemp("", "agentfmt-crash-*.txt")
	if err != nil {
		return ""
	}
	defer f.Close()
	if _, err := f.Write(stack); err != nil {
		return ""
	}
	return f.Name()
}
