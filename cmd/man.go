package cmd

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// newMan is the hidden 'agentfmt man [DIR]': the manual pages, generated
// from the command tree (flags, help, examples) so they never drift from
// it. Without DIR, agentfmt(1) goes to stdout; with DIR, a page for every
// command is written there (make man).
func newMan(root *cobra.Command) *cobra.Command {
	c := &cobra.Command{
		Use:    "man [DIR]",
		Short:  "Write the manual pages (agentfmt.1 to stdout, or every page into DIR)",
		Hidden: true,
		Args:   cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			header := &doc.GenManHeader{Title: "AGENTFMT", Section: "1", Source: "agentfmt " + Version(), Manual: "agentfmt manual"}
			root.DisableAutoGenTag = true
			if len(args) == 0 {
				return doc.GenMan(root, header, c.OutOrStdout())
			}
			if err := os.MkdirAll(args[0], 0o755); err != nil {
				return &exitError{code: ExitUsage, msg: err.Error()}
			}
			if err := doc.GenManTree(root, header, args[0]); err != nil {
				return &exitError{code: ExitUsage, msg: fmt.Sprintf("man: %v", err)}
			}
			return nil
		},
	}
	return c
}
