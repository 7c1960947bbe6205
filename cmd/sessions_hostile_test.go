package cmd

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/sessions"
	"github.com/agentfmt/agentfmt/internal/termwrap"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
)

// Session file names and ids are untrusted text: a newline, a tab, escape
// sequences (a title change, a screen clear) or wide characters in them
// never break the listing — no panic, one line per session, columns
// aligned in terminal cells, nothing reaching the terminal raw.
func TestSessionsHostileNames(t *testing.T) {
	t.Parallel()
	h := newFakeHome(t)
	dir := ".claude/projects/" + projDir(h.proj) + "/"
	names := []string{"new\nline", "tab\there", "\x1b]0;pwned\x07\x1b[2J", "宽字符会话", "::error::x"}
	for i, n := range names {
		h.put(dir+n+".jsonl", transcript(h.proj, "id", "prompt "+string(rune('a'+i))), i+1)
	}
	h.put(".codex/sessions/2026/11/22/rollout-2026-11-22T09-00-00-x.jsonl", rollout(h.proj, `x\nnewline\u001b[31m\tred`, "codex prompt"), 10)

	r := h.cli("sessions").run(t)
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, "\x1b") || strings.Contains(r.stdout, "\a") {
		t.Errorf("an escape sequence reached the piped list raw:\n%q", r.stdout)
	}
	if ids := listedIDs(t, r.stdout); len(ids) != len(names)+1 {
		t.Errorf("%d lines for %d sessions:\n%s", len(ids), len(names)+1, r.stdout)
	}
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(l, "::") {
			t.Errorf("a line is a workflow command: %q", l)
		}
	}

	for _, colour := range []string{"never", "always"} {
		c := h.cli("sessions", "--width", "80", "--color", colour)
		c.tty = true
		r = c.run(t)
		if r.code != 0 {
			t.Fatalf("terminal, colour %s: exit %d, stderr %q", colour, r.code, r.stderr)
		}
		if err := vtcheck.Sequences([]byte(r.stdout)); err != nil {
			t.Errorf("colour %s: %v", colour, err)
		}
		rows := vtcheck.Screen([]byte(r.stdout), 80)
		var table []string
		for _, row := range rows {
			if strings.TrimSpace(row) != "" {
				table = append(table, row)
			}
		}
		if len(table) != len(names)+2 {
			t.Fatalf("colour %s: %d rows for %d sessions and a heading:\n%s", colour, len(table), len(names)+1, strings.Join(rows, "\n"))
		}
		// The SIZE column starts at the same cell on every row (a cell
		// measured wrong before it would shift it).
		sizeCell := regexp.MustCompile(`  [0-9.]+ (B|KiB) `)
		size := termwrap.Width(table[0][:strings.Index(table[0], "SIZE")])
		for _, row := range table[1:] {
			m := sizeCell.FindStringIndex(row)
			if m == nil || termwrap.Width(row[:m[0]+2]) != size {
				t.Errorf("colour %s: the SIZE column is not at cell %d in %q", colour, size, row)
			}
			if w := termwrap.Width(row); w > 80 {
				t.Errorf("colour %s: a row of %d cells: %q", colour, w, row)
			}
		}
	}
}

// In a project's subdirectory, 'sessions' lists the project's, and says
// whose they are; --latest renders the project's newest.
func TestSessionsInASubdirectory(t *testing.T) {
	t.Parallel()
	h := newFakeHome(t)
	paths := h.populate()
	if err := os.Mkdir(filepath.Join(h.proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(h.proj, "internal", "x")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	h.dir = sub
	r := h.cli("sessions").run(t)
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if got := strings.Join(listedIDs(t, r.stdout), ", "); got != "claude c-new, gemini g-1, codex x-1, claude c-old" {
		t.Errorf("listed %s", got)
	}
	if !strings.Contains(r.stderr, "no saved sessions for "+sub+": these are of "+h.proj+", above it") {
		t.Errorf("stderr %q", r.stderr)
	}
	got, r := latestRead(t, h.cli("--latest"))
	if b, _ := os.ReadFile(paths["c-new"]); got != string(b) {
		t.Errorf("--latest read %.80q (exit %d, stderr %q)", got, r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "the latest of "+h.proj+", above it, is claude session c-new") {
		t.Errorf("--latest: stderr %q", r.stderr)
	}
	// Above the repository's root is not the project.
	h.dir = filepath.Dir(h.proj)
	if r := h.cli("sessions").run(t); r.code != ExitFailed {
		t.Errorf("above the project: exit %d, %q", r.code, r.stdout)
	}
}

// FuzzSessionsListing lists sessions of arbitrary agents, ids and prompts,
// on a terminal and piped: no panic, one row or line per session, nothing
// but agentfmt's own sequences on the terminal, and five tab-separated
// fields per piped line.
func FuzzSessionsListing(f *testing.F) {
	f.Add("claude", "new\nline", "a prompt", uint8(80))
	f.Add("codex", "\x1b]0;t\x07\x1b[2J\t", "\x1b[31mred\r\n", uint8(20))
	f.Add("宽", "宽字符会话😀", "::error::x", uint8(5))
	f.Add("", "", "", uint8(1))
	f.Fuzz(func(t *testing.T, agent, id, prompt string, width uint8) {
		ss := []sessions.Session{
			{Agent: agent, ID: id, Prompt: prompt, Size: 1 << 20, Modified: cliNow.Add(-time.Hour)},
			{Agent: "claude", ID: "c", Prompt: prompt + id, Size: 12, Modified: cliNow.Add(-48 * time.Hour)},
		}
		for _, tty := range []bool{true, false} {
			var out bytes.Buffer
			env := &Env{Stdout: &out, Stderr: io.Discard, Getenv: func(string) string { return "" },
				IsTerminal: func(io.Writer) bool { return tty }, Now: func() time.Time { return cliNow }}
			o := &Options{Width: int(width) + 1, Color: "always", Format: "pretty"}
			if err := writeSessions(env, o, ss); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if !tty {
				for _, l := range lines {
					if strings.Count(l, "\t") != 4 || strings.ContainsAny(l, "\x1b\r\a") {
						t.Fatalf("piped line %q", l)
					}
				}
				if len(lines) != len(ss) {
					t.Fatalf("%d lines for %d sessions", len(lines), len(ss))
				}
				continue
			}
			if len(lines) != len(ss)+1 {
				t.Fatalf("%d rows for %d sessions and a heading:\n%q", len(lines), len(ss), out.String())
			}
			if err := vtcheck.Sequences(out.Bytes()); err != nil {
				t.Fatal(err)
			}
		}
	})
}
