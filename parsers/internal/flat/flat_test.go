package flat_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/internal/flat"
	"github.com/agentfmt/agentfmt/streaming"
)

// toy is a flat format described by rules alone, every kind of line.
var toy = &flat.Format{
	Type:   "t",
	Millis: "ms",
	Rules: map[string]flat.Rule{
		"init":  {What: flat.Init, Session: "sid", Model: "model", CWD: "cwd", Tools: "tools"},
		"user":  {What: flat.Message, Role: "role", ID: "id", Text: "text"},
		"think": {What: flat.Thinking, Text: "d"},
		"say":   {What: flat.Text, Text: "d"},
		"call":  {What: flat.Call, ID: "id", Name: "name", Input: "args", Title: "title"},
		"ret":   {What: flat.Return, ID: "id", Output: "out", IsError: "failed"},
		"use":   {What: flat.Usage, Usage: "u"},
		"note":  {What: flat.Note, Text: "msg"},
		"skip":  {What: flat.Skip},
		"oops":  {What: flat.Fail, Text: "msg"},
		"end":   {What: flat.Done, Text: "answer", Usage: "u", Turns: "turns", Duration: "ms_total", Reason: "why"},
	},
}

var agents = []parsers.Agent{{Name: "toy", New: func() parsers.Parser { return flat.New(toy) },
	Detect: func(*parsers.Line) parsers.Confidence { return parsers.Decisive }}}

func TestRules(t *testing.T) {
	t.Parallel()
	in := `{"t":"init","sid":"s1","model":"m","cwd":"/w","tools":["a","b"],"ms":1767225600000}
{"t":"user","role":"user","id":"u1","text":"go"}
{"t":"skip"}
{"t":"think","d":"hm"}
{"t":"say","d":"Look"}
{"t":"say","d":"ing."}
{"t":"call","id":"c1","name":"mcp__fs__read","args":{"path":"x"},"title":"read x"}
{"t":"call","name":"ls","args":{}}
{"t":"ret","id":"c1","out":"data"}
{"t":"ret","out":"boom","failed":true}
{"t":"use","u":{"input_tokens":3,"output_tokens":2}}
{"t":"note","msg":"compacting"}
{"t":"new_kind"}
{"t":"say","d":"Done."}
{"t":"end","answer":"Done.","u":{"input_tokens":5,"output_tokens":4,"total_cost_usd":0.5},"turns":2,"ms_total":900}
`
	r := parsertest.Run(agents, in).Check(t)
	ss := r.Of(streaming.KindSessionStart)
	if len(ss) != 1 || ss[0].SessionID != "s1" || ss[0].Model != "m" || len(ss[0].Tools) != 2 || ss[0].Time.IsZero() {
		t.Errorf("session.start %+v", ss)
	}
	if got := r.Text(streaming.KindTextDelta); got != "Looking.Done." {
		t.Errorf("text %q", got)
	}
	if m := r.Of(streaming.KindMessageStart); len(m) != 3 || m[0].Role != streaming.RoleUser || m[0].Message != "u1" {
		t.Errorf("message.start %+v", m)
	}
	if got := r.Text(streaming.KindThinkingDelta); got != "hm" {
		t.Errorf("thinking %q", got)
	}
	ends := r.Of(streaming.KindToolEnd)
	if len(ends) != 2 || ends[0].Name != "fs.read" || ends[0].Output != "data" || ends[0].Status != streaming.ToolOK ||
		ends[1].Name != "ls" || ends[1].Status != streaming.ToolError {
		t.Errorf("tool.end %+v", ends)
	}
	if u := r.Of(streaming.KindUsage); len(u) != 1 || u[0].Usage.InputTokens != 3 {
		t.Errorf("usage %+v", u)
	}
	if st := r.Of(streaming.KindStatus); len(st) != 1 || st[0].Text != "compacting" {
		t.Errorf("status %+v", st)
	}
	if u := r.Of(streaming.KindUnknown); len(u) != 1 || u[0].Type != "new_kind" {
		t.Errorf("unknown %+v", u)
	}
	res := r.Of(streaming.KindResult)
	if len(res) != 1 || !res[0].OK || res[0].Turns != 2 || res[0].DurationMS != 900 || !res[0].Usage.HasCost || r.Answer != "Done." {
		t.Errorf("result %+v, answer %q", res, r.Answer)
	}
}

// A fatal error fails the run's result; calls still open end incomplete
// before it.
func TestFailAndOpenCalls(t *testing.T) {
	t.Parallel()
	r := parsertest.Run(agents, `{"t":"call","id":"c1","name":"sh"}
{"t":"oops","msg":"quota"}
{"t":"end"}
`).Check(t)
	if e := r.Of(streaming.KindToolEnd); len(e) != 1 || e[0].Status != streaming.ToolIncomplete {
		t.Errorf("tool.end %+v", e)
	}
	if res := r.Of(streaming.KindResult); len(res) != 1 || res[0].OK || res[0].Reason != "quota" {
		t.Errorf("result %+v", res)
	}
}
