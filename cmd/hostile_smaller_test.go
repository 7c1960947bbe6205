package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// splitSurrogateStream streams "Party 🎉 time" with the emoji's UTF-16
// surrogate pair split across two deltas, then the assistant frame.
func splitSurrogateStream() string {
	s := &cs{}
	s.init()
	s.event(map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_1", "role": "assistant", "content": []any{}}})
	s.event(map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
	d := func(raw string) {
		s.b.WriteString(`{"type":"stream_event","session_id":"sess-1","parent_tool_use_id":null,"event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + raw + `"}}}` + "\n")
	}
	d(`Party \ud83c`)
	d(`\udf89 time`)
	s.stops()
	s.text("msg_1", "Party 🎉 time")
	return s.result(true, "Party 🎉 time").String()
}

// A surrogate pair split across two Claude deltas is one character: no
// U+FFFD, no text.revision, the text once.
func TestSplitSurrogateJoins(t *testing.T) {
	t.Parallel()
	in := splitSurrogateStream()
	r := cli{args: []string{"-o", "json"}, stdin: strings.NewReader(in)}.run(t)
	if strings.Contains(r.stdout, "text.revision") || strings.Contains(r.stdout, `\ufffd`) || strings.Contains(r.stdout, "\uFFFD") {
		t.Errorf("json:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, `"text":"\ud83c`) && !strings.Contains(r.stdout, "🎉 time") {
		t.Errorf("json: the emoji is missing:\n%s", r.stdout)
	}
	r = cli{args: []string{"-o", "plain"}, stdin: strings.NewReader(in)}.run(t)
	if n := strings.Count(r.stdout, "Party"); n != 1 || !strings.Contains(r.stdout, "Party 🎉 time") {
		t.Errorf("plain shows the text %d times:\n%s", n, r.stdout)
	}
}

// A newline in a tool name stays inside its list item and its table cell.
func TestToolNameNewlineMarkdown(t *testing.T) {
	t.Parallel()
	s := &cs{}
	s.init()
	s.toolUse("msg_1", "toolu_1", "Bash\n- [x] fake item\n| a | b |", map[string]any{"command": "ls"})
	s.toolResult("toolu_1", "ok", false)
	s.text("msg_2", "Done.")
	s.result(true, "Done.")
	r := cli{args: []string{"-o", "markdown"}, stdin: strings.NewReader(s.String())}.run(t)
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(l, "- [x]") || strings.HasPrefix(l, "| a |") {
			t.Errorf("the tool name broke the list: %q in\n%s", l, r.stdout)
		}
	}
	path := filepath.Join(t.TempDir(), "summary.md")
	cli{args: []string{"-o", "plain", "--summary", "always"}, stdin: strings.NewReader(s.String()),
		env: map[string]string{"GITHUB_STEP_SUMMARY": path}}.run(t)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "|---") {
			if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "| ") || !strings.HasSuffix(lines[i+1], " |") || strings.Count(lines[i+1], " | ") != 4 {
				t.Errorf("the table row is broken:\n%s", b)
			}
		}
	}
}
