package render

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/streaming"
)

// runnerCmd is a workflow command as the GitHub runner would process it.
type runnerCmd struct {
	name, data string
	line       int
}

// registered are the runner's command names (actions/runner
// ActionCommandManager extensions), plus stop-commands.
var registered = []string{"stop-commands", "add-mask", "set-env", "set-output", "save-state", "add-path",
	"add-matcher", "remove-matcher", "debug", "warning", "error", "notice", "group", "endgroup", "echo"}

// runnerLines splits output into lines as .NET's ReadLine does (\n, \r\n, \r).
func runnerLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
}

// parseCommand is the runner's ActionCommand.TryParseV2, then TryParse.
func parseCommand(line string, known func(string) bool) (name, data string, ok bool) {
	t := strings.TrimLeftFunc(line, unicode.IsSpace)
	if strings.HasPrefix(t, "::") {
		if end := strings.Index(t[2:], "::"); end >= 0 {
			info := t[2 : 2+end]
			name = info
			if i := strings.IndexByte(info, ' '); i >= 0 {
				name = info[:i]
			}
			if known(name) {
				return name, t[2+end+2:], true
			}
		}
	}
	if i := strings.Index(line, "##["); i >= 0 {
		if rb := strings.IndexByte(line[i:], ']'); rb >= 0 {
			info := line[i+3 : i+rb]
			name = info
			if j := strings.IndexByte(info, ' '); j >= 0 {
				name = info[:j]
			}
			if known(name) {
				return name, line[i+rb+1:], true
			}
		}
	}
	return "", "", false
}

// simulateRunner returns the commands the runner would act on, including
// "resume" for a line that resumed processing, and the log as the viewer
// gets it (a processed ::group:: becomes "##[group]title"). With
// ignoreStop the stop-commands line is taken as never seen (a partial line
// printed just before it).
func simulateRunner(out string, ignoreStop bool) (cmds []runnerCmd, log []string) {
	stopped, token := false, ""
	known := func(n string) bool {
		for _, r := range registered {
			if strings.EqualFold(r, n) {
				return true
			}
		}
		return stopped && strings.EqualFold(n, token)
	}
	for i, l := range runnerLines(out) {
		name, data, ok := parseCommand(l, known)
		if !ok {
			log = append(log, l)
			continue
		}
		switch {
		case stopped && strings.EqualFold(name, token):
			stopped, token = false, ""
			cmds = append(cmds, runnerCmd{"resume", "", i})
		case stopped:
			log = append(log, l)
		case strings.EqualFold(name, "stop-commands"):
			if ignoreStop {
				log = append(log, l)
				continue
			}
			stopped, token = true, data
			cmds = append(cmds, runnerCmd{name, data, i})
		default:
			cmds = append(cmds, runnerCmd{strings.ToLower(name), data, i})
			switch strings.ToLower(name) {
			case "group":
				log = append(log, "##[group]"+data)
			case "endgroup":
				log = append(log, "##[endgroup]")
			}
		}
	}
	return cmds, log
}

// viewerMarkup is the lines the log viewer draws specially.
func viewerMarkup(log []string) []string {
	var m []string
	for _, l := range log {
		if strings.HasPrefix(l, "##[") {
			m = append(m, l)
		}
	}
	return m
}

var fixedNow = func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }

func renderCI(t *testing.T, ci CI, evs []streaming.Event, sum Summary) string {
	t.Helper()
	var out bytes.Buffer
	r, err := New("plain", &out, Config{CI: ci, Until: "DONE", env: renderenv.Env{Now: fixedNow}})
	if err != nil {
		t.Fatal(err)
	}
	feed(t, r, evs)
	if err := r.Finish(sum); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// payloads are workflow-command injection attempts.
var payloads = []string{
	"::add-mask::hunter2",
	"::set-env name=NODE_OPTIONS::--require /tmp/x.js",
	"::endgroup::",
	"::stop-commands::x",
	"::x::",
	"::error::pwned",
	"::error file=a.go,line=1::pwned",
	"  ::warning::indented",
	"\t::notice::tab",
	"\u3000::add-mask::ideographic-space",
	"##[error]old syntax",
	"text before ##[add-mask]old syntax mid-line",
	"##[group]fake group",
	"::group::fake",
	"::set-output name=x::y",
	"::echo::on",
	"a%0A::add-mask::percent",
	"carriage\r::add-mask::cr",
}

func injectionEvents() []streaming.Event {
	all := strings.Join(payloads, "\n")
	var evs []streaming.Event
	evs = append(evs,
		streaming.Event{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "::add-mask::sid", Model: "##[error]model", CWD: "/tmp/::error::cwd"},
		streaming.Event{Kind: streaming.KindMessageStart, Message: "m1", Role: streaming.RoleAssistant},
	)
	for _, p := range payloads {
		evs = append(evs, streaming.Event{Kind: streaming.KindTextDelta, Message: "m1", Role: streaming.RoleAssistant, Text: p + "\n"})
	}
	evs = append(evs,
		// The same split across deltas.
		streaming.Event{Kind: streaming.KindTextDelta, Message: "m1", Role: streaming.RoleAssistant, Text: ":"},
		streaming.Event{Kind: streaming.KindTextDelta, Message: "m1", Role: streaming.RoleAssistant, Text: ":add-mask::split\n#"},
		streaming.Event{Kind: streaming.KindTextDelta, Message: "m1", Role: streaming.RoleAssistant, Text: "#[error]split"},
		streaming.Event{Kind: streaming.KindMessageStop, Message: "m1"},
		streaming.Event{Kind: streaming.KindThinkingDelta, Message: "m2", Role: streaming.RoleAssistant, Text: all},
		streaming.Event{Kind: streaming.KindTextDelta, Message: "u1", Role: streaming.RoleUser, Text: all},
		streaming.Event{Kind: streaming.KindToolStart, ID: "t1", Name: "::add-mask::tool", Input: `{"command":"echo '::endgroup::'\n::add-mask::x"}`, Subject: subj(`{"command":"echo '::endgroup::'\n::add-mask::x"}`)},
		streaming.Event{Kind: streaming.KindToolEnd, ID: "t1", Name: "::add-mask::tool", Input: `{"command":"echo '::endgroup::'\n::add-mask::x"}`, Subject: subj(`{"command":"echo '::endgroup::'\n::add-mask::x"}`),
			Status: streaming.ToolOK, Output: all + "\n" + strings.Repeat("filler\n", 50)},
		streaming.Event{Kind: streaming.KindToolStart, ID: "t2", Name: "Read", Input: `{"file_path":"##[error]x"}`, Subject: subj(`{"file_path":"##[error]x"}`)},
		streaming.Event{Kind: streaming.KindToolEnd, ID: "t2", Name: "Read", Input: `{"file_path":"##[error]x"}`, Subject: subj(`{"file_path":"##[error]x"}`), Status: streaming.ToolError, Output: all},
		streaming.Event{Kind: streaming.KindStatus, Level: streaming.LevelWarning, Text: "rate limited\n::add-mask::status"},
		streaming.Event{Kind: streaming.KindStatus, Text: "::add-mask::info status"},
		streaming.Event{Kind: streaming.KindError, Level: streaming.LevelWarning, Text: "retry %0A::add-mask::err"},
		streaming.Event{Kind: streaming.KindError, Text: all},
		streaming.Event{Kind: streaming.KindPlan, Entries: []streaming.PlanEntry{{Text: "::add-mask::plan", Status: "pending"}}},
		streaming.Event{Kind: streaming.KindPermissionRequest, Name: "::add-mask::perm", Title: "##[error]perm"},
		streaming.Event{Kind: streaming.KindRaw, Text: "::add-mask::raw"},
		streaming.Event{Kind: streaming.KindRaw, Text: "##[add-mask]raw"},
		streaming.Event{Kind: streaming.KindUnknown, Type: "::add-mask::type"},
		streaming.Event{Kind: streaming.KindNotice, Text: "::add-mask::notice"},
		streaming.Event{Kind: streaming.KindResult, OK: false, Reason: "error_max_turns\n::add-mask::reason"},
	)
	return evs
}

// No content line issues a workflow command: with stop-commands honoured
// only agentfmt's own commands are live, and even if the stop line were
// never seen, escaping leaves content inert.
func TestGitHubInjection(t *testing.T) {
	t.Parallel()
	out := renderCI(t, CIGitHub, injectionEvents(), Summary{Outcome: streaming.Failure, Reason: "x"})
	for _, ignoreStop := range []bool{false, true} {
		cmds, log := simulateRunner(out, ignoreStop)
		var live []string
		for _, c := range cmds {
			switch c.name {
			case "stop-commands", "resume":
				if ignoreStop && c.name == "stop-commands" {
					t.Errorf("stop honoured while ignored")
				}
			case "group", "endgroup":
				// agentfmt's ##[group] lines, processed as commands when
				// commands are not stopped: the viewer check below.
				if !ignoreStop {
					t.Errorf("group command while stopped")
				}
			case "warning", "error":
				live = append(live, c.name)
				if strings.Contains(c.data, "\n") {
					t.Errorf("multi-line annotation %q", c.data)
				}
			default:
				t.Errorf("ignoreStop=%v: content issued ::%s::%s (line %d)", ignoreStop, c.name, c.data, c.line)
			}
		}
		// agentfmt's own: a warning for the status and one for the warning
		// error event, an error for the failed result.
		if got := strings.Join(live, " "); got != "warning warning error" {
			t.Errorf("ignoreStop=%v: live commands %q", ignoreStop, got)
		}
		// The viewer draws only agentfmt's groups, balanced and not nested.
		markup := viewerMarkup(log)
		want := []string{"##[group]✓ ::add-mask::tool echo '::endgroup::' …", "##[endgroup]",
			"##[group]✗ Read ##\u200b[error]x", "##[endgroup]"}
		if strings.Join(markup, "\n") != strings.Join(want, "\n") {
			t.Errorf("ignoreStop=%v: viewer markup\n got %q\nwant %q", ignoreStop, markup, want)
		}
	}
	// With stop-commands honoured, no command at all is live between a stop
	// and the next resume.
	cmds, _ := simulateRunner(out, false)
	stopped := false
	for _, c := range cmds {
		switch c.name {
		case "stop-commands":
			stopped = true
		case "resume":
			stopped = false
		default:
			if stopped {
				t.Errorf("live command %s while stopped", c.name)
			}
		}
	}
	// Every payload is still in the log, visibly.
	for _, p := range []string{"add-mask::hunter2", "error]old syntax", "fake group"} {
		if !strings.Contains(out, p) {
			t.Errorf("content %q lost", p)
		}
	}
}

// Tokens: never reused, unguessable, and each one resumes exactly one
// command.
func TestGitHubTokens(t *testing.T) {
	t.Parallel()
	out := renderCI(t, CIGitHub, injectionEvents(), Summary{Outcome: streaming.Failure})
	re := regexp.MustCompile(`(?m)^::stop-commands::(agentfmt-[0-9a-f]{24})$`)
	seen := map[string]bool{}
	ms := re.FindAllStringSubmatch(out, -1)
	if len(ms) != 4 { // the start and one per annotation
		t.Fatalf("only %d stop lines", len(ms))
	}
	for _, m := range ms {
		if seen[m[1]] {
			t.Errorf("token %s reused", m[1])
		}
		seen[m[1]] = true
		if strings.Count(out, "::"+m[1]+"::") != 1 {
			t.Errorf("token %s resumed %d times", m[1], strings.Count(out, "::"+m[1]+"::"))
		}
	}
	if !strings.HasPrefix(out, "::stop-commands::") {
		t.Errorf("output does not start by stopping commands: %q", out[:40])
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if last := lines[len(lines)-1]; !regexp.MustCompile(`^::agentfmt-[0-9a-f]{24}::$`).MatchString(last) {
		t.Errorf("output does not end by resuming commands: %q", last)
	}
	// Two renderers get different tokens.
	out2 := renderCI(t, CIGitHub, nil, Summary{})
	if strings.SplitN(out2, "\n", 2)[0] == strings.SplitN(out, "\n", 2)[0] {
		t.Errorf("same first token twice")
	}
}

func TestGitHubGroupsAndAnnotations(t *testing.T) {
	t.Parallel()
	evs := []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude"},
		{Kind: streaming.KindToolStart, ID: "t1", Name: "Bash", Input: `{"command":"go test ./..."}`, Subject: subj(`{"command":"go test ./..."}`)},
		{Kind: streaming.KindToolEnd, ID: "t1", Name: "Bash", Input: `{"command":"go test ./..."}`, Subject: subj(`{"command":"go test ./..."}`), Status: streaming.ToolError,
			ExitCode: streaming.IntPtr(1), DurationMS: 1200, Output: strings.Repeat("line\n", 30)},
		{Kind: streaming.KindToolStart, ID: "t2", Name: "Read", Input: `{"file_path":"a.go"}`, Subject: subj(`{"file_path":"a.go"}`)},
		{Kind: streaming.KindToolEnd, ID: "t2", Name: "Read", Input: `{"file_path":"a.go"}`, Subject: subj(`{"file_path":"a.go"}`), Status: streaming.ToolOK},
		{Kind: streaming.KindStatus, Level: streaming.LevelWarning, Text: "API retry 2/10 in 4s: overloaded"},
		{Kind: streaming.KindError, Level: streaming.LevelWarning, Text: "rate limit: 50% used"},
		{Kind: streaming.KindResult, OK: false, Reason: "error_max_turns: Reached maximum number of turns (3)"},
	}
	out := renderCI(t, CIGitHub, evs, Summary{Outcome: streaming.Failure})
	cmds, log := simulateRunner(out, false)
	var got []string
	for _, c := range cmds {
		if c.name != "stop-commands" && c.name != "resume" {
			got = append(got, c.name+":"+c.data)
		}
	}
	got = append(got, viewerMarkup(log)...)
	want := []string{
		"warning:API retry 2/10 in 4s: overloaded",
		"warning:rate limit: 50%25 used",
		"error:agent run failed: error_max_turns: Reached maximum number of turns (3)",
		"##[group]✗ Bash go test ./... · exit 1 · 1.2s",
		"##[endgroup]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands\n got %q\nwant %q", got, want)
	}
	// Output in a group is shown whole; a tool without output has its line.
	if strings.Count(out, "│ line") != 30 {
		t.Errorf("folded output not whole:\n%s", out)
	}
	if !strings.Contains(out, "✓ Read a.go") {
		t.Errorf("no end line for a tool without output:\n%s", out)
	}
}

// A run cut off mid-tool, or interrupted, still closes everything and
// resumes commands; an incomplete run is an error annotation.
func TestGitHubBalancedAtEveryEnd(t *testing.T) {
	t.Parallel()
	midTool := []streaming.Event{
		{Kind: streaming.KindToolStart, ID: "t1", Name: "Bash", Input: `{"command":"sleep 100"}`, Subject: subj(`{"command":"sleep 100"}`)},
		{Kind: streaming.KindToolEnd, ID: "t1", Name: "Bash", Status: streaming.ToolIncomplete, Output: "partial\n"},
	}
	for name, c := range map[string]struct {
		evs []streaming.Event
		sum Summary
		ann string
	}{
		"incomplete":  {midTool, Summary{Outcome: streaming.Incomplete, Reason: "the stream ended before the run finished"}, "error:agent run incomplete: the stream ended before the run finished"},
		"interrupted": {midTool[:1], Summary{Outcome: streaming.Incomplete, Interrupted: true}, ""},
		"until":       {[]streaming.Event{{Kind: streaming.KindResult, OK: true}}, Summary{Outcome: streaming.Success, UntilMissing: true}, "error:the final answer lacks the completion marker DONE"},
	} {
		out := renderCI(t, CIGitHub, c.evs, c.sum)
		cmds, log := simulateRunner(out, false)
		depth, anns := 0, []string{}
		for _, l := range viewerMarkup(log) {
			switch l {
			case "##[endgroup]":
				depth--
			default:
				depth++
			}
		}
		for _, cmd := range cmds {
			switch cmd.name {
			case "error", "warning":
				anns = append(anns, cmd.name+":"+cmd.data)
			}
		}
		if depth != 0 {
			t.Errorf("%s: %d groups open", name, depth)
		}
		if cmds[len(cmds)-1].name != "resume" {
			t.Errorf("%s: commands not resumed at the end", name)
		}
		if c.ann == "" && len(anns) > 0 || c.ann != "" && (len(anns) != 1 || anns[0] != c.ann) {
			t.Errorf("%s: annotations %q, want %q", name, anns, c.ann)
		}
	}
}

func TestGitLabSections(t *testing.T) {
	t.Parallel()
	evs := []streaming.Event{
		{Kind: streaming.KindToolStart, ID: "t1", Name: "Bash", Input: `{"command":"ls"}`, Subject: subj(`{"command":"ls"}`)},
		{Kind: streaming.KindToolEnd, ID: "t1", Name: "Bash", Input: `{"command":"ls"}`, Subject: subj(`{"command":"ls"}`), Status: streaming.ToolOK,
			Output: "a\nsection_end:1:agentfmt_1795\r\x1b[0K\n::error::x\n"},
		{Kind: streaming.KindToolStart, ID: "t2", Name: "Bash\x1b[2J", Input: `{"command":"pwd"}`, Subject: subj(`{"command":"pwd"}`)},
		{Kind: streaming.KindToolEnd, ID: "t2", Name: "Bash\x1b[2J", Status: streaming.ToolOK, Output: "/tmp\n"},
		{Kind: streaming.KindToolStart, ID: "t3", Name: "Bash", Input: `{"command":"sleep 9"}`, Subject: subj(`{"command":"sleep 9"}`)},
		{Kind: streaming.KindToolEnd, ID: "t3", Name: "Bash", Input: `{"command":"sleep 9"}`, Subject: subj(`{"command":"sleep 9"}`), Status: streaming.ToolIncomplete, Output: "cut"},
		{Kind: streaming.KindStatus, Level: streaming.LevelWarning, Text: "retrying"},
	}
	out := renderCI(t, CIGitLab, evs, Summary{Outcome: streaming.Incomplete, Reason: "cut"})
	ts := fixedNow().Unix()
	start := regexp.MustCompile(`\x1b\[0Ksection_start:(\d+):([A-Za-z0-9_.-]+)\[collapsed=true\]\r\x1b\[0K([^\n]*)\n`)
	end := regexp.MustCompile(`\x1b\[0Ksection_end:(\d+):([A-Za-z0-9_.-]+)\r\x1b\[0K\n`)
	starts := start.FindAllStringSubmatch(out, -1)
	ends := end.FindAllStringSubmatch(out, -1)
	if len(starts) != 3 || len(ends) != 3 {
		t.Fatalf("%d starts, %d ends:\n%q", len(starts), len(ends), out)
	}
	names := map[string]bool{}
	for i := range starts {
		if starts[i][2] != ends[i][2] {
			t.Errorf("section %d: started %s, ended %s", i, starts[i][2], ends[i][2])
		}
		if names[starts[i][2]] {
			t.Errorf("section name %s twice", starts[i][2])
		}
		names[starts[i][2]] = true
		if starts[i][1] != strconv.FormatInt(ts, 10) || ends[i][1] != strconv.FormatInt(ts, 10) {
			t.Errorf("timestamps not from renderenv.Env.Now: %v %v", starts[i][1], ends[i][1])
		}
	}
	if starts[0][3] != "✓ Bash ls" || !strings.HasPrefix(starts[2][3], "… Bash sleep 9") {
		t.Errorf("headers %q, %q", starts[0][3], starts[2][3])
	}
	if strings.Contains(starts[1][3], "\x1b") {
		t.Errorf("escape in a header: %q", starts[1][3])
	}
	// The only ESC and CR are the markers' own: content cannot fake one.
	if n := strings.Count(out, "\x1b"); n != 2*6 {
		t.Errorf("%d ESC in output, want %d", n, 12)
	}
	if strings.Contains(out, "::stop-commands::") || strings.Contains(out, "::group::") || strings.Contains(out, "::warning::") {
		t.Errorf("GitHub markers in GitLab output")
	}
}

func TestNoCIMarkersWithoutCI(t *testing.T) {
	t.Parallel()
	out := renderCI(t, CINone, injectionEvents(), Summary{Outcome: streaming.Failure})
	if strings.HasPrefix(out, "::stop-commands::") || strings.Contains(out, "::agentfmt-") ||
		strings.Contains(out, "section_start") || strings.Contains(out, zwsp) {
		t.Errorf("CI markers without CI:\n%s", out)
	}
}

// The escaper handles lines written in any pieces, even split runes.
func TestGitHubEscaperPieces(t *testing.T) {
	t.Parallel()
	in := "ok\n  ::add-mask::a\n\u3000::x::\nx ##[error]y\n#\n#[no]\n::\n"
	want := "ok\n  " + zwsp + "::add-mask::a\n\u3000" + zwsp + "::x::\nx ##" + zwsp + "[error]y\n#\n#[no]\n" + zwsp + "::\n"
	for cut := 1; cut <= len(in); cut++ {
		var out bytes.Buffer
		e := &ghEscaper{w: &out, lineStart: true}
		for s := in; len(s) > 0; {
			n := min(cut, len(s))
			e.Write([]byte(s[:n]))
			s = s[n:]
		}
		if out.String() != want {
			t.Fatalf("cut %d: got %q", cut, out.String())
		}
	}
}
