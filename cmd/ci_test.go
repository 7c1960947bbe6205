package cmd

// CI logs and shell scripts (issue #5): GitHub/GitLab markers, workflow
// command injection, job summary, -o text, -o markdown, --until,
// --sentences, --follow, --timestamps and exit codes. Test inputs are
// Claude stream-json written from docs/formats/claude.md.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode"
)

// cs builds a Claude stream-json log.
type cs struct {
	b strings.Builder
	n int
}

func (s *cs) String() string { return s.b.String() }

func (s *cs) line(v map[string]any) *cs {
	s.n++
	if _, ok := v["session_id"]; !ok {
		v["session_id"] = "sess-1"
	}
	enc := json.NewEncoder(&s.b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return s
}

func (s *cs) init() *cs {
	return s.line(map[string]any{"type": "system", "subtype": "init", "cwd": "/work", "model": "claude-sonnet-4-5",
		"tools": []string{"Bash", "Read"}, "permissionMode": "default"})
}

func (s *cs) block(msgID string, block map[string]any) *cs {
	return s.line(map[string]any{"type": "assistant", "parent_tool_use_id": nil, "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
		"content": []any{block}, "stop_reason": nil}})
}

func (s *cs) text(msgID, text string) *cs {
	return s.block(msgID, map[string]any{"type": "text", "text": text})
}

func (s *cs) toolUse(msgID, id, name string, input map[string]any) *cs {
	return s.block(msgID, map[string]any{"type": "tool_use", "id": id, "name": name, "input": input})
}

func (s *cs) toolResult(id, content string, isError bool) *cs {
	return s.line(map[string]any{"type": "user", "parent_tool_use_id": nil, "message": map[string]any{
		"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": content, "is_error": isError}}}})
}

func (s *cs) result(ok bool, text string) *cs {
	v := map[string]any{"type": "result", "subtype": "success", "is_error": !ok, "duration_ms": 65000, "duration_api_ms": 60000,
		"num_turns": 3, "total_cost_usd": 0.0123, "stop_reason": "end_turn", "terminal_reason": "completed",
		"usage": map[string]any{"input_tokens": 1200, "output_tokens": 340, "cache_read_input_tokens": 5000, "cache_creation_input_tokens": 0}}
	if ok {
		v["result"] = text
	} else {
		v["subtype"] = "error_max_turns"
		v["terminal_reason"] = "max_turns"
		v["errors"] = []string{"Reached maximum number of turns (3)"}
	}
	return s.line(v)
}

func (s *cs) event(ev map[string]any) *cs {
	return s.line(map[string]any{"type": "stream_event", "parent_tool_use_id": nil, "event": ev})
}

func (s *cs) deltas(parts ...string) *cs {
	s.event(map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
	for _, p := range parts {
		s.event(map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": p}})
	}
	return s
}

func (s *cs) stops() *cs {
	s.event(map[string]any{"type": "content_block_stop", "index": 0})
	s.event(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn"}, "usage": map[string]any{"output_tokens": 20}})
	return s.event(map[string]any{"type": "message_stop"})
}

// aRun is a small successful run: text, a failing tool call, the answer.
func aRun(answer string) *cs {
	s := &cs{}
	s.init()
	s.text("msg_1", "I'll run the tests.")
	s.toolUse("msg_1", "toolu_1", "Bash", map[string]any{"command": "go test ./..."})
	s.toolResult("toolu_1", "--- FAIL: TestClock\nFAIL", true)
	s.text("msg_2", answer)
	return s.result(true, answer)
}

// ghRunner replays a log as the GitHub runner reads it: the commands it
// acts on (name "resume" for a resume line) and the log the viewer gets.
func ghRunner(out string) (cmds []string, log []string) {
	registered := map[string]bool{}
	for _, c := range []string{"stop-commands", "add-mask", "set-env", "set-output", "save-state", "add-path",
		"add-matcher", "remove-matcher", "debug", "warning", "error", "notice", "group", "endgroup", "echo"} {
		registered[c] = true
	}
	stopped, token := false, ""
	known := func(n string) bool {
		return registered[strings.ToLower(n)] || stopped && strings.EqualFold(n, token)
	}
	parse := func(l string) (string, string, bool) {
		t := strings.TrimLeftFunc(l, unicode.IsSpace)
		if strings.HasPrefix(t, "::") {
			if end := strings.Index(t[2:], "::"); end >= 0 {
				name, _, _ := strings.Cut(t[2:2+end], " ")
				if known(name) {
					return name, t[4+end:], true
				}
			}
		}
		if i := strings.Index(l, "##["); i >= 0 {
			if rb := strings.IndexByte(l[i:], ']'); rb >= 0 {
				name, _, _ := strings.Cut(l[i+3:i+rb], " ")
				if known(name) {
					return name, l[i+rb+1:], true
				}
			}
		}
		return "", "", false
	}
	lines := strings.FieldsFunc(strings.ReplaceAll(out, "\r\n", "\n"), func(r rune) bool { return r == '\n' || r == '\r' })
	for _, l := range lines {
		name, data, ok := parse(l)
		switch {
		case !ok:
			log = append(log, l)
		case stopped && strings.EqualFold(name, token):
			stopped = false
			cmds = append(cmds, "resume")
		case stopped:
			log = append(log, l)
		case strings.EqualFold(name, "stop-commands"):
			stopped, token = true, data
			cmds = append(cmds, "stop-commands")
		default:
			cmds = append(cmds, strings.ToLower(name)+":"+data)
			if strings.EqualFold(name, "group") {
				log = append(log, "##[group]"+data)
			} else if strings.EqualFold(name, "endgroup") {
				log = append(log, "##[endgroup]")
			}
		}
	}
	return cmds, log
}

// liveCommands are the commands acted on, without stop and resume.
func liveCommands(cmds []string) []string {
	var live []string
	for _, c := range cmds {
		if c != "resume" && c != "stop-commands" {
			live = append(live, c)
		}
	}
	return live
}

func markup(log []string) []string {
	var m []string
	for _, l := range log {
		if strings.HasPrefix(l, "##[") {
			m = append(m, l)
		}
	}
	return m
}

func TestCIEnvironments(t *testing.T) {
	t.Parallel()
	in := aRun("All green.").String()
	cases := []struct {
		name   string
		args   []string
		env    map[string]string
		github bool
		gitlab bool
	}{
		{"GITHUB_ACTIONS", []string{"-o", "plain"}, map[string]string{"GITHUB_ACTIONS": "true"}, true, false},
		{"GITLAB_CI", []string{"-o", "plain"}, map[string]string{"GITLAB_CI": "true"}, false, true},
		{"no CI", []string{"-o", "plain"}, nil, false, false},
		{"GITHUB_ACTIONS=false", []string{"-o", "plain"}, map[string]string{"GITHUB_ACTIONS": "false"}, false, false},
		{"--ci none beats the environment", []string{"-o", "plain", "--ci", "none"}, map[string]string{"GITHUB_ACTIONS": "true"}, false, false},
		{"--ci github without the environment", []string{"-o", "plain", "--ci", "github"}, nil, true, false},
		{"--ci gitlab", []string{"-o", "plain", "--ci", "gitlab"}, map[string]string{"GITHUB_ACTIONS": "true"}, false, true},
		{"default format in CI is plain", nil, map[string]string{"GITHUB_ACTIONS": "true"}, true, false},
		{"json has no markers", []string{"-o", "json"}, map[string]string{"GITHUB_ACTIONS": "true"}, false, false},
		{"text has no markers", []string{"-o", "text"}, map[string]string{"GITLAB_CI": "true"}, false, false},
		{"markdown has no markers", []string{"-o", "markdown"}, map[string]string{"GITHUB_ACTIONS": "true"}, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := cli{args: c.args, stdin: strings.NewReader(in), env: c.env}.run(t)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			gh := strings.HasPrefix(r.stdout, "::stop-commands::") && strings.Contains(r.stdout, "\n##[group]✗ Bash go test ./...")
			gl := strings.Contains(r.stdout, "\x1b[0Ksection_start:")
			if gh != c.github || gl != c.gitlab {
				t.Errorf("github markers %v (want %v), gitlab sections %v (want %v):\n%s", gh, c.github, gl, c.gitlab, r.stdout)
			}
			if !c.github && (strings.Contains(r.stdout, "::stop-commands::") || strings.Contains(r.stdout, "##[group]")) {
				t.Errorf("GitHub markers where there should be none")
			}
		})
	}
}

func TestGitHubLogThroughCLI(t *testing.T) {
	t.Parallel()
	s := &cs{}
	s.init()
	s.line(map[string]any{"type": "system", "subtype": "api_retry", "attempt": 2, "max_retries": 10, "retry_delay_ms": 4000, "error": "overloaded"})
	s.toolUse("msg_1", "toolu_1", "Bash", map[string]any{"command": "make test"})
	s.toolResult("toolu_1", strings.Repeat("ok line\n", 40), false)
	s.toolUse("msg_2", "toolu_2", "Bash", map[string]any{"command": "sleep 600"})
	// The stream ends mid-tool: the group is still balanced, the run is an
	// error annotation, commands are resumed at the end.
	// (NO_COLOR: the log's colour, on by default in Actions, is tested apart.)
	r := cli{args: []string{"-o", "plain"}, stdin: strings.NewReader(s.String()), env: map[string]string{"GITHUB_ACTIONS": "true", "NO_COLOR": "1"}}.run(t)
	if r.code != ExitIncomplete {
		t.Errorf("exit %d", r.code)
	}
	cmds, log := ghRunner(r.stdout)
	if cmds[0] != "stop-commands" || cmds[len(cmds)-1] != "resume" {
		t.Errorf("not stopped at the start and resumed at the end: %q", cmds)
	}
	live := liveCommands(cmds)
	if len(live) == 0 || !strings.HasPrefix(live[len(live)-1], "error:agent run incomplete") {
		t.Errorf("no incomplete-run error annotation: %q", live)
	}
	m := markup(log)
	want := []string{"##[group]✓ Bash make test", "##[endgroup]"}
	if strings.Join(m, "\n") != strings.Join(want, "\n") {
		t.Errorf("groups\n got %q\nwant %q", m, want)
	}
	if !strings.Contains(r.stdout, "\n… Bash sleep 600 · incomplete\n") {
		t.Errorf("the cut-off tool call is not shown:\n%s", r.stdout)
	}
	if strings.Count(r.stdout, "ok line") != 40 {
		t.Errorf("folded output is not whole")
	}
}

// Workflow commands inside assistant text, tool input and tool output are
// never acted on: between the stop and each resume no command is live,
// and every live command is agentfmt's own.
func TestWorkflowCommandInjection(t *testing.T) {
	t.Parallel()
	payload := strings.Join([]string{
		"::add-mask::hunter2",
		"::set-env name=NODE_OPTIONS::--require /tmp/x.js",
		"::endgroup::",
		"::stop-commands::x",
		"::error::pwned",
		"  ::warning file=a.go::indented",
		"##[add-mask]old-syntax",
		"see ##[error]mid-line",
		"##[endgroup]",
		"##[group]fake",
	}, "\n")
	s := &cs{}
	s.init()
	s.text("msg_1", "Look:\n"+payload)
	s.toolUse("msg_1", "toolu_1", "Bash", map[string]any{"command": "cat notes.txt # ::add-mask::x"})
	s.toolResult("toolu_1", payload, false)
	s.toolUse("msg_2", "toolu_2", "Read", map[string]any{"file_path": "##[error]evil.md"})
	s.toolResult("toolu_2", payload, true)
	s.line(map[string]any{"type": "rate_limit_event", "rate_limit_info": map[string]any{"status": "allowed_warning", "rateLimitType": "five_hour"}})
	s.b.WriteString("::add-mask::raw-line\n##[error]raw-line\n")
	// The marker split across deltas, and the answer with commands in it.
	s.event(map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_3", "role": "assistant", "content": []any{}}})
	s.deltas(":", ":error::split-across-deltas\n#", "#[add-mask]split")
	s.text("msg_3", "::error::split-across-deltas\n##[add-mask]split")
	s.stops()
	s.result(false, "")
	for _, env := range []map[string]string{{"GITHUB_ACTIONS": "true"}, {"GITHUB_ACTIONS": "true", "NO_COLOR": "1"}} {
		r := cli{args: []string{"-o", "plain", "--tools", "full"}, stdin: strings.NewReader(s.String()), env: env}.run(t)
		if r.code != ExitFailed {
			t.Errorf("exit %d", r.code)
		}
		cmds, log := ghRunner(r.stdout)
		stopped := false
		var live []string
		for _, c := range cmds {
			switch c {
			case "stop-commands":
				stopped = true
			case "resume":
				stopped = false
			default:
				if stopped {
					t.Errorf("live command while stopped: %s", c)
				}
				live = append(live, c)
			}
		}
		for _, c := range live {
			if !strings.HasPrefix(c, "warning:") && !strings.HasPrefix(c, "error:agent run failed") {
				t.Errorf("content issued a command: %q", c)
			}
		}
		if n := len(live); n < 2 {
			t.Errorf("agentfmt's own annotations missing: %q", live)
		}
		m := markup(log)
		want := []string{"##[group]✓ Bash cat notes.txt # ::add-mask::x", "##[endgroup]", "##[group]✗ Read ##\u200b[error]evil.md", "##[endgroup]"}
		if strings.Join(m, "\n") != strings.Join(want, "\n") {
			t.Errorf("viewer markup\n got %q\nwant %q", m, want)
		}
		if !strings.Contains(r.stdout, "hunter2") || !strings.Contains(r.stdout, "split-across-deltas") {
			t.Errorf("content was dropped")
		}
	}
}

func TestGitLabThroughCLI(t *testing.T) {
	t.Parallel()
	s := aRun("Done.")
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC).Unix()
	r := cli{args: []string{"-o", "plain"}, stdin: strings.NewReader(s.String()), env: map[string]string{"GITLAB_CI": "true"}}.run(t)
	start := regexp.MustCompile(`\x1b\[0Ksection_start:(\d+):([A-Za-z0-9_.-]+)\[collapsed=true\]\r\x1b\[0K(.*)\n`)
	end := regexp.MustCompile(`\x1b\[0Ksection_end:(\d+):([A-Za-z0-9_.-]+)\r\x1b\[0K\n`)
	st, en := start.FindAllStringSubmatch(r.stdout, -1), end.FindAllStringSubmatch(r.stdout, -1)
	if len(st) != 1 || len(en) != 1 || st[0][2] != en[0][2] {
		t.Fatalf("sections %q %q in\n%q", st, en, r.stdout)
	}
	if st[0][1] != fmt.Sprint(now) || en[0][1] != fmt.Sprint(now) {
		t.Errorf("section times %s %s, want %d (renderenv.Env.Now)", st[0][1], en[0][1], now)
	}
	if st[0][3] != "✗ Bash go test ./..." {
		t.Errorf("header %q", st[0][3])
	}
	if strings.Contains(r.stdout, "::") {
		t.Errorf("GitHub markers in a GitLab log")
	}
}

func TestStepSummaryFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "summary.md")
	os.WriteFile(path, []byte("# Earlier step"), 0o644)
	in := aRun("The flaky test used the real clock; it now uses a fake one.").String()
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": path}
	for _, format := range []string{"plain", "text", "json"} {
		r := cli{args: []string{"-o", format}, stdin: strings.NewReader(in), env: env}.run(t)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("%s: exit %d, stderr %q", format, r.code, r.stderr)
		}
	}
	b, _ := os.ReadFile(path)
	got := string(b)
	if !strings.HasPrefix(got, "# Earlier step\n\n### ✓ claude (`claude-sonnet-4-5`) succeeded\n") {
		t.Errorf("not appended after what was there:\n%s", got)
	}
	if n := strings.Count(got, "### ✓ claude"); n != 3 {
		t.Errorf("%d summaries, want one per run of agentfmt", n)
	}
	for _, want := range []string{
		"| Duration | Turns | Tokens | Cost | Tool calls |",
		"| 1m05s | 3 | 1.2k + 5.0k cached in, 340 out | $0.0123 | 1 (1 failed): Bash |",
		"#### Final answer\n\nThe flaky test used the real clock; it now uses a fake one.\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}

	// Unset: nothing written, nothing said; never: nothing even when set.
	os.Remove(path)
	cli{args: []string{"-o", "plain"}, stdin: strings.NewReader(in), env: map[string]string{"GITHUB_ACTIONS": "true"}}.run(t)
	r := cli{args: []string{"-o", "plain", "--summary", "never"}, stdin: strings.NewReader(in), env: env}.run(t)
	if _, err := os.Stat(path); err == nil || r.code != 0 {
		t.Errorf("summary written with --summary never (exit %d)", r.code)
	}
	// always without the variable: a message, the exit status unchanged.
	r = cli{args: []string{"-o", "plain", "--summary", "always"}, stdin: strings.NewReader(in)}.run(t)
	if r.code != 0 || !strings.Contains(r.stderr, "GITHUB_STEP_SUMMARY is not set") {
		t.Errorf("--summary always without the variable: exit %d, stderr %q", r.code, r.stderr)
	}
	// A failed run, with --until: the outcome and the stripped answer.
	fail := aRun("x")
	fail.b.Reset()
	fail.init().text("msg_1", "Stopping !isfinish").result(false, "")
	cli{args: []string{"-o", "plain", "--until", "!isfinish"}, stdin: strings.NewReader(fail.String()), env: env}.run(t)
	b, _ = os.ReadFile(path)
	if !strings.Contains(string(b), "### ✗ claude (`claude-sonnet-4-5`) failed\n\nerror\\_max\\_turns") ||
		!strings.Contains(string(b), "#### Final answer\n\nStopping\n") {
		t.Errorf("failed-run summary:\n%s", b)
	}
}

// untilEarlier is the first message of untilStream: the marker in the
// middle of a sentence does not count and is shown as it is.
const untilEarlier = "Working on it, I'll say !isfinish at the end."

// withoutEarlier is out without untilEarlier, which must be there in every
// format but text.
func withoutEarlier(t *testing.T, format, out string) string {
	t.Helper()
	if format != "text" && !strings.Contains(out, untilEarlier) {
		t.Errorf("-o %s: the mid-sentence marker was not left alone:\n%s", format, out)
	}
	return strings.ReplaceAll(out, untilEarlier, "")
}

// untilStream has the marker split across deltas in the final message.
func untilStream(ok bool, answerParts ...string) string {
	s := &cs{}
	s.init()
	s.text("msg_1", untilEarlier)
	s.event(map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_2", "role": "assistant", "content": []any{}}})
	s.deltas(answerParts...)
	s.text("msg_2", strings.Join(answerParts, ""))
	s.stops()
	return s.result(ok, strings.Join(answerParts, "")).String()
}

func TestUntilEveryFormat(t *testing.T) {
	t.Parallel()
	withMarker := untilStream(true, "Zakończyłem zadanie! Wszystko działa poprawnie. !is", "FIN", "ish")
	without := untilStream(true, "Zakończyłem zadanie!")
	for _, format := range []string{"plain", "json", "text", "markdown", "pretty"} {
		t.Run(format, func(t *testing.T) {
			r := cli{args: []string{"-o", format, "--until", "!isfinish", "--color", "never"}, stdin: strings.NewReader(withMarker)}.run(t)
			if r.code != 0 {
				t.Errorf("marker present: exit %d (%s)", r.code, r.stderr)
			}
			if out := withoutEarlier(t, format, r.stdout); strings.Contains(strings.ToLower(out), "!isfinish") || strings.Contains(out, "!is\"") || strings.Contains(out, "FINish") {
				t.Errorf("marker shown:\n%s", r.stdout)
			}
			if !strings.Contains(r.stdout, "Wszystko działa poprawnie.") {
				t.Errorf("answer missing:\n%s", r.stdout)
			}
			r = cli{args: []string{"-o", format, "--until", "!isfinish"}, stdin: strings.NewReader(without)}.run(t)
			if r.code != ExitUntil {
				t.Errorf("marker missing: exit %d, want 4", r.code)
			}
		})
	}
	// -o text prints exactly the answer without the marker.
	r := cli{args: []string{"-o", "text", "--until", "!isfinish"}, stdin: strings.NewReader(withMarker)}.run(t)
	if r.stdout != "Zakończyłem zadanie! Wszystko działa poprawnie.\n" {
		t.Errorf("text %q", r.stdout)
	}
	// json: the result's text and the deltas are stripped.
	r = cli{args: []string{"-o", "json", "--until", "!isfinish"}, stdin: strings.NewReader(withMarker)}.run(t)
	var deltas strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatal(err)
		}
		switch ev["kind"] {
		case "text.delta":
			if ev["message"] == "msg_2" {
				deltas.WriteString(ev["text"].(string))
			}
		case "result":
			if ev["text"] != "Zakończyłem zadanie! Wszystko działa poprawnie." {
				t.Errorf("result text %q", ev["text"])
			}
		}
	}
	if deltas.String() != "Zakończyłem zadanie! Wszystko działa poprawnie." {
		t.Errorf("deltas %q", deltas.String())
	}
}

func TestUntilExitCodes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		want int
	}{
		{"present", untilStream(true, "Done. !isfinish"), ExitOK},
		{"missing", untilStream(true, "Done."), ExitUntil},
		// The marker in an earlier message is not in the final answer.
		{"only earlier", func() string {
			s := &cs{}
			return s.init().text("msg_1", "Almost !isfinish").text("msg_2", "Wait, one more thing.").result(true, "Wait, one more thing.").String()
		}(), ExitUntil},
		// Only in result.result (the session saw it unstripped).
		{"only in result text", func() string {
			s := &cs{}
			return s.init().line(map[string]any{"type": "result", "subtype": "success", "is_error": false, "num_turns": 1,
				"result": "All done !isfinish", "duration_ms": 10}).String()
		}(), ExitOK},
		{"failure keeps 1", func() string {
			s := &cs{}
			return s.init().text("msg_1", "!isfinish").result(false, "").String()
		}(), ExitFailed},
		{"incomplete keeps 3", func() string {
			s := &cs{}
			return s.init().text("msg_1", "no marker").String()
		}(), ExitIncomplete},
		{"incomplete with marker keeps 3", func() string {
			s := &cs{}
			return s.init().text("msg_1", "!isfinish").String()
		}(), ExitIncomplete},
		{"case-insensitive", untilStream(true, "Done. !IsFinish"), ExitOK},
	}
	for _, c := range cases {
		for _, format := range []string{"plain", "json", "text", "markdown"} {
			r := cli{args: []string{"-o", format, "--until", "!isfinish"}, stdin: strings.NewReader(c.in)}.run(t)
			if r.code != c.want {
				t.Errorf("%s, -o %s: exit %d, want %d", c.name, format, r.code, c.want)
			}
			// Only agentfmt's own note that the marker is missing names it.
			out := r.stdout
			if strings.Contains(c.in, untilEarlier) {
				out = withoutEarlier(t, format, out)
			}
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(strings.ToLower(l), "!isfinish") && !strings.Contains(l, "lacks the completion marker") {
					t.Errorf("%s, -o %s: marker shown: %q", c.name, format, l)
				}
			}
		}
	}
}

// Exit status in every format (the table of --help, exitHelp).
func TestExitStatusEveryFormat(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		want int
	}{
		{"success", aRun("ok").String(), ExitOK},
		{"failure", (&cs{}).init().text("msg_1", "hm").result(false, "").String(), ExitFailed},
		{"no result", (&cs{}).init().text("msg_1", "hm").String(), ExitIncomplete},
		{"open tool", (&cs{}).init().toolUse("msg_1", "t", "Bash", map[string]any{"command": "x"}).String(), ExitIncomplete},
		{"cut last line", aRun("ok").String() + `{"type":"assis`, ExitOK},
		{"last run decides", (&cs{}).init().result(false, "").init().text("msg_2", "again").result(true, "again").String(), ExitOK},
		{"empty input", "", ExitIncomplete},
	}
	for _, c := range cases {
		for _, format := range []string{"plain", "pretty", "json", "text", "markdown"} {
			r := cli{args: []string{"-o", format}, stdin: strings.NewReader(c.in)}.run(t)
			if r.code != c.want {
				t.Errorf("%s, -o %s: exit %d, want %d (stderr %q)", c.name, format, r.code, c.want, r.stderr)
			}
		}
	}
}

// The test binary is agentfmt itself when run with this variable set, so
// shell tests need no build.
const asAgentfmt = "AGENTFMT_CI_TEST_AS_MAIN"

func init() {
	if os.Getenv(asAgentfmt) == "1" {
		os.Exit(Main())
	}
}

// A shell script with set -o pipefail sees the agent's status through the
// pipe, and answer=$(… | agentfmt -o text) gets the answer.
func TestPipefailInAShell(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.jsonl")
	failed := filepath.Join(dir, "failed.jsonl")
	os.WriteFile(ok, []byte(untilStream(true, "The answer is 42. !isfinish")), 0o644)
	os.WriteFile(failed, []byte((&cs{}).init().text("msg_1", "hm").result(false, "").String()), 0o644)
	script := `set -o pipefail
answer=$(cat "$OK" | "$BIN" -o text --until '!isfinish'); echo "ok=$? answer=[$answer]"
cat "$FAILED" | "$BIN" -o plain >/dev/null; echo "failed=$?"
cat "$OK" | "$BIN" -o plain --until 'NOPE' >/dev/null; echo "until=$?"
`
	cmd := exec.Command("bash", "-c", script)
	cmd.Env = append(os.Environ(), "OK="+ok, "FAILED="+failed, "BIN="+bin, asAgentfmt+"=1", "GITHUB_ACTIONS=", "GITLAB_CI=", "GITHUB_STEP_SUMMARY=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := "ok=0 answer=[The answer is 42.]\nfailed=1\nuntil=4\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestTextIsTheFinalAnswer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"result.result", aRun("Final words.").String(), "Final words.\n"},
		{"empty result.result: the last assistant message", func() string {
			s := &cs{}
			return s.init().text("msg_1", "Preamble.").toolUse("msg_1", "t", "Bash", map[string]any{"command": "ls"}).
				toolResult("t", "a", false).text("msg_2", "The real answer.").result(true, "").String()
		}(), "The real answer.\n"},
		{"streamed answer", untilStream(true, "Part one, ", "part two."), "Part one, part two.\n"},
		{"no answer on failure", (&cs{}).init().result(false, "").String(), ""},
		{"incomplete run: what was said last", (&cs{}).init().text("msg_1", "Cut off here").String(), "Cut off here\n"},
	}
	for _, c := range cases {
		r := cli{args: []string{"-o", "text"}, stdin: strings.NewReader(c.in)}.run(t)
		if r.stdout != c.want {
			t.Errorf("%s: %q, want %q", c.name, r.stdout, c.want)
		}
	}
}

// The final answer per agent, as the format notes define it: Codex the
// last agent_message, Gemini the text after the last tool, OpenCode the
// text of the last step (the one that finished with "stop"), ACP the last
// agent message, Cline the completion_result, Cursor the result. Every stream says something else before its answer.
func TestTextFinalAnswerPerAgent(t *testing.T) {
	t.Parallel()
	streams := map[string]string{
		"codex": `{"type":"thread.started","thread_id":"th_1"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"I'll check the files."}}
{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"a\n","exit_code":0,"status":"completed"}}
{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"There is one file: a."}}
{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":5}}
`,
		"gemini": `{"type":"init","timestamp":"2025-10-29T10:36:24.686Z","session_id":"s1","model":"gemini-2.5-pro"}
{"type":"message","timestamp":"2025-10-29T10:36:24.700Z","role":"user","content":"list files"}
{"type":"message","timestamp":"2025-10-29T10:36:25.000Z","role":"assistant","content":"I will list the files.","delta":true}
{"type":"tool_use","timestamp":"2025-10-29T10:36:26.000Z","tool_name":"run_shell_command","tool_id":"run_shell_command-1","parameters":{"command":"ls"}}
{"type":"tool_result","timestamp":"2025-10-29T10:36:27.000Z","tool_id":"run_shell_command-1","status":"success","output":"a"}
{"type":"message","timestamp":"2025-10-29T10:36:28.000Z","role":"assistant","content":"There is one ","delta":true}
{"type":"message","timestamp":"2025-10-29T10:36:28.100Z","role":"assistant","content":"file: a.","delta":true}
{"type":"result","timestamp":"2025-10-29T10:36:29.000Z","status":"success","stats":{"total_tokens":10,"input_tokens":5,"output_tokens":5,"duration_ms":100,"tool_calls":1}}
`,
		"opencode": `{"type":"step_start","timestamp":1767036060000,"sessionID":"ses_1","part":{"id":"prt_1","sessionID":"ses_1","messageID":"msg_1","type":"step-start"}}
{"type":"text","timestamp":1767036060100,"sessionID":"ses_1","part":{"id":"prt_2","sessionID":"ses_1","messageID":"msg_1","type":"text","text":"Let me check.","time":{"start":1767036060000,"end":1767036060100}}}
{"type":"tool_use","timestamp":1767036061199,"sessionID":"ses_1","part":{"id":"prt_3","sessionID":"ses_1","messageID":"msg_1","type":"tool","callID":"c1","tool":"bash","state":{"status":"completed","input":{"command":"ls"},"output":"a\n","title":"ls","metadata":{"exit":0},"time":{"start":1767036061123,"end":1767036061173}}}}
{"type":"step_finish","timestamp":1767036061200,"sessionID":"ses_1","part":{"id":"prt_4","reason":"tool-calls","messageID":"msg_1","sessionID":"ses_1","type":"step-finish"}}
{"type":"step_start","timestamp":1767036061300,"sessionID":"ses_1","part":{"id":"prt_5","sessionID":"ses_1","messageID":"msg_2","type":"step-start"}}
{"type":"text","timestamp":1767036062000,"sessionID":"ses_1","part":{"id":"prt_6","sessionID":"ses_1","messageID":"msg_2","type":"text","text":"There is one file: a.","time":{"start":1767036061900,"end":1767036062000}}}
{"type":"step_finish","timestamp":1767036062100,"sessionID":"ses_1","part":{"id":"prt_7","reason":"stop","messageID":"msg_2","sessionID":"ses_1","type":"step-finish","tokens":{"input":10,"output":5,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}}
`,
		"acp": `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"list files"}]}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"I'll check."}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"ls","kind":"execute","status":"pending"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"a"}}]}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"There is one "}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"file: a."}}}}
{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}
`,
		"cline": `{"type":"say","say":"text","text":"list files","ts":1760501486000}
{"type":"say","say":"api_req_started","text":"{\"request\":\"x\"}","ts":1760501486100}
{"type":"say","say":"text","text":"I'll check the files.","ts":1760501486200}
{"type":"ask","ask":"command","text":"ls","ts":1760501486300}
{"type":"say","say":"command_output","text":"a","ts":1760501486400}
{"type":"say","say":"text","text":"Looks good.","ts":1760501486450}
{"type":"say","say":"completion_result","text":"There is one file: a.","ts":1760501486500}
{"type":"ask","ask":"completion_result","text":"","ts":1760501486600}
`,
		"cursor": `{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/w","session_id":"c1","model":"gpt-5","permissionMode":"default"}
{"type":"user","message":{"role":"user","content":[{"type":"text","text":"list files"}]},"session_id":"c1"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"I'll check."}]},"session_id":"c1"}
{"type":"tool_call","subtype":"started","call_id":"call_1","tool_call":{"shellToolCall":{"args":{"command":"ls"}}},"session_id":"c1"}
{"type":"tool_call","subtype":"completed","call_id":"call_1","tool_call":{"shellToolCall":{"args":{"command":"ls"},"result":{"success":{"command":"ls","exitCode":0,"stdout":"a\n","stderr":""}}}},"session_id":"c1"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"There is one file: a."}]},"session_id":"c1"}
{"type":"result","subtype":"success","duration_ms":100,"duration_api_ms":90,"is_error":false,"result":"There is one file: a.","session_id":"c1","request_id":"r1"}
`,
	}
	for agent, in := range streams {
		r := cli{args: []string{"-o", "text"}, stdin: strings.NewReader(in)}.run(t)
		if r.stdout != "There is one file: a.\n" || r.code != 0 {
			t.Errorf("%s: exit %d, answer %q (stderr %q)", agent, r.code, r.stdout, r.stderr)
		}
	}
}

func TestMarkdownThroughCLI(t *testing.T) {
	t.Parallel()
	r := cli{args: []string{"-o", "markdown"}, stdin: strings.NewReader(aRun("Fixed: see `clock.go`.").String()), env: map[string]string{"GITHUB_ACTIONS": "true"}}.run(t)
	want := "## Run 1 · claude · `claude-sonnet-4-5`\n\n<sub>session `sess-1` in `/work`</sub>\n\n" +
		"I'll run the tests.\n\n" +
		"- ✗ **Bash** `go test ./...`\n  ```\n  --- FAIL: TestClock\n  FAIL\n  ```\n\n" +
		"Fixed: see `clock.go`.\n\n" +
		"**✓ Done** · 1m05s · 3 turns · 1.2k + 5.0k cached in, 340 out · $0.0123\n"
	if r.stdout != want || r.code != 0 {
		t.Errorf("exit %d, got\n%s\nwant\n%s", r.code, r.stdout, want)
	}
}

func TestSentencesThroughCLI(t *testing.T) {
	t.Parallel()
	in := untilStream(true, "Dobra, zaraz sprawdzę co mamy na ekranie. Wi", "dzę przeglądarkę! Czy to ", "3.14? Tak.")
	r := cli{args: []string{"-o", "json", "--sentences"}, stdin: strings.NewReader(in)}.run(t)
	var sentences, deltas []string
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev struct{ Kind, Message, Text, Role string }
		json.Unmarshal([]byte(l), &ev)
		if ev.Message != "msg_2" {
			continue
		}
		switch ev.Kind {
		case "text.sentence":
			sentences = append(sentences, ev.Text)
			if ev.Role != "assistant" {
				t.Errorf("sentence role %q", ev.Role)
			}
		case "text.delta":
			deltas = append(deltas, ev.Text)
		}
	}
	want := []string{"Dobra, zaraz sprawdzę co mamy na ekranie. ", "Widzę przeglądarkę! ", "Czy to 3.14? ", "Tak."}
	if strings.Join(sentences, "|") != strings.Join(want, "|") {
		t.Errorf("sentences %q", sentences)
	}
	if strings.Join(sentences, "") != strings.Join(deltas, "") {
		t.Errorf("sentences do not add up to the text")
	}
	if r.code != 0 {
		t.Errorf("exit %d", r.code)
	}
	// With --until the sentences never hold the marker.
	r = cli{args: []string{"-o", "json", "--sentences", "--until", "!isfinish"}, stdin: strings.NewReader(untilStream(true, "Gotowe. !is", "finish"))}.run(t)
	if strings.Contains(withoutEarlier(t, "json", r.stdout), "isfinish") || !strings.Contains(r.stdout, `"kind":"text.sentence","agent":"claude"`) {
		t.Errorf("got\n%s", r.stdout)
	}
}

func TestTimestamps(t *testing.T) {
	t.Parallel()
	gemini := `{"type":"init","timestamp":"2025-10-29T10:36:24.686Z","session_id":"s1","model":"gemini-2.5-pro"}
{"type":"message","timestamp":"2025-10-29T10:36:25.000Z","role":"assistant","content":"Hello there.\n","delta":true}
{"type":"result","timestamp":"2025-10-29T10:36:30.000Z","status":"success","stats":{"total_tokens":10,"input_tokens":5,"output_tokens":5,"duration_ms":100,"tool_calls":0}}
`
	r := cli{args: []string{"-o", "plain", "--timestamps"}, stdin: strings.NewReader(gemini)}.run(t)
	stamp := time.Date(2025, 10, 29, 10, 36, 25, 0, time.UTC).Local().Format("15:04:05")
	if !strings.Contains(r.stdout, stamp+" Hello there.") {
		t.Errorf("no time before the line:\n%s", r.stdout)
	}
	// Claude gives no times: no prefix, no error.
	r = cli{args: []string{"-o", "plain", "--timestamps"}, stdin: strings.NewReader(aRun("x").String())}.run(t)
	if regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d `).MatchString(r.stdout) || r.code != 0 {
		t.Errorf("times without times:\n%s", r.stdout)
	}
}

// safeBuffer is written by the command while the test reads it.
type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls until cond holds (the command runs in another goroutine).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// quick shortens env's waits for tests: followed files are polled often
// and settle fast, and an unfinished line of several streams is shown
// soon.
func quick(env *Env) *Env {
	env.FollowPoll, env.FollowSettle = 5*time.Millisecond, 100*time.Millisecond
	env.PartialWait = 20 * time.Millisecond
	return env
}

type followRun struct {
	out  *safeBuffer
	err  *safeBuffer
	sig  chan os.Signal
	done chan int
}

func startFollow(t *testing.T, args ...string) *followRun {
	t.Helper()
	return startRun(nil, append([]string{"--follow"}, args...)...)
}

// startRun runs agentfmt in the background with the tests' waits (quick),
// tune changing its environment (nil: nothing).
func startRun(tune func(*Env), args ...string) *followRun {
	fr := &followRun{out: &safeBuffer{}, err: &safeBuffer{}, sig: make(chan os.Signal, 1), done: make(chan int, 1)}
	env := quick(&Env{Stdin: strings.NewReader(""), Stdout: fr.out, Stderr: fr.err, Getenv: func(string) string { return "" },
		Signals: fr.sig, Now: time.Now, Tick: make(chan time.Time)})
	if tune != nil {
		tune(env)
	}
	go func() { fr.done <- Run(args, env) }()
	return fr
}

// interrupt sends SIGINT (Ctrl-C) to the run and checks that it ends with
// 130 within 10 s; what names the run in the failure.
func (fr *followRun) interrupt(t *testing.T, what string) {
	t.Helper()
	fr.sig <- os.Interrupt
	select {
	case code := <-fr.done:
		if code != ExitInterrupted {
			t.Errorf("exit %d, want 130", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("SIGINT did not end %s", what)
	}
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(s)
	f.Close()
}

// A file being written: what is there is shown at once, appended lines as
// they come, even a line written in two pieces; SIGINT ends it with 130,
// saying on stderr that only the following stopped (the agent writes the
// file on its own: its run is not shown interrupted).
func TestFollowAppendAndInterrupt(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	s := &cs{}
	s.init().text("msg_1", "Backlog text.")
	os.WriteFile(path, []byte(s.String()), 0o644)
	fr := startFollow(t, "-o", "plain", path)
	waitFor(t, "the backlog", func() bool { return strings.Contains(fr.out.String(), "● session sess-1") })

	more := (&cs{}).toolUse("msg_1", "toolu_1", "Bash", map[string]any{"command": "make"}).toolResult("toolu_1", "built", false).
		text("msg_2", "Live text.").String()
	half := len(more) - 10
	appendTo(t, path, more[:half]) // the last line cut in two: it waits for its end
	time.Sleep(20 * time.Millisecond)
	appendTo(t, path, more[half:])
	// The tool's lines were whole in the first half; the text's line is
	// whole only once the second half is read: wait for it, so the
	// interrupt below does not land while the line is still half-read.
	waitFor(t, "the live tool", func() bool { return strings.Contains(fr.out.String(), "✓ Bash make") })
	waitFor(t, "the live text", func() bool { return strings.Contains(fr.out.String(), "Live text.") })
	if !strings.Contains(fr.out.String(), "Backlog text.") {
		t.Errorf("backlog text not shown")
	}
	fr.interrupt(t, "--follow")
	if strings.Contains(fr.out.String(), "interrupted") || !strings.Contains(fr.out.String(), "Live text.") {
		t.Errorf("the run shown interrupted, or the live text lost:\n%s", fr.out.String())
	}
	if !strings.Contains(fr.err.String(), "following stopped; the session is left as it was") {
		t.Errorf("stderr %q", fr.err.String())
	}
	if strings.Contains(fr.out.String(), "cut off") {
		t.Errorf("a line being written was taken as cut off:\n%s", fr.out.String())
	}
}

// The run's result ends following (after the file settles) with the run's
// exit status; truncation starts the file again from the top.
func TestFollowEndsWithTheRun(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	os.WriteFile(path, []byte((&cs{}).init().text("msg_1", "First try.").String()), 0o644)
	fr := startFollow(t, "-o", "plain", "--until", "DONE", path)
	waitFor(t, "the backlog", func() bool { return strings.Contains(fr.out.String(), "● session sess-1") })
	// The writer starts the file again (a new run, same file).
	os.WriteFile(path, []byte((&cs{}).init().String()), 0o644)
	waitFor(t, "the truncated file read again", func() bool { return strings.Count(fr.out.String(), "● session sess-1") == 2 })
	appendTo(t, path, (&cs{}).text("msg_2", "All good. DONE").result(true, "All good. DONE").String())
	select {
	case code := <-fr.done:
		if code != ExitOK {
			t.Errorf("exit %d, want 0:\n%s", code, fr.out.String())
		}
	case <-time.After(10 * time.Second):
		fr.sig <- os.Interrupt
		t.Fatal("--follow did not end after the run's result")
	}
	if !strings.Contains(fr.out.String(), "All good.") || strings.Contains(fr.out.String(), "DONE") {
		t.Errorf("output:\n%s", fr.out.String())
	}
}

// A file that does not exist yet is waited for, and stderr says so (as
// tail -F does: a mistyped name must not wait in silence), then that it
// appeared.
func TestFollowWaitsForTheFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "later.jsonl")
	tee := filepath.Join(dir, "tee.jsonl")
	fr := startFollow(t, "-o", "text", "--tee", tee, path)
	waitFor(t, "the waiting notice", func() bool {
		return strings.Contains(fr.err.String(), "agentfmt: --follow: "+path+" does not exist yet: waiting for it to appear")
	})
	in := aRun("Late answer.").String()
	appendTo(t, path, in[:100])
	time.Sleep(20 * time.Millisecond)
	appendTo(t, path, in[100:])
	select {
	case code := <-fr.done:
		if code != ExitOK || fr.out.String() != "Late answer.\n" {
			t.Errorf("exit %d, output %q", code, fr.out.String())
		}
		if !strings.Contains(fr.err.String(), path+" has appeared: following it") {
			t.Errorf("stderr %q", fr.err.String())
		}
		// --tee copies what was followed, byte for byte.
		if b, _ := os.ReadFile(tee); string(b) != in {
			t.Errorf("tee copy differs: %q", b)
		}
	case <-time.After(10 * time.Second):
		fr.sig <- os.Interrupt
		t.Fatal("did not end")
	}
}

// A stream joined in the middle of a message (deltas without
// their message_start) still shows its text, and the full message that
// completes it replaces it rather than adding a second copy.
func TestFollowJoinedMidMessage(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "joined.jsonl")
	s := &cs{}
	// Cut before message_start and content_block_start.
	s.event(map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": "world, this is "}})
	os.WriteFile(path, []byte(s.String()), 0o644)
	fr := startFollow(t, "-o", "json", path)
	waitFor(t, "the joined text", func() bool { return strings.Contains(fr.out.String(), "world, this is ") })
	rest := &cs{}
	rest.event(map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": "the answer."}})
	rest.text("msg_9", "Hello world, this is the answer.")
	rest.stops()
	rest.result(true, "Hello world, this is the answer.")
	appendTo(t, path, rest.String())
	var code int
	select {
	case code = <-fr.done:
	case <-time.After(10 * time.Second):
		fr.sig <- os.Interrupt
		t.Fatal("did not end")
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	// What a client shows: deltas appended, a revision replacing its block.
	blocks := map[string]string{}
	var order []string
	for _, l := range strings.Split(strings.TrimSpace(fr.out.String()), "\n") {
		var ev struct {
			Kind, Message, Text string
			Block               int
		}
		json.Unmarshal([]byte(l), &ev)
		k := fmt.Sprint(ev.Message, "/", ev.Block)
		switch ev.Kind {
		case "text.delta":
			if _, ok := blocks[k]; !ok {
				order = append(order, k)
			}
			blocks[k] += ev.Text
		case "text.revision":
			if _, ok := blocks[k]; !ok {
				order = append(order, k)
			}
			blocks[k] = ev.Text
		}
	}
	var shown []string
	for _, k := range order {
		shown = append(shown, blocks[k])
	}
	if got := strings.Join(shown, "|"); got != "Hello world, this is the answer." {
		t.Errorf("text as shown: %q (blocks %v)\n%s", got, order, fr.out.String())
	}
	// Plain output is append-only: the completed text comes once, marked
	// as replacing what was shown.
	r := cli{args: []string{"-o", "plain"}, stdin: strings.NewReader(s.String() + rest.String())}.run(t)
	if !strings.Contains(r.stdout, "↻ revised:\nHello world, this is the answer.\n") || strings.Count(r.stdout, "Hello world") != 1 {
		t.Errorf("plain:\n%s", r.stdout)
	}
}

// ensure syscall is used (SIGTERM through --follow).
func TestFollowSIGTERM(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	os.WriteFile(path, []byte((&cs{}).init().String()), 0o644)
	fr := startFollow(t, "-o", "plain", path)
	waitFor(t, "the start", func() bool { return strings.Contains(fr.out.String(), "session") })
	fr.sig <- syscall.SIGTERM
	select {
	case code := <-fr.done:
		if code != ExitTerminated {
			t.Errorf("exit %d, want 143", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not end --follow")
	}
}
