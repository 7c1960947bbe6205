package repo

import (
	"bufio"
	"bytes"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// root is the repository's root as seen from this package's folder, where
// go test runs its tests.
const root = "../.."

// fromRoot is path (under root) as the repository names it: cmd/run.go,
// or "." for root itself.
func fromRoot(path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return rel
}

// TestFilesOfOneConcern: no Go file of the program (tests and generated
// files aside) is over 500 lines (issue 22); a longer one does
// more than one job and is split by concern.
func TestFilesOfOneConcern(t *testing.T) {
	const most = 500
	walkGo(t, func(path string, b []byte) {
		if strings.HasSuffix(path, "_test.go") || generated(b) {
			return
		}
		if n := bytes.Count(b, []byte("\n")); n > most {
			t.Errorf("%s: %d lines (at most %d): split it by concern", path, n, most)
		}
	})
}

// walkGo calls fn with every Go file of the tree and its text, hidden and
// testdata folders aside.
func walkGo(t *testing.T, fn func(path string, src []byte)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fn(fromRoot(path), src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// generated reports Go's marker of a generated file ("// Code generated …
// DO NOT EDIT.") on a line before the package clause.
func generated(b []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "// Code generated ") && strings.HasSuffix(l, " DO NOT EDIT.") {
			return true
		}
		if strings.HasPrefix(l, "package ") {
			return false
		}
	}
	return false
}

// TestNoCopiedFiles: nothing of another project is kept in the tree
// (other projects' code comes in as modules): no licence or notice file,
// which comes with a copy, and no file that says it was copied or
// vendored from elsewhere.
func TestNoCopiedFiles(t *testing.T) {
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		path = fromRoot(path)
		name := strings.ToUpper(d.Name())
		if d.IsDir() {
			if path != "." && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if name == "VENDOR" || name == "THIRD_PARTY" {
				t.Errorf("%s: a copy of other projects' code; take it as a module", path)
			}
			return nil
		}
		for _, p := range []string{"LICENSE", "LICENCE", "COPYING", "NOTICE"} {
			if strings.HasPrefix(name, p) {
				t.Errorf("%s: a licence file comes with another project's copy; take it as a module", path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCommentsCiteTheRepository: comments say what and why in this
// repository's terms. They cite docs/ (docs/formats/<name>.md for a wire
// format, docs/events.md for the events and the streaming contract), and
// never a document a reader of the repository does not have: the design
// notes, the seed documents or the format notes kept beside the clone.
// Where the real captures live (../shared/corpus) may be said. A format
// note a comment names must be there, and is cited whole: the notes have
// no numbered sections.
func TestCommentsCiteTheRepository(t *testing.T) {
	walkGo(t, func(path string, src []byte) {
		for _, c := range commentsOf(src) {
			if !mayCite(c.text) {
				continue
			}
			for _, bad := range outsideCitations(c.text) {
				t.Errorf("%s:%d: a comment cites %s: cite docs/ (docs/formats/<name>.md) or state the rule in place", path, c.line, bad)
			}
			for _, n := range notesCited(c.text) {
				if _, err := os.Stat(filepath.Join(root, "docs", "formats", n)); err != nil {
					t.Errorf("%s:%d: a comment cites docs/formats/%s, which is not there", path, c.line, n)
				}
			}
		}
	})
}

// comment is the text of a run of comment lines (their markers removed,
// one line each) and the line the run starts on.
type comment struct {
	text string
	line int
}

// commentsOf returns the comments of a Go file, consecutive line comments
// joined into one (a citation can break across lines).
func commentsOf(src []byte) []comment {
	fset := token.NewFileSet()
	f := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, scanner.ScanComments)
	var out []comment
	last := -1
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok != token.COMMENT {
			continue
		}
		line := f.Line(pos)
		text := strings.TrimPrefix(lit, "//")
		if strings.HasPrefix(lit, "/*") {
			text = strings.TrimSuffix(strings.TrimPrefix(lit, "/*"), "*/")
		}
		if len(out) > 0 && line == last+1 && strings.HasPrefix(lit, "//") {
			out[len(out)-1].text += "\n" + text
		} else {
			out = append(out, comment{text: text, line: line})
		}
		last = line + strings.Count(lit, "\n")
	}
}

// outside matches what a comment must not cite: the design notes and their
// numbered sections, the seed documents, the notes kept beside the clone
// (anything there but ../shared/corpus), and a numbered section of a
// note; and it finds the format notes a comment names, cited whole
// (TestOutsideCitations has an example of each).
var outside = regexp.MustCompile(`DESIGN(?:\.md)?\s*§|\bDESIGN\.md\b|STYLE(?:\.md|:)|(?i:\bseeds?\s+0\d\d\b)|shared/(?:formats|seeds|notes|hooks)\b|\.\./shared\b(?P<beside>/\w*)?|[\w-]+\.md\s*§|(?:docs/)?formats/(?P<note>[\w-]+\.md)(?P<section>\s*§)?`)

// mayCite reports whether text holds a word that every match of outside
// holds, so that the expression runs only on the few comments that may
// cite something (it backtracks through every comment of the repository
// otherwise).
func mayCite(text string) bool {
	for _, w := range []string{"DESIGN", "STYLE", "shared", ".md", "formats/"} {
		if strings.Contains(text, w) {
			return true
		}
	}
	return strings.Contains(strings.ToLower(text), "seed")
}

// outsideCitations lists what text cites outside the repository.
func outsideCitations(text string) []string {
	var bad []string
	for _, m := range outside.FindAllStringSubmatch(text, -1) {
		switch {
		case strings.HasPrefix(m[0], "../shared"):
			if m[outside.SubexpIndex("beside")] != "/corpus" {
				bad = append(bad, strconv.Quote(m[0]))
			}
		case m[outside.SubexpIndex("note")] != "":
			switch {
			case m[outside.SubexpIndex("section")] != "":
				bad = append(bad, strconv.Quote(m[0])+" (the notes have no numbered sections)")
			case !strings.HasPrefix(m[0], "docs/"):
				bad = append(bad, strconv.Quote(m[0])+" (say docs/formats/…: the path in this repository)")
			}
		default:
			bad = append(bad, strconv.Quote(m[0]))
		}
	}
	return bad
}

// notesCited lists the format notes text names (docs/formats/<name>.md).
func notesCited(text string) []string {
	var names []string
	for _, m := range outside.FindAllStringSubmatch(text, -1) {
		if n := m[outside.SubexpIndex("note")]; n != "" {
			names = append(names, n)
		}
	}
	return names
}

// TestOutsideCitations: what the comment check takes for a citation
// outside the repository, and what it lets be.
func TestOutsideCitations(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		bad  int
	}{
		{"the streaming contract (DESIGN §4 rule 3)", 1},
		{"as DESIGN\n §4 says", 1},
		{"see DESIGN.md", 1},
		{"(STYLE: one small package)", 1},
		{"as STYLE.md says", 1},
		{"the completion rules (seed 000)", 1},
		{"(Seed\n 003 rule 12)", 1},
		{"wire format: ../shared/formats/acp.md", 1},
		{"See shared/formats/codex.md.", 1},
		{"shared/seeds/000_x.txt", 1},
		{"(acp.md §8)", 1},
		{"(docs/formats/acp.md §3.5)", 1},
		{"read from ../shared/corpus/claude (skipped without it)", 0},
		{"the ../shared/corpus folder", 0},
		{"(docs/formats/acp.md, \"Chunks\")", 0},
		{"docs/formats/claude.md", 0},
		{"formats/claude.md", 1},
		{"seeds of a random generator, 0x10", 0},
		{"docs/events.md and docs/performance.md", 0},
	} {
		if got := outsideCitations(c.text); len(got) != c.bad {
			t.Errorf("%q: %d citations outside (%q), want %d", c.text, len(got), got, c.bad)
		}
		if c.bad > 0 && !mayCite(c.text) {
			t.Errorf("%q: passed over by mayCite", c.text)
		}
	}
}

// TestNotesCited: the format notes a comment names.
func TestNotesCited(t *testing.T) {
	t.Parallel()
	got := notesCited("see docs/formats/acp.md and formats/pi.md; not docs/events.md")
	if strings.Join(got, " ") != "acp.md pi.md" {
		t.Errorf("notes cited: %q, want acp.md and pi.md", got)
	}
}

// TestFormatIndex: docs/formats/README.md links every format note, and
// every note it links is there, so a reader finds each note from the
// index.
func TestFormatIndex(t *testing.T) {
	t.Parallel()
	index, err := os.ReadFile(filepath.Join(root, "docs", "formats", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, m := range regexp.MustCompile(`\]\(([\w-]+\.md)\)`).FindAllSubmatch(index, -1) {
		linked[string(m[1])] = true
	}
	notes, err := filepath.Glob(filepath.Join(root, "docs", "formats", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range notes {
		name := filepath.Base(n)
		if name != "README.md" && !linked[name] {
			t.Errorf("docs/formats/%s is not in the index (docs/formats/README.md)", name)
		}
		delete(linked, name)
	}
	for name := range linked {
		t.Errorf("docs/formats/README.md links %s, which is not there", name)
	}
}
