package cmd

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/manpage"
	"github.com/agentfmt/agentfmt/internal/termwrap"
	"github.com/spf13/cobra"
)

// --help, for every command: Usage first, then what the command does, its
// examples, commands and flags; the root's environment variables and exit
// status last, where they do not push the usage off the screen. Prose is
// wrapped to the terminal's width (80 columns when stdout is no terminal,
// as for a file or a pipe to less); lines that begin with a space (tables,
// examples) are kept, and cut with a hanging indent only when too long.

// helpWidth is the width --help wraps to.
func helpWidth(env *Env) int {
	if env.isTerminal(env.Stdout) {
		if w, _, ok := termSize(env, env.Stdout); ok {
			return max(w, 40)
		}
	}
	return 80
}

// setHelp makes root's help, and every command's, the layout above.
func setHelp(env *Env, root *cobra.Command) {
	root.SetHelpFunc(func(c *cobra.Command, _ []string) {
		fmt.Fprint(c.OutOrStdout(), helpText(c, helpWidth(env)))
	})
}

// helpText is the help of c at width columns.
func helpText(c *cobra.Command, width int) string {
	var b strings.Builder
	b.WriteString("Usage:\n")
	if c.Runnable() {
		b.WriteString(wrapHelp("  "+c.UseLine(), width) + "\n")
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("  " + c.CommandPath() + " [command]\n")
	}
	desc := c.Long
	if desc == "" {
		desc = c.Short
	}
	b.WriteString("\n" + wrapHelp(desc, width) + "\n")
	if c.Example != "" {
		b.WriteString("\nExamples:\n" + wrapHelp(strings.TrimRight(c.Example, "\n"), width) + "\n")
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\nCommands:\n")
		pad := 0
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() || s.Name() == "help" {
				pad = max(pad, len(s.Name()))
			}
		}
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() || s.Name() == "help" {
				b.WriteString(hang(fmt.Sprintf("  %-*s  %s", pad, s.Name(), s.Short), pad+4, width) + "\n")
			}
		}
	}
	if fs := c.LocalFlags(); fs.HasAvailableFlags() {
		b.WriteString("\nFlags:\n" + fs.FlagUsagesWrapped(width))
	}
	if fs := c.InheritedFlags(); fs.HasAvailableFlags() {
		b.WriteString("\nGlobal Flags:\n" + fs.FlagUsagesWrapped(width))
	}
	for _, s := range manpage.Sections(c) {
		b.WriteString("\n" + s.Title + ":\n" + wrapHelp(s.Text, width) + "\n")
	}
	if c.HasAvailableSubCommands() {
		b.WriteString(fmt.Sprintf("\nUse \"%s [command] --help\" for more about a command.\n", c.CommandPath()))
	}
	return b.String()
}

// wrapHelp wraps help text to width: each paragraph of prose (lines that
// do not begin with a space, up to a blank or an indented line) is filled
// again; an indented line is kept, cut only when longer than width, its
// continuation under its text.
func wrapHelp(s string, width int) string {
	var out []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, fill(strings.Join(para, " "), width)...)
			para = nil
		}
	}
	for _, l := range strings.Split(s, "\n") {
		switch {
		case strings.TrimSpace(l) == "":
			flush()
			out = append(out, "")
		case strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t"):
			flush()
			ind := len(l) - len(strings.TrimLeft(l, " \t"))
			// A table's second column: where two spaces end.
			if i := strings.Index(l[ind:], "  "); i > 0 {
				j := ind + i
				for j < len(l) && l[j] == ' ' {
					j++
				}
				if j < len(l) && j < width/2 {
					ind = j
				}
			}
			out = append(out, hang(l, ind, width))
		default:
			para = append(para, strings.TrimSpace(l))
		}
	}
	flush()
	return strings.Join(out, "\n")
}

// fill breaks prose into lines of at most width cells at spaces (a word
// longer than width has a line of its own).
func fill(s string, width int) []string {
	var lines []string
	line, w := "", 0
	for _, word := range strings.Fields(s) {
		ww := termwrap.Width(word)
		if line != "" && w+1+ww > width {
			lines = append(lines, line)
			line, w = "", 0
		}
		if line != "" {
			line += " "
			w++
		}
		line += word
		w += ww
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// hang cuts a line longer than width at spaces, its continuation lines
// indented by ind; the first keeps its own spacing (a table's columns).
func hang(l string, ind, width int) string {
	if termwrap.Width(l) <= width || ind >= width-10 {
		return l
	}
	var out []string
	rest, avail, min := l, width, len(l)-len(strings.TrimLeft(l, " \t"))+1
	for termwrap.Width(rest) > avail {
		n, _ := termwrap.Fit(rest, avail+1) // (a space just past the edge is a cut too)
		cut := strings.LastIndexByte(rest[:n], ' ')
		if cut < min {
			break // one word longer than the room: left long
		}
		out = append(out, strings.TrimRight(rest[:cut], " "))
		rest = strings.Repeat(" ", ind) + strings.TrimLeft(rest[cut:], " ")
		avail, min = width, ind+1
	}
	return strings.Join(append(out, rest), "\n")
}
