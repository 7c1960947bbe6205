package cmd

import (
	"fmt"
	"os"

	"github.com/agentfmt/agentfmt/internal/manpage"
	"github.com/spf13/cobra"
)

// newMan is 'agentfmt man [DIR]': the manual pages, generated from the
// command tree (flags, help, examples) so they never drift from it.
// Without DIR, agentfmt(1) goes to stdout; with DIR, a page for every
// command is written there (make man).
func newMan(root *cobra.Command) *cobra.Command {
	c := &cobra.Command{
		Use:   "man [DIR]",
		Short: "Write the manual pages (agentfmt.1 to stdout, or a page per command into DIR)",
		Long: `Write agentfmt's manual page to stdout, or a page for every command (agentfmt.1,
agentfmt-run.1, …) into DIR:

  agentfmt man > agentfmt.1 && man -l agentfmt.1
  agentfmt man /usr/local/share/man/man1`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			b := build()
			h := manpage.Header{Title: "AGENTFMT", Section: "1", Date: b.Date, Source: "agentfmt " + b.Version, Manual: "agentfmt manual"}
			if len(args) == 0 {
				return manpage.Write(c.OutOrStdout(), root, h)
			}
			if err := os.MkdirAll(args[0], 0o755); err != nil {
				return &exitError{code: ExitUsage, msg: err.Error()}
			}
			if err := manpage.WriteTree(root, h, args[0]); err != nil {
				return &exitError{code: ExitUsage, msg: fmt.Sprintf("man: %v", err)}
			}
			return nil
		},
	}
	return c
}
