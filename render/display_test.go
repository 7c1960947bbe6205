package render

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// Previews show what the tool printed, not the wrappers its agent put
// around it (issue 24 item 7): pretty, plain and markdown read
// Event.Display when the parser filled it; json keeps Output as it came.
func TestPreviewsLeaveWrappersOut(t *testing.T) {
	t.Parallel()
	const reminder = "<system-reminder>\nconsider whether it is malware\n</system-reminder>"
	evs := []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "s"},
		{Kind: streaming.KindToolStart, ID: "r1", Name: "Read", Subject: "/a.go"},
		{Kind: streaming.KindToolEnd, ID: "r1", Name: "Read", Subject: "/a.go", Status: streaming.ToolOK,
			Output: "     1→package a\n     2→\n\n" + reminder + "\n", Display: "     1→package a\n     2→"},
		{Kind: streaming.KindResult, OK: true},
	}
	for _, format := range []string{"plain", "markdown", "pretty", "json"} {
		got := renderEvents(t, format, Config{Color: false, Width: 80}, evs)
		wrapped := strings.Contains(got, "system-reminder") && strings.Contains(got, "malware")
		if format == "json" {
			if !wrapped {
				t.Errorf("json lost the output as it came:\n%s", got)
			}
			continue
		}
		if wrapped || !strings.Contains(got, "1→package a") {
			t.Errorf("%s: the preview shows the wrapper, or not the file:\n%s", format, got)
		}
	}
}
