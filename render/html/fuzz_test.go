package html_test

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// FuzzAnswerMarkup renders arbitrary text as an answer, a thinking block,
// a prompt and a tool's output: whatever the text, the page carries no
// markup but its own (checkMarkup). Its seeds run in go test.
func FuzzAnswerMarkup(f *testing.F) {
	for _, s := range []string{
		"<script>alert(1)</script>",
		"<img src=x onerror=alert(1)>",
		"[x](javascript:alert(1)) <javascript:alert(1)>",
		"</title><script>alert(1)</script>",
		"![a](data:image/svg+xml;base64,PHN2Zz4=) ![b](data:image/png;base64,iVBORw0KGgo=)",
		"```\n</pre><script>alert(1)</script>\n```",
		"<!-- x --> <style>*{}</style> <iframe src=//x>",
		"| a | b |\n|---|---|\n| <b onclick=x> | `<i>` |",
		"[a](<java\nscript:x>) [b]( javascript:x ) [c](&#106;avascript:x)",
		strings.Repeat("> ", 40) + "<script>alert(1)</script>\n" + strings.Repeat("- ", 40) + "[x](javascript:y)\n",
		strings.Repeat("  ", 50) + "- <b>deep</b>\n" + strings.Repeat(">", 60) + " `</pre>`\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		evs := []streaming.Event{
			{Kind: streaming.KindSessionStart, Agent: "claude", Model: s, CWD: s},
			{Kind: streaming.KindMessageStart, Message: "u", Role: streaming.RoleUser},
			{Kind: streaming.KindTextDelta, Message: "u", Role: streaming.RoleUser, Text: s},
			{Kind: streaming.KindMessageStart, Message: "a", Role: streaming.RoleAssistant},
			{Kind: streaming.KindThinkingDelta, Message: "a", Role: streaming.RoleAssistant, Text: s},
			{Kind: streaming.KindTextDelta, Message: "a", Block: 1, Role: streaming.RoleAssistant, Text: s},
			{Kind: streaming.KindToolStart, ID: "t", Name: s, Subject: s, Input: s},
			{Kind: streaming.KindToolEnd, ID: "t", Status: streaming.ToolError, Output: s,
				Edits: []streaming.FileEdit{{Path: s, Old: s, New: s + "x"}}},
			{Kind: streaming.KindPlan, Entries: []streaming.PlanEntry{{Text: s, Status: streaming.PlanPending}}},
			{Kind: streaming.KindError, Text: s},
			{Kind: streaming.KindResult, Reason: s},
		}
		checkMarkup(t, eventsPage(t, evs))
	})
}
