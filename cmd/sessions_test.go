package cmd

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeHome holds saved sessions of several projects and agents, with file
// times relative to the cli's clock (2026-11-22 12:00 UTC).
type fakeHome struct {
	t    *testing.T
	home string
	// proj is the current directory of the test, other another project.
	proj, other string
	// dir is the current directory of the commands run (h.proj unless a
	// test moves it).
	dir string
}

func newFakeHome(t *testing.T) *fakeHome {
	root := t.TempDir()
	h := &fakeHome{t: t, home: filepath.Join(root, "home"), proj: filepath.Join(root, "src", "proj.v2"), other: filepath.Join(root, "src", "other")}
	for _, d := range []string{h.home, h.proj, h.other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The directory as the process sees it (what agents record).
	wd, err := filepath.EvalSymlinks(h.proj)
	if err != nil {
		t.Fatal(err)
	}
	h.proj, h.dir = wd, wd
	return h
}

var cliNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// put writes a session file under the home, last written minutesAgo.
func (h *fakeHome) put(rel, content string, minutesAgo int) string {
	h.t.Helper()
	p := filepath.Join(h.home, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
	mt := cliNow.Add(-time.Duration(minutesAgo) * time.Minute)
	if err := os.Chtimes(p, mt, mt); err != nil {
		h.t.Fatal(err)
	}
	return p
}

func projDir(dir string) string {
	b := []byte(dir)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

func transcript(cwd, id, prompt string) string {
	return `{"type":"file-history-snapshot","messageId":"u1","snapshot":{},"isSnapshotUpdate":false}` + "\n" +
		`{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"` + cwd + `","sessionId":"` + id + `","version":"2.0.76","type":"user","message":{"role":"user","content":"` + prompt + `"},"uuid":"u1","timestamp":"2026-11-22T10:00:00.000Z"}` + "\n" +
		`{"parentUuid":"u1","isSidechain":false,"userType":"external","cwd":"` + cwd + `","sessionId":"` + id + `","version":"2.0.76","message":{"model":"claude-haiku-4-5","id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"Looking."}],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":1}},"type":"assistant","uuid":"a1","timestamp":"2026-11-22T10:00:01.000Z"}` + "\n"
}

func rollout(cwd, id, prompt string) string {
	return `{"timestamp":"2026-11-22T10:00:00.000Z","type":"session_meta","payload":{"id":"` + id + `","timestamp":"2026-11-22T10:00:00.000Z","cwd":"` + cwd + `","originator":"codex_cli_rs","cli_version":"0.135.0"}}` + "\n" +
		`{"timestamp":"2026-11-22T10:00:00.100Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}` + "\n" +
		`{"timestamp":"2026-11-22T10:00:00.200Z","type":"event_msg","payload":{"type":"user_message","message":"` + prompt + `","images":[]}}` + "\n"
}

func savedChat(id, prompt string) string {
	return "{\n  \"sessionId\": \"" + id + "\",\n  \"projectHash\": \"x\",\n  \"startTime\": \"2026-11-22T10:00:00.000Z\",\n  \"messages\": [\n    {\n      \"id\": \"m1\",\n      \"type\": \"user\",\n      \"content\": \"" + prompt + "\"\n    }\n  ]\n}"
}

// populate writes sessions of this project and another one for each agent.
// This project's, newest first: claude c-new (5 min), gemini g-1 (2 h),
// codex x-1 (3 h), claude c-old (2 days).
func (h *fakeHome) populate() map[string]string {
	paths := map[string]string{}
	paths["c-new"] = h.put(".claude/projects/"+projDir(h.proj)+"/c-new.jsonl", transcript(h.proj, "c-new", "newest claude prompt"), 5)
	paths["c-old"] = h.put(".claude/projects/"+projDir(h.proj)+"/c-old.jsonl", transcript(h.proj, "c-old", "old claude prompt"), 2*24*60)
	h.put(".claude/projects/"+projDir(h.other)+"/c-other.jsonl", transcript(h.other, "c-other", "elsewhere"), 1)
	// A subagent's transcript is not a session of its own.
	h.put(".claude/projects/"+projDir(h.proj)+"/c-new/subagents/agent-a1.jsonl", transcript(h.proj, "c-new", "subagent"), 0)
	paths["x-1"] = h.put(".codex/sessions/2026/11/22/rollout-2026-11-22T09-00-00-x-1.jsonl", rollout(h.proj, "x-1", "codex prompt"), 180)
	h.put(".codex/sessions/2026/11/22/rollout-2026-11-22T11-00-00-x-2.jsonl", rollout(h.other, "x-2", "elsewhere"), 2)
	paths["g-1"] = h.put(".gemini/tmp/"+sha256hex(h.proj)+"/chats/session-2026-11-22T10-00-g1.json", savedChat("g-1", "gemini prompt"), 120)
	h.put(".gemini/tmp/"+sha256hex(h.other)+"/chats/session-2026-11-22T10-00-g2.json", savedChat("g-2", "elsewhere"), 3)
	return paths
}

func (h *fakeHome) cli(args ...string) cli {
	return cli{args: args, env: map[string]string{"HOME": h.home}, dir: h.dir}
}

// The ids of a plain listing, in order.
func listedIDs(t *testing.T, out string) []string {
	t.Helper()
	var ids []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		f := strings.Split(l, "\t")
		if len(f) != 5 {
			t.Fatalf("not 5 tab-separated fields: %q", l)
		}
		ids = append(ids, f[1]+" "+f[2])
	}
	return ids
}

func TestSessionsListsThisDirectoryNewestFirst(t *testing.T) {
	t.Parallel()
	h := newFakeHome(t)
	h.populate()
	r := h.cli("sessions").run(t)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	got := strings.Join(listedIDs(t, r.stdout), ", ")
	if want := "claude c-new, gemini g-1, codex x-1, claude c-old"; got != want {
		t.Errorf("listed %s, want %s", got, want)
	}
	first := strings.Split(strings.Split(r.stdout, "\n")[0], "\t")
	size, _ := os.Stat(filepath.Join(h.home, ".claude/projects", projDir(h.proj), "c-new.jsonl"))
	if first[0] != "2026-11-22T11:55:00Z" || first[3] != itoa(size.Size()) || first[4] != "newest claude prompt" {
		t.Errorf("first line %q", first)
	}

	// --agent lists one agent's.
	r = h.cli("sessions", "--agent", "claude").run(t)
	if got := strings.Join(listedIDs(t, r.stdout), ", "); got != "claude c-new, claude c-old" {
		t.Errorf("--agent claude listed %s", got)
	}

	// On a terminal: a table with relative times, clipped to the width.
	c := h.cli("sessions", "--width", "44", "--color", "never")
	c.tty = true
	r = c.run(t)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "WHEN") || !strings.Contains(lines[0], "FIRST PROMPT") ||
		!strings.HasPrefix(lines[1], "5m ago") || !strings.HasPrefix(lines[2], "2h ago") || !strings.HasPrefix(lines[4], "2d ago") {
		t.Errorf("table:\n%s", r.stdout)
	}
	for _, l := range lines {
		if w := len([]rune(l)); w > 44 {
			t.Errorf("line of %d cells: %q", w, l)
		}
	}
	if !strings.Contains(lines[1], "newest clau…") {
		t.Errorf("prompt not clipped to the width: %q", lines[1])
	}
}

func sha256hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestSessionsJSON(t *testing.T) {
	t.Parallel()
	h := newFakeHome(t)
	paths := h.populate()
	r := h.cli("sessions", "--json").run(t)
	var got []struct {
		Agent, ID, Path, Cwd, Modified, Started, Prompt string
		Size                                            int64
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
		t.Fatalf("exit %d, %v:\n%s", r.code, err, r.stdout)
	}
	if len(got) != 4 || got[0].ID != "c-new" || got[0].Path != paths["c-new"] || got[0].Cwd != h.proj ||
		got[0].Modified != "2026-11-22T11:55:00Z" || got[0].Started != "2026-11-22T10:00:00Z" || got[0].Prompt != "newest claude prompt" ||
		got[2].Agent != "codex" || got[2].Path != paths["x-1"] {
		t.Errorf("%+v", got)
	}
}

// No session: a message that says where agentfmt looked, exit 1 for
// sessions (an empty JSON array with --json) and 2 for --latest, as for a
// missing FILE.
func TestNoSessions(t *testing.T) {
	t.Parallel()
	h := newFakeHome(t)
	r := h.cli("sessions").run(t)
	if r.code != ExitFailed || r.stdout != "" || !strings.Contains(r.stderr, "no saved sessions for "+h.proj) ||
		!strings.Contains(r.stderr, "~/.codex/sessions") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = h.cli("sessions", "--json").run(t)
	if r.code != ExitFailed || strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("--json: exit %d, stdout %q", r.code, r.stdout)
	}
	r = h.cli("--latest").run(t)
	if r.code != ExitUsage || r.stdout != "" || !strings.Contains(r.stderr, "no saved sessions for "+h.proj) ||
		strings.Contains(r.stderr, "--help") {
		t.Errorf("--latest: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := (cli{args: []string{"sessions"}}).run(t); r.code != ExitFailed || !strings.Contains(r.stderr, "HOME is not set") {
		t.Errorf("no HOME: exit %d, stderr %q", r.code, r.stderr)
	}
	// Another project's sessions are not this one's.
	h.put(".codex/sessions/2026/11/22/rollout-2026-11-22T11-00-00-x-2.jsonl", rollout(h.other, "x-2", "elsewhere"), 2)
	r = h.cli("--latest", "--agent", "codex").run(t)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "no saved codex sessions for "+h.proj) {
		t.Errorf("--latest --agent codex: exit %d, stderr %q", r.code, r.stderr)
	}
}

// latestRead runs agentfmt with --tee and returns what it read: the
// file it chose, byte for byte, whatever the renderer makes of it.
func latestRead(t *testing.T, c cli) (string, cliResult) {
	t.Helper()
	tee := filepath.Join(t.TempDir(), "tee")
	c.args = append(c.args, "--tee", tee, "-o", "json")
	r := c.run(t)
	b, _ := os.ReadFile(tee)
	return string(b), r
}

func TestLatestPicksTheNewest(t *testing.T) {
	t.Parallel()
	h := newFakeHome(t)
	paths := h.populate()
	read := func(p string) string { b, _ := os.ReadFile(p); return string(b) }
	for _, tc := range []struct {
		agent, want string
	}{{"", "c-new"}, {"auto", "c-new"}, {"claude", "c-new"}, {"codex", "x-1"}, {"gemini", "g-1"}} {
		c := h.cli("--latest", "--debug")
		if tc.agent != "" {
			c.args = append(c.args, "--agent", tc.agent)
		}
		got, r := latestRead(t, c)
		if got != read(paths[tc.want]) {
			t.Errorf("--agent %q: read %.80q, want the file of %s (exit %d, stderr %q)", tc.agent, got, tc.want, r.code, r.stderr)
		}
		if !strings.Contains(r.stderr, "session "+tc.want+" (~/") {
			t.Errorf("--agent %q: --debug does not name the session: %q", tc.agent, r.stderr)
		}
	}
	for _, args := range [][]string{{"--latest", "--agent", "cursor"}, {"--latest", "--agent", "qwen"}, {"--latest", "x.jsonl"}, {"sessions", "--agent", "opencode"}} {
		if r := h.cli(args...).run(t); r.code != ExitUsage || !strings.Contains(r.stderr, "agentfmt --help") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}

// The agents' own variables move their folders; the defaults under HOME
// are then left alone.
func TestLatestHonoursAgentHomes(t *testing.T) {
	t.Parallel()
	h := newFakeHome(t)
	h.populate()
	h.put("cc/projects/"+projDir(h.proj)+"/c-mv.jsonl", transcript(h.proj, "c-mv", "moved claude"), 300)
	h.put("cx/sessions/2026/11/21/rollout-2026-11-21T09-00-00-x-mv.jsonl", rollout(h.proj, "x-mv", "moved codex"), 400)
	h.put("gh/.gemini/tmp/"+sha256hex(h.proj)+"/chats/session-2026-11-21T10-00-gmv.json", savedChat("g-mv", "moved gemini"), 500)
	c := h.cli("sessions")
	c.env["CLAUDE_CONFIG_DIR"] = filepath.Join(h.home, "cc")
	c.env["CODEX_HOME"] = filepath.Join(h.home, "cx")
	c.env["GEMINI_CLI_HOME"] = filepath.Join(h.home, "gh")
	r := c.run(t)
	if got := strings.Join(listedIDs(t, r.stdout), ", "); got != "claude c-mv, codex x-mv, gemini g-mv" {
		t.Errorf("listed %s", got)
	}
	c.args = []string{"--latest"}
	if got, _ := latestRead(t, c); got != transcript(h.proj, "c-mv", "moved claude") {
		t.Errorf("--latest read %.80q", got)
	}
}

// --latest --follow: what the newest session holds, then what the agent
// appends to it while it runs in another terminal.
func TestLatestFollow(t *testing.T) {
	t.Parallel()
	h := newFakeHome(t)
	paths := h.populate()
	tee := filepath.Join(t.TempDir(), "tee")
	fr := startRun(h.env, "--latest", "--follow", "-o", "json", "--tee", tee)
	before, _ := os.ReadFile(paths["c-new"])
	teeHas := func(s string) func() bool {
		return func() bool { b, _ := os.ReadFile(tee); return strings.Contains(string(b), s) }
	}
	waitFor(t, "the session so far", teeHas(string(before)))
	waitFor(t, "its answer so far", func() bool { return strings.Contains(fr.out.String(), "Looking.") })
	more := `{"parentUuid":"a1","isSidechain":false,"userType":"external","cwd":"` + h.proj + `","sessionId":"c-new","version":"2.0.76","message":{"model":"claude-haiku-4-5","id":"msg_2","type":"message","role":"assistant","content":[{"type":"text","text":"Appended live."}],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":1}},"type":"assistant","uuid":"a2","timestamp":"2026-11-22T10:01:00.000Z"}` + "\n"
	appendTo(t, paths["c-new"], more)
	waitFor(t, "the appended line read", teeHas(string(before)+more))
	waitFor(t, "the appended line shown", func() bool { return strings.Contains(fr.out.String(), "Appended live.") })
	fr.interrupt(t, "--latest --follow")
}

// A Gemini CLI chat saved as one JSON document is rewritten whole on every
// change: --follow shows it as it is and says so, rather than reading the
// rewrites as appended lines.
func TestLatestFollowGeminiDocument(t *testing.T) {
	t.Parallel()
	h := newFakeHome(t)
	path := h.put(".gemini/tmp/"+sha256hex(h.proj)+"/chats/session-2026-11-22T10-00-g1.json", savedChat("g-1", "gemini prompt"), 1)
	done := make(chan cliResult, 1)
	tee := filepath.Join(t.TempDir(), "tee")
	go func() { done <- h.cli("--latest", "--follow", "--tee", tee).run(t) }()
	select {
	case r := <-done:
		if !strings.Contains(r.stderr, "rewritten whole") || !strings.Contains(r.stderr, "not followed") {
			t.Errorf("stderr %q", r.stderr)
		}
		if b, _ := os.ReadFile(tee); string(b) != savedChat("g-1", "gemini prompt") {
			t.Errorf("read %q from %s", b, path)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("--latest --follow of a Gemini .json chat did not return")
	}
}

// On a terminal, a sessions table longer than the screen goes through the
// pager, as a replayed FILE does (here a fake pager that marks its lines);
// one that fits, --pager never and --json are written as they are.
func TestSessionsPaged(t *testing.T) {
	t.Parallel()
	h := newFakeHome(t)
	h.populate() // four sessions of this project: five rows with the heading
	pagerRun := func(height int, args ...string) cliResult {
		c := h.cli(append([]string{"sessions", "--color", "never"}, args...)...)
		c.tty, c.width, c.height = true, 80, height
		c.env["AGENTFMT_PAGER"] = `sed 's/^/PAGED: /'`
		return c.run(t)
	}
	r := pagerRun(4)
	if r.code != 0 || !strings.Contains(r.stdout, "PAGED: WHEN") || !strings.Contains(r.stdout, "PAGED: 2d ago") {
		t.Errorf("a table longer than the screen, not paged (exit %d):\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, c := range []struct {
		name   string
		height int
		args   []string
	}{
		{"fits the screen", 40, nil},
		{"--pager never", 4, []string{"--pager", "never"}},
		{"--json", 4, []string{"--json"}},
	} {
		r := pagerRun(c.height, c.args...)
		if r.code != 0 || strings.Contains(r.stdout, "PAGED") || !strings.Contains(r.stdout, "c-old") {
			t.Errorf("%s: paged, or not written (exit %d):\n%s%s", c.name, r.code, r.stdout, r.stderr)
		}
	}
}
