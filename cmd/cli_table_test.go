package cmd

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCLITable runs the command-line cases of testdata/cli/*.txt, each
// in-process with its own environment. A case is a few lines:
//
//	### a typo of a command suggests it        (the case's name)
//	env AGENTFMT_FORMAT=plain                  (a variable; none is inherited)
//	tty                                        (stdout is a terminal; tty 80x24: of that size)
//	file a.jsonl "{\"type\":\"x\"}\n"          (a file in $TMP, Go-quoted content; folders made)
//	cwd $TMP/proj                              (the current directory, made)
//	exec less "#!/bin/sh\ncat\n"                (a program in $TMP/bin; env PATH=$TMP/bin:… to run it)
//	stdin $TESTDATA/codex/01-basic.jsonl       (stdin from a file; else empty)
//	stdin "text\n"                             (stdin, Go-quoted)
//	$ agentfmt sesions                         (the command line, split as a shell would)
//	exit 2
//	stderr has did you mean sessions?          (also: stdout has, … lacks, … empty)
//	stdout is "exactly this\n"                 (the whole of it)
//	stderr lines 1                             (how many newlines it holds)
//	$TMP/summary.md has ✗                      (a file the command wrote)
//
// In the command line, stdin, files, cwd and the checks, $TESTDATA is ../testdata
// and $TMP the case's own temporary directory. Text after "has" or
// "lacks" is taken as it is, or Go-unquoted when it is one quoted
// string. Lines beginning with # are comments. The cases run in
// parallel.
func TestCLITable(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "cli", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no testdata/cli/*.txt")
	}
	for _, f := range files {
		cases, err := readCLICases(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(strings.TrimSuffix(filepath.Base(f), ".txt")+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				c.run(t)
			})
		}
	}
}

type cliCase struct {
	name  string
	where string // file:line
	lines []string
}

func readCLICases(path string) ([]*cliCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []*cliCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(l, "### "):
			cases = append(cases, &cliCase{name: strings.TrimSpace(l[4:]), where: fmt.Sprintf("%s:%d", path, n)})
		case l == "" || strings.HasPrefix(l, "#"):
		case len(cases) == 0:
			return nil, fmt.Errorf("%s:%d: a line before the first ### case", path, n)
		default:
			cases[len(cases)-1].lines = append(cases[len(cases)-1].lines, l)
		}
	}
	return cases, sc.Err()
}

func (c *cliCase) run(t *testing.T) {
	t.Helper()
	tmp := t.TempDir()
	expand := func(s string) string {
		return strings.NewReplacer("$TESTDATA", filepath.Join("..", "testdata"), "$TMP", tmp).Replace(s)
	}
	run := cli{env: map[string]string{}}
	var checks []string
	ran := false
	for _, l := range c.lines {
		word, rest, _ := strings.Cut(l, " ")
		rest = strings.TrimSpace(rest)
		switch word {
		case "env":
			k, v, _ := strings.Cut(rest, "=")
			run.env[k] = expand(v)
		case "tty":
			run.tty = true
			if rest != "" {
				if _, err := fmt.Sscanf(rest, "%dx%d", &run.width, &run.height); err != nil {
					t.Fatalf("%s: tty WIDTHxHEIGHT: %v", c.where, err)
				}
			}
		case "file", "exec":
			name, content, _ := strings.Cut(rest, " ")
			path, write := filepath.Join(tmp, name), func(p string, b []byte) error { return os.WriteFile(p, b, 0o644) }
			if word == "exec" {
				path, write = filepath.Join(tmp, "bin", name), writeProgram
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := write(path, []byte(expand(c.text(content)))); err != nil {
				t.Fatal(err)
			}
		case "cwd":
			run.dir = expand(rest)
			if err := os.MkdirAll(run.dir, 0o755); err != nil {
				t.Fatal(err)
			}
		case "stdin":
			if strings.HasPrefix(rest, `"`) {
				run.stdin = strings.NewReader(c.text(rest))
				continue
			}
			b, err := os.ReadFile(expand(rest))
			if err != nil {
				t.Fatalf("%s: %v", c.where, err)
			}
			run.stdin = strings.NewReader(string(b))
		case "$":
			args, err := splitArgs(rest)
			if err != nil || len(args) == 0 || args[0] != "agentfmt" {
				t.Fatalf("%s: bad command line %q (%v)", c.where, rest, err)
			}
			for i := range args {
				args[i] = expand(args[i])
			}
			run.args = args[1:]
			ran = true
		default:
			checks = append(checks, l)
		}
	}
	if !ran {
		t.Fatalf("%s: no $ agentfmt line", c.where)
	}
	r := run.run(t)
	for _, l := range checks {
		word, rest, _ := strings.Cut(l, " ")
		rest = strings.TrimSpace(rest)
		if word == "exit" {
			if want, err := strconv.Atoi(rest); err != nil || r.code != want {
				t.Errorf("%s: exit %d, want %s\nstdout: %q\nstderr: %q", c.where, r.code, rest, r.stdout, r.stderr)
			}
			continue
		}
		var got string
		switch {
		case word == "stdout":
			got = r.stdout
		case word == "stderr":
			got = r.stderr
		case strings.HasPrefix(word, "$TMP/"):
			b, err := os.ReadFile(expand(word))
			if err != nil {
				t.Errorf("%s: %v", c.where, err)
				continue
			}
			got = string(b)
		default:
			t.Fatalf("%s: unknown line %q", c.where, l)
		}
		how, text, _ := strings.Cut(rest, " ")
		text = expand(c.text(strings.TrimSpace(text)))
		var ok bool
		switch how {
		case "has":
			ok = strings.Contains(got, text)
		case "lacks":
			ok = !strings.Contains(got, text)
		case "empty":
			ok = got == ""
		case "is":
			ok = got == text
		case "lines":
			ok = strconv.Itoa(strings.Count(got, "\n")) == text
		default:
			t.Fatalf("%s: unknown check %q", c.where, l)
		}
		if !ok {
			t.Errorf("%s: %s %s %q:\n%s", c.where, word, how, text, got)
		}
	}
}

// text is s Go-unquoted when it is one quoted string, else as it is.
func (c *cliCase) text(s string) string {
	if u, err := strconv.Unquote(s); err == nil && strings.HasPrefix(s, `"`) {
		return u
	}
	return s
}

// splitArgs splits a command line as a shell would: words, 'single' and
// "double" quotes (with \" and \\ in double quotes).
func splitArgs(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == ' ' || ch == '\t':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		case ch == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed '")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case ch == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unclosed \"")
			}
			inWord = true
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args, nil
}
