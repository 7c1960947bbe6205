package golden

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEncode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"plain text\n\tindented\n", "plain text\n\tindented\n"},
		{"\x1b[1mbold\x1b[22m", "⟨ESC⟩[1mbold⟨ESC⟩[22m"},
		{"\r\x1b[2K", "⟨CR⟩⟨ESC⟩[2K"},
		{"\x1b]8;;https://x\x07link\x1b]8;;\x07", "⟨ESC⟩]8;;https://x⟨BEL⟩link⟨ESC⟩]8;;⟨BEL⟩"},
		{"\x00\x08\x7f", "⟨x00⟩⟨x08⟩⟨x7F⟩"},
		{"a\xffb\xe6\x97", "a⟨xFF⟩b⟨xE6⟩⟨x97⟩"},
		{"\u009b31m", "⟨U+009B⟩31m"},
		{"⟨ESC⟩ and ⟨ are text", "⟨⟨⟩ESC⟩ and ⟨⟨⟩ are text"},
		{"␛[31m is the sanitiser's", "␛[31m is the sanitiser's"},
		{"日本 🎉 ⟩", "日本 🎉 ⟩"},
	} {
		got := string(Encode([]byte(c.in)))
		if got != c.want {
			t.Errorf("Encode(%q) = %q, want %q", c.in, got, c.want)
		}
		back, err := Decode([]byte(got))
		if err != nil || string(back) != c.in {
			t.Errorf("Decode(%q) = %q, %v; want %q", got, back, err, c.in)
		}
	}
}

func TestDecodeRefuses(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"⟨", "⟨ESC", "⟨esc⟩", "⟨xZZ⟩", "⟨x1⟩", "⟨U+0041⟩", "⟨some longer words⟩", "a ⟨ b"} {
		if got, err := Decode([]byte(in)); err == nil {
			t.Errorf("Decode(%q) = %q, want an error", in, got)
		}
	}
}

// FuzzRoundTrip: any bytes encode to valid UTF-8 without control bytes
// but newline and tab, and decode back to themselves.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{"", "\x1b[1m⟨⟩\r\n", "⟨⟨⟩", "\xe2\x9f", "\u0085\x7f", "⟨ESC⟩"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		e := Encode(b)
		if !utf8.Valid(e) {
			t.Fatalf("Encode(%q) = %q is not UTF-8", b, e)
		}
		for _, r := range string(e) {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f {
				t.Fatalf("Encode(%q) = %q holds the control %U", b, e, r)
			}
		}
		back, err := Decode(e)
		if err != nil || !bytes.Equal(back, b) {
			t.Fatalf("Decode(Encode(%q)) = %q, %v", b, back, err)
		}
	})
}

// recorder is a testing.TB that keeps its failures.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) { r.errs = append(r.errs, format) }
func (r *recorder) Fatalf(format string, args ...any) { r.errs = append(r.errs, format) }
func (r *recorder) Helper()                           {}

// TestCheck: the same output passes, any change fails with a diff that
// shows escapes as tokens, and -update writes the encoded file.
func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.pretty")
	out := []byte("\x1b[1mTitle\x1b[22m\nline two\n")
	*update = true
	Check(t, path, out)
	*update = false
	if b, _ := os.ReadFile(path); string(b) != "⟨ESC⟩[1mTitle⟨ESC⟩[22m\nline two\n" {
		t.Fatalf("-update wrote %q", b)
	}
	Check(t, path, out)
	for _, changed := range [][]byte{
		[]byte("\x1b[2mTitle\x1b[22m\nline two\n"),
		[]byte("\x1b[1mTitle\x1b[22m\nline two"),
		[]byte("\x1b[1mTitle\x1b[22m\r\nline two\n"),
	} {
		r := &recorder{TB: t}
		Check(r, path, changed)
		if len(r.errs) != 1 {
			t.Errorf("%q passed against %q", changed, out)
		}
	}
	d := Diff(string(Encode(out)), string(Encode([]byte("\x1b[2mTitle\x1b[22m\nline two\n"))))
	if !strings.Contains(d, "-⟨ESC⟩[1mTitle") || !strings.Contains(d, "+⟨ESC⟩[2mTitle") {
		t.Errorf("diff:\n%s", d)
	}
	r := &recorder{TB: t}
	Check(r, filepath.Join(t.TempDir(), "missing"), out)
	if len(r.errs) != 1 {
		t.Error("a missing golden file passed")
	}
}

// TestEveryTestPackageTakesUpdate: every package with tests links golden
// into its test binary (imports it, or a package that does), so that
// `go test ./... -update` is a flag each test binary knows (one without
// it fails: "flag provided but not defined").
func TestEveryTestPackageTakesUpdate(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}|{{len .TestGoFiles}} {{len .XTestGoFiles}}|{{join .Deps " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}`, "github.com/agentfmt/agentfmt/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	const self = "github.com/agentfmt/agentfmt/internal/golden"
	type pkg struct {
		tests             bool
		deps, testImports []string
	}
	pkgs := map[string]pkg{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(l, "|")
		if len(f) != 4 {
			t.Fatalf("go list: %q", l)
		}
		pkgs[f[0]] = pkg{f[1] != "0 0", strings.Fields(f[2]), strings.Fields(f[3])}
	}
	links := func(imp string) bool { return imp == self || slices.Contains(pkgs[imp].deps, self) }
	for name, p := range pkgs {
		if !p.tests || name == self || slices.ContainsFunc(p.testImports, links) {
			continue
		}
		t.Errorf("%s has tests but its test binary does not link internal/golden: go test ./... -update fails there (add import _ %q to a test file)", name, self)
	}
}
