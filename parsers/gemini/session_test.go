package gemini_test

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// TestSessionGolden: testdata/gemini-session fixtures, written from
// docs/formats/gemini-session.md, decoded; their .json goldens pin the
// events. The first is a pretty-printed JSON document (as Entire's copies
// named full.jsonl are): the reader must hand it over as one value.
func TestSessionGolden(t *testing.T) {
	parsertest.Golden(t, all.Agents(), "gemini-session")
}

func chatRun(t *testing.T, in string) parsertest.Result {
	t.Helper()
	return parsertest.Run(all.Agents(), in).Check(t)
}

func TestSessionPrettyDocumentIsOneValue(t *testing.T) {
	doc := `{
  "sessionId": "s-1",
  "projectHash": "h",
  "messages": [
    {
      "id": "u",
      "timestamp": "t",
      "type": "user",
      "content": "hi"
    },
    {
      "id": "g",
      "timestamp": "t",
      "type": "gemini",
      "content": "Hello.\nHow can I help?",
      "toolCalls": []
    }
  ]
}`
	r := chatRun(t, doc)
	if got := r.Text(streaming.KindTextDelta); got != "Hello.\nHow can I help?" {
		t.Errorf("text %q", got)
	}
	if r.Outcome != streaming.Success || len(r.Of(streaming.KindUnknown)) != 0 || len(r.Of(streaming.KindRaw)) != 0 {
		t.Errorf("outcome %v, %d unknown, %d raw", r.Outcome, len(r.Of(streaming.KindUnknown)), len(r.Of(streaming.KindRaw)))
	}
	if s := r.Of(streaming.KindSessionStart); len(s) != 1 || s[0].Agent != "gemini" || s[0].SessionID != "s-1" {
		t.Errorf("session.start %+v", s)
	}
}

func TestSessionRecordWrittenAgainShownOnce(t *testing.T) {
	r := chatRun(t, strings.Join([]string{
		`{"sessionId":"s","projectHash":"h","startTime":"t","kind":"main"}`,
		`{"id":"u1","timestamp":"t","type":"user","content":[{"text":"count"}]}`,
		`{"id":"g1","timestamp":"t","type":"gemini","content":"One, two","toolCalls":[{"id":"c1","name":"read_file","args":{"file_path":"a"},"status":"executing"}]}`,
		`{"id":"g1","timestamp":"t","type":"gemini","content":"One, two, three.","toolCalls":[{"id":"c1","name":"read_file","args":{"file_path":"a"},"status":"success","result":[{"functionResponse":{"id":"c1","name":"read_file","response":{"output":"x"}}}]}]}`,
		`{"id":"g2","timestamp":"t","type":"gemini","content":"Done."}`,
	}, "\n")+"\n")
	if got := r.Text(streaming.KindTextDelta); got != "One, two, three.Done." {
		t.Errorf("text %q: a message written again adds only what is new", got)
	}
	if n, m := len(r.Of(streaming.KindToolStart)), len(r.Of(streaming.KindToolEnd)); n != 1 || m != 1 {
		t.Errorf("%d tool.start, %d tool.end, want one each", n, m)
	}
	if r.Outcome != streaming.Success {
		t.Errorf("outcome %v", r.Outcome)
	}
}

func TestSessionExitStatus(t *testing.T) {
	head := `{"sessionId":"s","projectHash":"h"}` + "\n" + `{"id":"u1","timestamp":"t","type":"user","content":"go"}` + "\n"
	for name, c := range map[string]struct {
		lines string
		want  streaming.Outcome
	}{
		"answered":                   {`{"id":"g","timestamp":"t","type":"gemini","content":"ok"}`, streaming.Success},
		"prompt only":                {``, streaming.Incomplete},
		"call executing":             {`{"id":"g","timestamp":"t","type":"gemini","content":"","toolCalls":[{"id":"c","name":"x","status":"executing"}]}`, streaming.Incomplete},
		"call done, model to answer": {`{"id":"g","timestamp":"t","type":"gemini","content":"Reading.","toolCalls":[{"id":"c","name":"x","status":"success"}]}`, streaming.Incomplete},
		"cancelled":                  {`{"id":"g","timestamp":"t","type":"gemini","content":"","toolCalls":[{"id":"c","name":"x","status":"cancelled"}]}`, streaming.Failure},
		"error message":              {`{"id":"e","timestamp":"t","type":"error","content":"quota"}`, streaming.Failure},
	} {
		r := chatRun(t, head+c.lines+"\n")
		if r.Outcome != c.want {
			t.Errorf("%s: outcome %v, want %v", name, r.Outcome, c.want)
		}
	}
}

// TestSessionUnclaimedLineKept: a line among saved chat records that no
// family of the agent claims stays with the chat reader (as the lines
// around it) and is kept as an unknown event, not dropped.
func TestSessionUnclaimedLineKept(t *testing.T) {
	r := chatRun(t, strings.Join([]string{
		`{"sessionId":"s-1","projectHash":"h","startTime":"t","kind":"main"}`,
		`{"id":"u","timestamp":"t","type":"user","content":[{"text":"hi"}]}`,
		`{"type":"checkpoint","note":"a record of a later version"}`,
		`{"id":"g","timestamp":"t","type":"gemini","content":"Hello."}`,
	}, "\n"))
	u := r.Of(streaming.KindUnknown)
	if len(u) != 1 || u[0].Type != "checkpoint" || u[0].Line != 3 {
		t.Errorf("unknown events %+v, want the checkpoint line", u)
	}
	if got := r.Text(streaming.KindTextDelta); got != "Hello." {
		t.Errorf("text %q", got)
	}
}

// A shell call's tool.end keeps the framed result as Output and gives
// the command's own output as Display.
func TestSessionShellDisplay(t *testing.T) {
	r := chatRun(t, `{"sessionId":"s","projectHash":"h","messages":[`+
		`{"id":"g1","timestamp":"t","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"ls"},"status":"success",`+
		`"result":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"output":"Command: ls\nDirectory: (root)\nOutput: a.go\nError: (none)\nExit Code: 0\nSignal: 0\nBackground PIDs: (none)\nProcess Group PGID: 1"}}}]}]}]}`)
	for _, ev := range r.Events {
		if ev.Kind == streaming.KindToolEnd {
			if ev.Display != "a.go" || !strings.HasPrefix(ev.Output, "Command: ls\n") {
				t.Errorf("Display %q, Output %q", ev.Display, ev.Output)
			}
			return
		}
	}
	t.Fatal("no tool.end")
}
