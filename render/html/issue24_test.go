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
