package manpage

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

func tree() *cobra.Command {
	root := &cobra.Command{Use: "tool [flags] [FILE...]", Short: "Do a thing", Long: `The tool does a thing.
Every flag has a variable, TOOL_<FLAG>; a \backslash and a - dash.

  0    success
  1    failure
.dotfiles are skipped,
'quoted' words too.`,
		Example: "  tool a.txt\n  tool --fast b.txt", Run: func(*cobra.Command, []string) {}}
	root.PersistentFlags().StringP("format", "o", "plain", "output `FORMAT`: plain, json")
	root.Flags().Bool("fast", false, "go fast")
	sub := &cobra.Command{Use: "run [flags] AGENT [ARGS...]", Short: "Run it", Run: func(*cobra.Command, []string) {}}
	root.AddCommand(sub, &cobra.Command{Use: "hidden", Hidden: true, Run: func(*cobra.Command, []string) {}})
	AddSection(root, "Environment", "TOOL_FORMAT sets --format.")
	AddSection(root, "Exit status", "  0    success\n  1    failure")
	return root
}

func TestWrite(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	if err := Write(&b, tree(), Header{Title: "TOOL", Section: "1", Date: "2026-11-22", Source: "tool v1", Manual: "tool manual"}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`.TH "TOOL" "1" "2026\-11\-22" "tool v1" "tool manual"`,
		"tool \\- Do a thing",
		"TOOL_<FLAG>",   // (not an HTML tag)
		`a \ebackslash`, // a backslash is text
		".nf\n  0    success\n  1    failure\n.fi\n.PP\n\\&.dotfiles are skipped,\n\\&'quoted'", // indented lines kept; no text read as a request
		"\\fB\\-o\\fR, \\fB\\-\\-format\\fR \\fIFORMAT\\fR\noutput FORMAT: plain, json (default plain)",
		".SH EXAMPLES", "tool \\-\\-fast b.txt",
		".SH COMMANDS\n.TP\n\\fBtool run\\fR\nRun it\n",
		".SH ENVIRONMENT\n.PP\nTOOL_FORMAT sets \\-\\-format.\n.SH EXIT STATUS\n.PP\n.nf\n  0    success\n",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "SEE ALSO") {
		t.Errorf("the page alone names other pages:\n%s", page)
	}
	if strings.Contains(page, "hidden") {
		t.Errorf("a hidden command is listed:\n%s", page)
	}
	for _, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(l, ".") && !strings.HasPrefix(l, ".\\") {
			if f := strings.Fields(l)[0]; !strings.Contains(".TH .nh .ad .SH .B .PP .nf .fi .TP .RS .RE", f) {
				t.Errorf("a text line is read as the request %s: %q", f, l)
			}
		}
	}
	if _, err := exec.LookPath("groff"); err == nil {
		dir := t.TempDir()
		f := filepath.Join(dir, "tool.1")
		if err := os.WriteFile(f, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("groff", "-man", "-Tutf8", "-ww", "-z", f).CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("groff warns: %v\n%s", err, out)
		}
	}
}

func TestWriteTree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := WriteTree(tree(), Header{Section: "1"}, dir); err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(names) != 2 || filepath.Base(names[0]) != "tool-run.1" || filepath.Base(names[1]) != "tool.1" {
		t.Errorf("pages %v, want tool.1 and tool-run.1", names)
	}
	// SEE ALSO names the pages written, and only those.
	for _, n := range names {
		b, _ := os.ReadFile(n)
		_, see, _ := strings.Cut(string(b), ".SH SEE ALSO\n")
		for _, ref := range regexp.MustCompile(`\\fB(.*?)\\fR\(1\)`).FindAllStringSubmatch(see, -1) {
			if _, err := os.Stat(filepath.Join(dir, strings.ReplaceAll(ref[1], `\-`, "-")+".1")); err != nil {
				t.Errorf("%s names %s, not written", filepath.Base(n), ref[1])
			}
		}
		if see == "" {
			t.Errorf("%s has no SEE ALSO", filepath.Base(n))
		}
	}
}

// agentfmt's start no longer links (nor initialises) a markdown library
// for its manual page.
func TestNoBlackfriday(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "github.com/agentfmt/agentfmt").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range []string{"blackfriday", "go-md2man", "cobra/doc"} {
		if strings.Contains(string(out), dep) {
			t.Errorf("agentfmt links %s", dep)
		}
	}
}
