package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/vtcheck"
)

// runLog is a Claude run of session sid, as lines: its start, a text and
// a tool call per step, then its result.
func runLog(sid string, steps int, ok bool) []string {
	var lines []string
	add := func(s *cs) {
		for _, l := range strings.SplitAfter(strings.ReplaceAll(s.String(), "sess-1", sid), "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
	}
	add((&cs{}).init())
	for i := 1; i <= steps; i++ {
		id := sid + "-t" + itoa(int64(i))
		add((&cs{}).text("m"+itoa(int64(i)), "Step "+itoa(int64(i))+" of "+sid+".").
			toolUse("m"+itoa(int64(i)), id, "Bash", map[string]any{"command": "make " + sid}).toolResult(id, "built "+sid, false))
	}
	add((&cs{}).result(ok, "Answer of "+sid+"."))
	return lines
}

// writeSlowly appends lines to path one by one, pausing between them; it
// stops before the last one until release is closed (nil: it does not).
func writeSlowly(t *testing.T, path string, lines []string, pause time.Duration, release chan struct{}) {
	for i, l := range lines {
		if i == len(lines)-1 && release != nil {
			<-release
		}
		appendTo(t, path, l)
		time.Sleep(pause)
	}
}

// TestFollowSeveralAtOnce: two logs written line by line at the same
// time. The second log's whole run is on screen while the first one is
// still running; every line says whose it is; --follow ends by itself
// when both runs have ended, with the worst run's status.
func TestFollowSeveralAtOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	fr := startFollow(t, "-o", "plain", a, b)
	release := make(chan struct{})
	aLines, bLines := runLog("aaaa", 3, true), runLog("bbbb", 3, false)
	go writeSlowly(t, a, aLines, 20*time.Millisecond, release)
	go writeSlowly(t, b, bLines, 2*time.Millisecond, nil)
	waitFor(t, "b's whole run", func() bool { return strings.Contains(fr.out.String(), "b │ ── ✗ failed") })
	out := fr.out.String()
	if !strings.Contains(out, "a │ ● session aaaa") || strings.Contains(out, "a │ ── ") {
		t.Errorf("b's run shown, but not a's start, or a's end already:\n%s", out)
	}
	select {
	case code := <-fr.done:
		t.Fatalf("--follow ended (exit %d) with a's run still going", code)
	default:
	}
	close(release)
	select {
	case code := <-fr.done:
		if code != ExitFailed {
			t.Errorf("exit %d, want 1 (b failed)", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("--follow did not end when both runs had")
	}
	out = fr.out.String()
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !strings.HasPrefix(l, "a │") && !strings.HasPrefix(l, "b │") {
			t.Errorf("a line that does not say whose it is: %q", l)
		}
	}
	for _, want := range []string{"a │ Step 3 of aaaa.", "b │ Step 3 of bbbb.", "a │ ── ✓ done", "b │   │ built bbbb"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

// TestFollowSeveralJSON: with -o json every event names its stream.
func TestFollowSeveralJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	os.WriteFile(a, []byte(strings.Join(runLog("aaaa", 1, true), "")), 0o644)
	os.WriteFile(b, []byte(strings.Join(runLog("bbbb", 1, true), "")), 0o644)
	fr := startFollow(t, "-o", "json", a, b)
	var code int
	select {
	case code = <-fr.done:
	case <-time.After(10 * time.Second):
		t.Fatal("--follow did not end")
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	seen := map[string]int{}
	for _, l := range strings.Split(strings.TrimSuffix(fr.out.String(), "\n"), "\n") {
		var ev struct {
			Stream    string `json:"stream"`
			Kind      string `json:"kind"`
			SessionID string `json:"session_id"`
		}
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		if ev.Stream != "a" && ev.Stream != "b" {
			t.Fatalf("event of no stream: %s", l)
		}
		if ev.Kind == "session.start" && ev.SessionID != strings.Repeat(ev.Stream, 4) {
			t.Errorf("stream %s has session %s", ev.Stream, ev.SessionID)
		}
		seen[ev.Stream]++
	}
	if seen["a"] == 0 || seen["a"] != seen["b"] {
		t.Errorf("events per stream: %v", seen)
	}
}

// TestFollowSeveralInterrupt: Ctrl-C ends following at once (130); the
// runs are not agentfmt's to interrupt (their agents write the files
// on their own): none is shown interrupted, and stderr says that the
// following stopped.
func TestFollowSeveralInterrupt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	lines := runLog("aaaa", 1, true)
	os.WriteFile(a, []byte(strings.Join(lines[:3], "")), 0o644) // its start, a text, a call
	os.WriteFile(b, []byte(strings.Join(runLog("bbbb", 1, true), "")), 0o644)
	fr := startFollow(t, "-o", "plain", a, b)
	waitFor(t, "both", func() bool {
		return strings.Contains(fr.out.String(), "a │ ▸ Bash") && strings.Contains(fr.out.String(), "b │ ── ✓ done")
	})
	fr.interrupt(t, "--follow")
	out := fr.out.String()
	if strings.Contains(out, "⊘") || !strings.Contains(out, "b │ ── ✓ done") {
		t.Errorf("a run shown interrupted, or b (done) not done:\n%s", out)
	}
	if !strings.Contains(fr.err.String(), "following stopped; the sessions are left as they were") {
		t.Errorf("stderr %q", fr.err.String())
	}
}

// TestFollowSeveralTee: --tee DIR gets a copy of each stream, byte for
// byte, named after its tag; --tee naming a file is refused with several
// streams, as is a tee that would overwrite an input.
func TestFollowSeveralTee(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	la, lb := strings.Join(runLog("aaaa", 2, true), ""), strings.Join(runLog("bbbb", 1, true), "")+"not json\n"
	os.WriteFile(a, []byte(la), 0o644)
	os.WriteFile(b, []byte(lb), 0o644)
	tee := filepath.Join(t.TempDir(), "copies")
	fr := startFollow(t, "-o", "plain", "--tee", tee, a, b)
	select {
	case <-fr.done:
	case <-time.After(10 * time.Second):
		t.Fatal("--follow did not end")
	}
	for name, want := range map[string]string{"a.jsonl": la, "b.jsonl": lb} {
		if got, err := os.ReadFile(filepath.Join(tee, name)); err != nil || string(got) != want {
			t.Errorf("%s: %v, %d bytes, want %d", name, err, len(got), len(want))
		}
	}
	file := filepath.Join(t.TempDir(), "one.jsonl")
	os.WriteFile(file, nil, 0o644)
	for _, args := range [][]string{{"--tee", file}, {"--tee", dir}} {
		r := cli{args: append([]string{"--follow"}, append(args, a, b)...)}.run(t)
		if r.code != ExitUsage || !strings.Contains(r.stderr, "--tee") {
			t.Errorf("%v: exit %d, %q", args, r.code, r.stderr)
		}
	}
	if got, _ := os.ReadFile(a); string(got) != la {
		t.Error("an input was overwritten by --tee")
	}
}

// TestFollowSeveralRefused: text, markdown and html show one run; stdin
// cannot be one of several followed files.
func TestFollowSeveralRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for _, args := range [][]string{{"-o", "text", a, b}, {"-o", "markdown", a, b}, {"-o", "html", a, b}, {a, "-"}} {
		r := cli{args: append([]string{"--follow"}, args...)}.run(t)
		if r.code != ExitUsage || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q", args, r.code, r.stdout)
		}
		if args[0] == "-o" && !strings.Contains(r.stderr, "use -o pretty, plain or json") {
			t.Errorf("%v: %q", args, r.stderr)
		}
	}
}

// TestFollowSeveralHostileNames: a file whose name holds terminal controls
// is tagged with them made visible.
func TestFollowSeveralHostileNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a\x1b]0;x\x07.jsonl"), filepath.Join(dir, "b.jsonl")
	os.WriteFile(a, []byte(strings.Join(runLog("aaaa", 1, true), "")), 0o644)
	os.WriteFile(b, []byte(strings.Join(runLog("bbbb", 1, true), "")), 0o644)
	for _, f := range []string{"plain", "pretty"} {
		fr := startFollow(t, "-o", f, a, b)
		select {
		case <-fr.done:
		case <-time.After(10 * time.Second):
			t.Fatal("--follow did not end")
		}
		if strings.Contains(fr.out.String(), "\x07") || strings.Contains(fr.out.String(), "\x1b]") {
			t.Errorf("-o %s: raw controls of a file name in %q", f, fr.out.String())
		}
	}
}

// TestFollowSeveralPrettyScreen: two logs followed with -o pretty, as a
// terminal emulator shows the end: each run's text under a separator
// naming its stream, and a summary line per stream at the end.
func TestFollowSeveralPrettyScreen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	os.WriteFile(a, []byte(strings.Join(runLog("aaaa", 2, true), "")), 0o644)
	os.WriteFile(b, []byte(strings.Join(runLog("bbbb", 2, false), "")), 0o644)
	fr := startFollow(t, "-o", "pretty", "--width", "80", a, b)
	select {
	case <-fr.done:
	case <-time.After(10 * time.Second):
		t.Fatal("--follow did not end")
	}
	if err := vtcheck.Sequences([]byte(fr.out.String())); err != nil {
		t.Fatal(err)
	}
	rows := vtcheck.Screen([]byte(fr.out.String()), 80)
	owner, whose := "", map[string][]string{}
	for _, r := range rows[:len(rows)-2] {
		switch {
		case strings.HasPrefix(r, "── a"):
			owner = "a"
		case strings.HasPrefix(r, "── b"):
			owner = "b"
		default:
			whose[owner] = append(whose[owner], r)
		}
	}
	for _, s := range []string{"a", "b"} {
		id := strings.Repeat(s, 4)
		if err := vtcheck.InOrder(whose[s], []string{"session " + id, "Step 1 of " + id + ".", "Step 2 of " + id + "."}); err != nil {
			t.Errorf("%s's rows: %v\n%s", s, err, strings.Join(rows, "\n"))
		}
	}
	if !strings.HasPrefix(rows[len(rows)-2], "✓ a · claude · work · aaaa · done") || !strings.HasPrefix(rows[len(rows)-1], "✗ b · claude · work · bbbb · failed") {
		t.Errorf("summary lines:\n%s", strings.Join(rows[len(rows)-2:], "\n"))
	}
}

// TestFollowSeveralGitHub: in a GitHub Actions job, several followed logs
// stop workflow commands once and resume them once, each tool call's
// output in a group of its own named after its stream, never two open.
func TestFollowSeveralGitHub(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	os.WriteFile(a, []byte(strings.Join(runLog("aaaa", 3, true), "")), 0o644)
	os.WriteFile(b, []byte(strings.Join(runLog("bbbb", 3, false), "")), 0o644)
	r := cli{args: []string{"--follow", a, b}, env: map[string]string{"GITHUB_ACTIONS": "true"}}.run(t)
	if r.code != ExitFailed {
		t.Errorf("exit %d, want 1", r.code)
	}
	if n := strings.Count(r.stdout, "::stop-commands::"); n != 2 { // (once, and again after b's failure annotation)
		t.Errorf("stop-commands %d times:\n%s", n, r.stdout)
	}
	open, groups := "", 0
	for _, l := range strings.Split(sgrRE.ReplaceAllString(r.stdout, ""), "\n") {
		switch {
		case strings.HasPrefix(l, "##[group]"):
			if open != "" {
				t.Fatalf("a group inside another:\n%s", r.stdout)
			}
			open = strings.Fields(strings.TrimPrefix(l, "##[group]"))[0]
			groups++
		case l == "##[endgroup]":
			open = ""
		case open != "" && !strings.HasPrefix(l, open+" "):
			t.Fatalf("a line of another stream in %s's group: %q", open, l)
		}
	}
	if groups != 6 || open != "" {
		t.Errorf("%d groups, %q open:\n%s", groups, open, r.stdout)
	}
	if !strings.Contains(r.stdout, "::error::b: agent run failed") {
		t.Errorf("no annotation naming b:\n%s", r.stdout)
	}
}

var sgrRE = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestWatchRefusesOneRunFormats: watch shows several sessions; -o text,
// markdown and html show one run.
func TestWatchRefusesOneRunFormats(t *testing.T) {
	t.Parallel()
	h := newFakeHome(t)
	for _, f := range []string{"text", "markdown", "html"} {
		r := h.cli("watch", "-o", f).run(t)
		if r.code != ExitUsage || !strings.Contains(r.stderr, "use -o pretty, plain or json") {
			t.Errorf("-o %s: exit %d, %q", f, r.code, r.stderr)
		}
	}
	if r := h.cli("watch", "--since", "0s").run(t); r.code != ExitUsage {
		t.Errorf("--since 0s: exit %d", r.code)
	}
}
