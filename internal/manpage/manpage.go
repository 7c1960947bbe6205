// Package manpage writes manual pages (man(7) roff) from a cobra command
// tree: name, synopsis, description, options, examples and the related
// pages. It is written here rather than taken from cobra/doc, which
// renders help text as markdown through blackfriday: that library was
// linked into, and initialised at, every start of agentfmt for a command
// seldom run, and read the help's AGENTFMT_<FLAG> as an HTML tag.
//
// Help text is taken as it is written for --help: paragraphs of prose
// separated by blank lines are filled by the pager; lines that begin with
// a space (tables, lists, examples) are kept as they are.
package manpage

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Header is what the .TH line says.
type Header struct {
	Title   string // AGENTFMT
	Section string // 1
	Date    string // YYYY-MM-DD, or ""
	Source  string // agentfmt v1.2.3
	Manual  string // agentfmt manual
}

// Section is a part of a command's page after its examples (ENVIRONMENT,
// EXIT STATUS), also shown at the end of its --help.
type Section struct {
	Title string // "Environment": upper case on the page
	Text  string // help text, as Long is written
}

// sectionKey is the annotation that holds c's sections, in order.
const sectionKey = "manpage.section."

// AddSection adds a section to c's page, after the ones added before.
func AddSection(c *cobra.Command, title, text string) {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[fmt.Sprintf("%s%03d", sectionKey, len(Sections(c)))] = title + "\x00" + text
}

// Sections are the sections added to c, in order.
func Sections(c *cobra.Command) []Section {
	var keys []string
	for k := range c.Annotations {
		if strings.HasPrefix(k, sectionKey) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []Section
	for _, k := range keys {
		title, text, _ := strings.Cut(c.Annotations[k], "\x00")
		out = append(out, Section{Title: title, Text: text})
	}
	return out
}

// Write writes the page of c to w, alone: its commands are listed on it,
// and SEE ALSO names only the pages written with it (none; WriteTree
// writes them all).
func Write(w io.Writer, c *cobra.Command, h Header) error { return write(w, c, h, false) }

func write(w io.Writer, c *cobra.Command, h Header, tree bool) error {
	var b strings.Builder
	title := strings.ToUpper(strings.ReplaceAll(c.CommandPath(), " ", "-"))
	if c.Parent() == nil && h.Title != "" {
		title = h.Title
	}
	fmt.Fprintf(&b, ".TH %s %s %s %s %s\n", quote(title), quote(h.Section), quote(h.Date), quote(h.Source), quote(h.Manual))
	b.WriteString(".nh\n.ad l\n")
	b.WriteString(".SH NAME\n")
	fmt.Fprintf(&b, "%s \\- %s\n", escape(strings.ReplaceAll(c.CommandPath(), " ", "-")), escape(c.Short))
	b.WriteString(".SH SYNOPSIS\n")
	fmt.Fprintf(&b, ".B %s\n", escape(c.CommandPath()))
	if args := strings.TrimSpace(strings.TrimPrefix(c.UseLine(), c.CommandPath())); args != "" {
		b.WriteString(escape(args) + "\n")
	}
	desc := c.Long
	if desc == "" {
		desc = c.Short
	}
	b.WriteString(".SH DESCRIPTION\n")
	text(&b, desc)
	if fs := c.NonInheritedFlags(); fs.HasAvailableFlags() {
		b.WriteString(".SH OPTIONS\n")
		flags(&b, fs)
	}
	if fs := c.InheritedFlags(); fs.HasAvailableFlags() {
		b.WriteString(".SH OPTIONS INHERITED FROM PARENT COMMANDS\n")
		flags(&b, fs)
	}
	if c.Example != "" {
		b.WriteString(".SH EXAMPLES\n.PP\n.nf\n.RS 4\n")
		for _, l := range strings.Split(strings.TrimRight(c.Example, "\n"), "\n") {
			b.WriteString(line(strings.TrimPrefix(l, "  ")) + "\n")
		}
		b.WriteString(".RE\n.fi\n")
	}
	if !tree {
		if subs := commands(c); len(subs) > 0 {
			b.WriteString(".SH COMMANDS\n")
			for _, s := range subs {
				b.WriteString(".TP\n\\fB" + escape(s.CommandPath()) + "\\fR\n" + line(s.Short) + "\n")
			}
			b.WriteString(".PP\n" + line("Each has a page of its own: "+c.CommandPath()+" man DIR writes them all.") + "\n")
		}
	}
	for _, s := range Sections(c) {
		b.WriteString(".SH " + escape(strings.ToUpper(s.Title)) + "\n")
		text(&b, s.Text)
	}
	if see := related(c, tree); len(see) > 0 {
		b.WriteString(".SH SEE ALSO\n")
		b.WriteString(strings.Join(see, ", ") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteTree writes a page for c and for each of its available
// subcommands into dir: agentfmt.1, agentfmt-run.1, …
func WriteTree(c *cobra.Command, h Header, dir string) error {
	for _, sub := range c.Commands() {
		if !sub.IsAvailableCommand() || sub.IsAdditionalHelpTopicCommand() {
			continue
		}
		if err := WriteTree(sub, h, dir); err != nil {
			return err
		}
	}
	name := strings.ReplaceAll(c.CommandPath(), " ", "-") + "." + h.Section
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	if err := write(f, c, h, true); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// related are the pages of the parent and the subcommands, when they are
// written too (tree).
func related(c *cobra.Command, tree bool) []string {
	if !tree {
		return nil
	}
	var see []string
	if p := c.Parent(); p != nil {
		see = append(see, page(p))
	}
	var subs []string
	for _, s := range commands(c) {
		subs = append(subs, page(s))
	}
	sort.Strings(subs)
	return append(see, subs...)
}

// commands are c's subcommands that have pages.
func commands(c *cobra.Command) []*cobra.Command {
	var subs []*cobra.Command
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() && !s.IsAdditionalHelpTopicCommand() {
			subs = append(subs, s)
		}
	}
	return subs
}

func page(c *cobra.Command) string {
	return "\\fB" + escape(strings.ReplaceAll(c.CommandPath(), " ", "-")) + "\\fR(1)"
}

// flags writes one tagged paragraph per flag.
func flags(b *strings.Builder, fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		b.WriteString(".TP\n")
		name := "\\fB\\-\\-" + escape(f.Name) + "\\fR"
		if f.Shorthand != "" {
			name = "\\fB\\-" + escape(f.Shorthand) + "\\fR, " + name
		}
		varname, usage := pflag.UnquoteUsage(f)
		if varname != "" {
			name += " \\fI" + escape(varname) + "\\fR"
		}
		b.WriteString(name + "\n")
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		b.WriteString(line(usage) + "\n")
	})
}

// text writes help text: prose paragraphs filled, indented lines kept.
func text(b *strings.Builder, s string) {
	verbatim := false
	para := true
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		switch {
		case strings.TrimSpace(l) == "":
			if verbatim {
				b.WriteString(".fi\n")
				verbatim = false
			}
			para = true
			continue
		case strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t"):
			if !verbatim {
				if para {
					b.WriteString(".PP\n")
					para = false
				}
				b.WriteString(".nf\n")
				verbatim = true
			}
		default:
			if verbatim {
				b.WriteString(".fi\n")
				verbatim, para = false, true
			}
			if para {
				b.WriteString(".PP\n")
				para = false
			}
		}
		b.WriteString(line(l) + "\n")
	}
	if verbatim {
		b.WriteString(".fi\n")
	}
}

// line is one line of text made safe for roff: backslashes escaped, and a
// line that begins like a request (. or ') kept as text.
func line(s string) string {
	s = escape(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = "\\&" + s
	}
	return s
}

// escape makes s literal text for roff: \ is \e, - a minus sign (so
// that flags can be searched for and copied), and every character outside
// ASCII a \[uXXXX] escape (groff reads its input as Latin-1 unless
// preconv runs first).
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString("\\e")
		case r == '-':
			b.WriteString("\\-")
		case r >= 0x80:
			fmt.Fprintf(&b, "\\[u%04X]", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// quote is a .TH argument.
func quote(s string) string {
	return "\"" + strings.ReplaceAll(escape(s), "\"", "\\(dq") + "\""
}
