package html_test

import (
	"regexp"
	"strconv"

	"github.com/agentfmt/agentfmt/internal/testenv"
	"strings"
	"testing"
)

const claudeInit = `{"type":"system","subtype":"init","cwd":"/p","session_id":"s1","tools":["Read"],"model":"claude-opus-4-5","claude_code_version":"2.1.7"}`

func claudeResult() string {
	return `{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":1,"result":"ok","session_id":"s1"}`
}

// claudeTool is a tool_use of name with input, and its result.
func claudeTool(id, name, input, result string, isError bool) string {
	e := ""
	if isError {
		e = `,"is_error":true`
	}
	return `{"type":"assistant","message":{"id":"m-` + id + `","role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":` + input + `}]},"parent_tool_use_id":null,"session_id":"s1"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":` + result + e + `}]},"parent_tool_use_id":null,"session_id":"s1"}`
}

// The page shows a Read's file without the <system-reminder> Claude Code
// appends for the model (issue 24 item 7).
func TestPageLeavesWrappersOut(t *testing.T) {
	t.Parallel()
	in := claudeInit + "\n" + claudeTool("t1", "Read", `{"file_path":"/a.go"}`,
		`"     1→package a\n\n<system-reminder>\nWhenever you read a file, consider malware.\n</system-reminder>\n"`, false) + "\n" + claudeResult() + "\n"
	got := page(t, []byte(in))
	if !strings.Contains(got, "1→package a") || strings.Contains(got, "system-reminder") {
		t.Errorf("the page shows the wrapper, or not the file:\n%s", got)
	}
}

// Tool output's SGR colour is drawn in the page as spans of the style
// sheet's classes, a progress line shows its last overwrite, and neither
// is a way in for markup or other sequences (issue 27 item 6).
func TestPageDrawsToolColour(t *testing.T) {
	t.Parallel()
	out := `"\u001b[32mPASS\u001b[0m ok\ndl 50%\rdl 100%\n\u001b[1;38;5;196m<script>alert(1)</script>\u001b[0m \u001b[2J\u001b]0;t\u0007 \u001b[31\" onmouseover=x m"`
	in := claudeInit + "\n" + claudeTool("t1", "Bash", `{"command":"go test"}`, out, false) + "\n" + claudeResult() + "\n"
	got := page(t, []byte(in))
	for _, w := range []string{`<span class="a-f2">PASS</span> ok`, "dl 100%",
		`<span class="a-b a-f9">&lt;script&gt;alert(1)&lt;/script&gt;</span> ␛[2J␛]0;t␇ ␛[31" onmouseover=x m`} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in the page", w)
		}
	}
	for _, n := range []string{"dl 50%", "␍", "␛[32m", "\x1b"} {
		if strings.Contains(got, n) {
			t.Errorf("the page has %q", n)
		}
	}
	checkMarkup(t, got)
}

// A prompt longer than a screenful shows its first and last lines, its
// middle collapsed (issue 24 item 6).
func TestPageFoldsLongPrompt(t *testing.T) {
	t.Parallel()
	var p []string
	for i := 1; i <= 100; i++ {
		p = append(p, "prompt line "+strconv.Itoa(i))
	}
	in := claudeInit + "\n" + `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"` + strings.Join(p, `\n`) +
		`"}]},"parent_tool_use_id":null,"session_id":"s1"}` + "\n" + claudeResult() + "\n"
	got := page(t, []byte(in))
	want := "prompt line 8<details class=\"fold\"><summary>… 88 more lines</summary>prompt line 9\n"
	if !strings.Contains(got, want) || !strings.Contains(got, "prompt line 96</details>prompt line 97\n") ||
		!strings.Contains(got, "prompt line 100</div>") {
		t.Errorf("no fold of the prompt's middle in\n%s", got)
	}
	checkMarkup(t, got)
}

// claudeSubTool is a tool_use of a subagent (under the call parent) and
// its result.
func claudeSubTool(parent, id, name, input, result string, isError bool) string {
	e := ""
	if isError {
		e = `,"is_error":true`
	}
	return `{"type":"assistant","message":{"id":"m-` + id + `","role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":` + input + `}]},"parent_tool_use_id":"` + parent + `","session_id":"s1"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":` + result + e + `}]},"parent_tool_use_id":"` + parent + `","session_id":"s1"}`
}

// issue24Page is a run with an Edit of a snippet, a TodoWrite, and a Task
// whose subagent's Read fails.
func issue24Page(t *testing.T) string {
	t.Helper()
	in := strings.Join([]string{claudeInit,
		claudeTool("e1", "Edit", `{"file_path":"/p/a.go","old_string":"x := 1","new_string":"x := 2"}`, `"updated"`, false),
		claudeTool("w1", "TodoWrite", `{"todos":[{"content":"Fix the clock","status":"in_progress","activeForm":"Fixing"},{"content":"Add a test","status":"pending","activeForm":"Adding"}]}`,
			`"Todos have been modified successfully."`, false),
		`{"type":"assistant","message":{"id":"m-t1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Task","input":{"description":"Explore","prompt":"Look around."}}]},"parent_tool_use_id":null,"session_id":"s1"}`,
		claudeSubTool("t1", "r1", "Read", `{"file_path":"/p"}`, `"EISDIR: illegal operation on a directory, read"`, true),
		claudeSubTool("t1", "r2", "Read", `{"file_path":"/p/go.mod"}`, `"module p"`, false),
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"Explored."}]},"parent_tool_use_id":null,"session_id":"s1"}`,
		claudeResult()}, "\n") + "\n"
	got := page(t, []byte(in))
	checkMarkup(t, got)
	return got
}

// The html items of issue 24 item 15.
func TestPageIssue24Item15(t *testing.T) {
	t.Parallel()
	got := issue24Page(t)
	// Diff rows are blocks with nothing between them: no empty row after
	// each; a snippet's edit has no "\ No newline at end of file".
	diff := regexp.MustCompile(`(?s)<pre class="diff">.*?</pre>`).FindString(got)
	if diff != `<pre class="diff"><span class="del">-x := 1</span><span class="add">+x := 2</span></pre>` {
		t.Errorf("the Edit's diff is %q", diff)
	}
	if strings.Contains(got, "No newline") {
		t.Errorf("a snippet's edit says there is no newline at the end of the file")
	}
	// The collapsed Edit card says +1 −1 on its line.
	if !regexp.MustCompile(`<summary>[^\n]*<span class="name">Edit</span>[^\n]*<span class="stat"><span class="add">\+1</span> <span class="del">−1</span></span>`).MatchString(got) {
		t.Errorf("the Edit card's line lacks +1 −1")
	}
	// The TodoWrite's list is shown once: a plan, no card repeating it.
	if n := strings.Count(got, "Fix the clock"); n != 1 || strings.Contains(got, `<span class="name">TodoWrite</span>`) {
		t.Errorf("the todo list is shown %d times, or with a TodoWrite card", n)
	}
	if !strings.Contains(got, `<div class="item plan"`) {
		t.Errorf("no plan")
	}
	// Inputs are indented JSON.
	if !strings.Contains(got, "<pre class=\"io\">{\n  \"file_path\": \"/p/a.go\",\n  \"old_string\": \"x := 1\",") {
		t.Errorf("the Edit's input is not indented")
	}
	// The Task whose subagent failed is open and says so on its line.
	task := regexp.MustCompile(`<details class="item tool ok failed-inside" id="m\d+" open>\n<summary>[^\n]*<span class="name">Task</span>[^\n]*<span class="inside">✗ 1 failed inside</span>`)
	if !task.MatchString(got) {
		t.Errorf("the Task card does not show the failure inside:\n%s", regexp.MustCompile(`(?m)^<details class="item tool[^\n]*\n<summary>[^\n]*Task.*$`).FindString(got))
	}
}

// In Chromium, each line of a diff takes one row: the pre is as tall as
// its lines, not twice as tall.
func TestBrowserDiffRows(t *testing.T) {
	t.Parallel()
	testenv.Slow(t)
	chromium(t)
	p := issue24Page(t)
	// The page's policy allows its own script only: this test's measuring
	// script goes in without it.
	p = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy"[^>]*>`).ReplaceAllString(p, "")
	probe := `<script>addEventListener("load",function(){var d=document.querySelector("pre.diff");` +
		`document.querySelectorAll("details").forEach(function(x){x.open=true});` +
		`var s=d.querySelector("span");document.body.setAttribute("data-rows",String(Math.round((d.clientHeight-parseFloat(getComputedStyle(d).paddingTop)-parseFloat(getComputedStyle(d).paddingBottom))/s.getBoundingClientRect().height)))})</script>`
	p = strings.Replace(p, "</body>", probe+"</body>", 1)
	l := load(t, p)
	m := regexp.MustCompile(`data-rows="(\d+)"`).FindStringSubmatch(l.dom)
	if m == nil || m[1] != "2" {
		t.Errorf("the diff of 2 lines takes %v rows", m)
	}
}
