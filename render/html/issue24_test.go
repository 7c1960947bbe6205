package html_test

import (
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
	in := claudeInit + "\n" + claudeTool("t1", "Read", `{"file_path":"/a.go"}`,
		`"     1→package a\n\n<system-reminder>\nWhenever you read a file, consider malware.\n</system-reminder>\n"`, false) + "\n" + claudeResult() + "\n"
	got, _ := page(t, []byte(in))
	if !strings.Contains(got, "1→package a") || strings.Contains(got, "system-reminder") {
		t.Errorf("the page shows the wrapper, or not the file:\n%s", got)
	}
}

// Tool output's SGR colour is drawn in the page as spans of the style
// sheet's classes, a progress line shows its last overwrite, and neither
// is a way in for markup or other sequences (issue 27 item 6).
func TestPageDrawsToolColour(t *testing.T) {
	out := `"\u001b[32mPASS\u001b[0m ok\ndl 50%\rdl 100%\n\u001b[1;38;5;196m<script>alert(1)</script>\u001b[0m \u001b[2J\u001b]0;t\u0007 \u001b[31\" onmouseover=x m"`
	in := claudeInit + "\n" + claudeTool("t1", "Bash", `{"command":"go test"}`, out, false) + "\n" + claudeResult() + "\n"
	got, _ := page(t, []byte(in))
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
