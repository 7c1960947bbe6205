package claude_test

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// TestTranscriptGolden: testdata/claude-transcript fixtures, written from
// docs/formats/claude-transcript.md, decoded; their .json goldens pin the
// events.
func TestTranscriptGolden(t *testing.T) {
	parsertest.Golden(t, all.Agents(), "claude-transcript")
}

func trRun(t *testing.T, lines ...string) parsertest.Result {
	t.Helper()
	return parsertest.Run(all.Agents(), strings.Join(lines, "\n")+"\n").Check(t)
}

const env = `"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"s1","version":"2.1.39"`

func trUser(uuid, content string) string {
	return `{"parentUuid":null,` + env + `,"type":"user","message":{"role":"user","content":` + content + `},"uuid":"` + uuid + `","timestamp":"t"}`
}

func trAssistant(uuid, msg, block string) string {
	return `{"parentUuid":null,` + env + `,"message":{"id":"` + msg + `","type":"message","role":"assistant","model":"m","content":[` + block + `],"usage":{"input_tokens":1,"output_tokens":1}},"type":"assistant","uuid":"` + uuid + `","timestamp":"t"}`
}

func TestTranscriptBlocksOfOneMessage(t *testing.T) {
	r := trRun(t,
		trUser("u1", `"hi"`),
		trAssistant("a1", "msg_1", `{"type":"text","text":"\n\n"}`),
		trAssistant("a2", "msg_1", `{"type":"thinking","thinking":"ponder","signature":"x"}`),
		trAssistant("a3", "msg_1", `{"type":"text","text":"First."}`),
		trAssistant("a4", "msg_1", `{"type":"text","text":"Second."}`))
	if got := r.Text(streaming.KindTextDelta); got != "First.Second." {
		t.Errorf("text %q", got)
	}
	if n := len(r.Of(streaming.KindMessageStart)); n != 2 { // the prompt and one assistant message
		t.Errorf("%d message.start, want 2 (blocks of one message.id are one message)", n)
	}
	if r.Answer != "First.\n\nSecond." || r.Outcome != streaming.Success {
		t.Errorf("answer %q outcome %v", r.Answer, r.Outcome)
	}
	if s := r.Of(streaming.KindSessionStart); len(s) != 1 || s[0].Agent != "claude" {
		t.Errorf("session.start %+v", s)
	}
}

func TestTranscriptExitStatus(t *testing.T) {
	use := trAssistant("a1", "msg_1", `{"type":"tool_use","id":"tu1","name":"Bash","input":{"command":"ls"}}`)
	res := trUser("r1", `[{"type":"tool_result","tool_use_id":"tu1","content":"a"}]`)
	text := trAssistant("a2", "msg_2", `{"type":"text","text":"Done."}`)
	apiErr := `{"parentUuid":null,` + env + `,"type":"assistant","uuid":"e1","timestamp":"t","message":{"id":"x-1","model":"<synthetic>","role":"assistant","type":"message","content":[{"type":"text","text":"API Error: 500"}]},"isApiErrorMessage":true}`
	for name, c := range map[string]struct {
		lines []string
		want  streaming.Outcome
	}{
		"answered":             {[]string{use, res, text}, streaming.Success},
		"prompt only":          {nil, streaming.Incomplete},
		"tool pending":         {[]string{use}, streaming.Incomplete},
		"result awaiting":      {[]string{use, res}, streaming.Incomplete},
		"api error last":       {[]string{apiErr}, streaming.Failure},
		"api error then retry": {[]string{apiErr, text}, streaming.Success},
		"interrupted":          {[]string{use, res, trUser("i1", `[{"type":"text","text":"[Request interrupted by user for tool use]"}]`)}, streaming.Failure},
		"next prompt cut off":  {[]string{text, trUser("u2", `"more"`)}, streaming.Incomplete},
	} {
		r := trRun(t, append([]string{trUser("u1", `"go"`)}, c.lines...)...)
		if r.Outcome != c.want {
			t.Errorf("%s: outcome %v, want %v", name, r.Outcome, c.want)
		}
	}
}

func TestTranscriptSidechainUnderTask(t *testing.T) {
	side := strings.Replace(env, `"isSidechain":false`, `"isSidechain":true`, 1)
	r := trRun(t,
		trUser("u1", `"research"`),
		trAssistant("a1", "msg_1", `{"type":"tool_use","id":"task1","name":"Task","input":{"description":"d","prompt":"look"}}`),
		`{"parentUuid":null,`+side+`,"type":"user","message":{"role":"user","content":"look"},"uuid":"s1","timestamp":"t"}`,
		`{"parentUuid":"s1",`+side+`,"message":{"id":"msg_s","type":"message","role":"assistant","content":[{"type":"text","text":"Found it."}]},"type":"assistant","uuid":"s2","timestamp":"t"}`,
		trUser("r1", `[{"type":"tool_result","tool_use_id":"task1","content":[{"type":"text","text":"Found it."}]}]`),
		trAssistant("a2", "msg_2", `{"type":"text","text":"All done."}`))
	for _, e := range r.Of(streaming.KindTextDelta) {
		if e.Text == "Found it." && e.Parent != "task1" {
			t.Errorf("sidechain text parent %q, want task1", e.Parent)
		}
	}
	if r.Answer != "All done." {
		t.Errorf("answer %q: a subagent's text is not the answer", r.Answer)
	}
}

func TestTranscriptDetectedBeforeStreamJSON(t *testing.T) {
	// A transcript's first lines (bookkeeping, then a user record) pick
	// the transcript reader; stream-json still goes to the stream parser.
	r := trRun(t, `{"type":"file-history-snapshot","messageId":"u1","snapshot":{},"isSnapshotUpdate":false}`,
		trUser("u1", `"hi"`), trAssistant("a1", "msg_1", `{"type":"text","text":"Hello."}`))
	if r.Outcome != streaming.Success || len(r.Of(streaming.KindUnknown)) != 0 {
		t.Errorf("outcome %v, unknown %d", r.Outcome, len(r.Of(streaming.KindUnknown)))
	}
	s := trRun(t, `{"type":"system","subtype":"init","session_id":"x","claude_code_version":"2.1.0","tools":[]}`,
		`{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"x","num_turns":1}`)
	if s.Outcome != streaming.Success {
		t.Errorf("stream-json outcome %v", s.Outcome)
	}
}

// TestSubagentTranscript: a subagent's own transcript (every record
// isSidechain with its agentId, in agent-<id>.jsonl) is a run of its own,
// named for the subagent: its prompt, its tools (not hung under a Task
// call, even one it makes itself) and its answer. A 2.0.x warm-up file
// (the "Warmup" prompt and a canned reply, all an Explore agent's file
// holds) is shown as what it holds; a file after it is a run of its own.
func TestSubagentTranscript(t *testing.T) {
	side := func(agent string) string {
		return strings.Replace(env, `"isSidechain":false`, `"isSidechain":true,"agentId":"`+agent+`"`, 1)
	}
	sideUser := func(agent, uuid, content string) string {
		return `{"parentUuid":null,` + side(agent) + `,"type":"user","message":{"role":"user","content":` + content + `},"uuid":"` + uuid + `","timestamp":"t"}`
	}
	sideAssistant := func(agent, uuid, msg, block string) string {
		return `{"parentUuid":"p",` + side(agent) + `,"message":{"id":"` + msg + `","type":"message","role":"assistant","content":[` + block + `]},"type":"assistant","uuid":"` + uuid + `","timestamp":"t"}`
	}
	text := func(s string) string { return `{"type":"text","text":"` + s + `"}` }
	r := trRun(t,
		sideUser("af1ff21", "w1", `"Warmup"`), sideAssistant("af1ff21", "w2", "msg_w", text("I'm ready to help.")),
		sideUser("a2", "s1", `"Find the config loader."`),
		sideAssistant("a2", "s2", "msg_s", `{"type":"tool_use","id":"toolu_t","name":"Task","input":{"description":"look deeper","prompt":"p"}}`),
		`{"parentUuid":"s2",`+side("a2")+`,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_t","content":"in config/"}]},"uuid":"s3","timestamp":"t"}`,
		sideAssistant("a2", "s4", "msg_t", text("It is in config.go.")))
	var heads, prompts []string
	for _, e := range r.Events {
		switch {
		case e.Kind == streaming.KindSessionStart:
			heads = append(heads, e.Title)
		case e.Kind == streaming.KindTextDelta && e.Role == streaming.RoleUser:
			prompts = append(prompts, e.Text)
		case e.Parent != "":
			t.Errorf("%s under %q: a subagent's own records hang under no call", e.Kind, e.Parent)
		}
	}
	if strings.Join(heads, "|") != "subagent af1ff21|subagent a2" {
		t.Errorf("runs %q, want one per subagent file, named for it", heads)
	}
	if strings.Join(prompts, "|") != "Warmup|Find the config loader." {
		t.Errorf("prompts %q", prompts)
	}
	if got := r.Text(streaming.KindTextDelta); got != "I'm ready to help.It is in config.go." {
		t.Errorf("text %q", got)
	}
	if r.Outcome != streaming.Success || r.Answer != "It is in config.go." {
		t.Errorf("outcome %v, answer %q", r.Outcome, r.Answer)
	}
}

// TestTranscriptBlocksAsStream: a transcript's content blocks mean what
// the same blocks mean in stream-json (one reader for both): a TodoWrite
// is titled by its todos and shows its plan, a server tool's result is
// its output, a tool result's images are summarised.
func TestTranscriptBlocksAsStream(t *testing.T) {
	t.Parallel()
	r := trRun(t,
		trUser("u1", `"plan it"`),
		trAssistant("a1", "msg_1", `{"type":"tool_use","id":"td1","name":"TodoWrite","input":{"todos":[{"content":"read","status":"completed"},{"content":"write","status":"pending"}]}}`),
		strings.Replace(trUser("r1", `[{"type":"tool_result","tool_use_id":"td1","content":[{"type":"text","text":"ok"},{"type":"tool_reference","tool_name":"Read"}]}]`),
			`"parentUuid":null`, `"parentUuid":"a1"`, 1),
		trAssistant("a2", "msg_2", `{"type":"server_tool_use","id":"ws1","name":"web_search","input":{"query":"go iter"}}`),
		trAssistant("a3", "msg_2", `{"type":"web_search_tool_result","tool_use_id":"ws1","content":[{"type":"web_search_result","title":"Go","url":"https://go.dev"}]}`),
		trAssistant("a4", "msg_2", `{"type":"text","text":"Done."}`))
	starts := r.Of(streaming.KindToolStart)
	if len(starts) != 2 || starts[0].Title != "2 todos, 1 done" {
		t.Fatalf("tool.start %+v, want the TodoWrite titled by its todos", starts)
	}
	if p := r.Of(streaming.KindPlan); len(p) != 1 || len(p[0].Entries) != 2 || p[0].ID != "td1" {
		t.Errorf("plan %+v, want the TodoWrite's two todos", p)
	}
	ends := r.Of(streaming.KindToolEnd)
	if len(ends) != 2 || ends[0].Output != "ok\n‹tool Read›" || ends[1].Output != "Go https://go.dev" {
		t.Errorf("tool.end %+v, want the tool result's parts and the search results", ends)
	}
}
