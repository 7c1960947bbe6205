package claude_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/parsers/claude"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// decodeLent runs data through the real decoder and session, with the
// Claude parser borrowing lines or not. When scribble is set, each line is
// in one buffer that is overwritten as soon as Decode returns, as the
// reader's buffer is: anything the parser, the session or the events kept
// of a line without copying it turns to garbage. The events are written
// out only at the end.
func decodeLent(t testing.TB, data []byte, borrow, scribble bool) []string {
	agents := append([]parsers.Agent(nil), all.Agents()...)
	for i := range agents {
		if agents[i].Name == claude.Agent.Name {
			agents[i].Borrow = borrow
		}
	}
	var evs []streaming.Event
	sess := streaming.NewSession(streaming.HandlerFunc(func(ev *streaming.Event) error {
		e := ev.Clone() // valid during the call only
		evs = append(evs, e)
		return nil
	}), streaming.Options{})
	dec, err := parsers.NewDecoder(agents, parsers.DecoderOptions{}, sess)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 1<<16)
	junk := bytes.Repeat([]byte{'#'}, len(data))
	for i, line := range bytes.Split(data, []byte("\n")) {
		buf = append(buf[:0], line...)
		if err := dec.Decode(input.Line{Bytes: buf, N: i + 1}); err != nil {
			t.Fatal(err)
		}
		if scribble {
			// Every byte a line was in is overwritten after it.
			copy(buf, junk)
		}
	}
	if err := dec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	r, err := render.New("json", &b, render.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range evs {
		if err := r.Handle(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Finish(render.Summary{}); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

func checkLent(t *testing.T, name string, data []byte) {
	t.Helper()
	want := decodeLent(t, data, false, false)
	got := decodeLent(t, data, true, true)
	if len(got) != len(want) {
		t.Fatalf("%s: %d events with borrowed lines, %d with copies", name, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: event %d with borrowed lines:\n%s\nwith copies:\n%s", name, i, got[i], want[i])
		}
	}
}

// TestBorrowedLines checks Agent.Borrow: the parser copies everything it
// keeps of a line, on every fixture and capture.
func TestBorrowedLines(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "claude", "*.jsonl"))
	corpus, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "corpus", "claude", "*.jsonl"))
	files = append(files, corpus...)
	if len(files) == 0 {
		t.Skip("no fixtures")
	}
	var cat []byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkLent(t, filepath.Base(f), data)
		cat = append(cat, data...)
		cat = append(cat, '\n')
	}
	// All of them in one stream: state carried from run to run.
	checkLent(t, "all", cat)
}

// kept is a stream whose later lines depend on what the parser kept of
// earlier ones: tool ids (and their reuse by a later run), a tool input
// given whole at content_block_start, permission requests, progress
// heartbeats, a reused message id, Qwen's API error text.
const kept = `{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/w","tools":["Bash"],"claude_code_version":"2.1.207"}
{"type":"assistant","message":{"id":"msg_A","role":"assistant","content":[{"type":"tool_use","id":"toolu_A","name":"mcp__srv__Bash","input":{"command":"make"}}]},"session_id":"s1","parent_tool_use_id":null}
{"type":"control_request","request_id":"req_1","request":{"subtype":"can_use_tool","tool_name":"mcp__srv__Bash","input":{"command":"make"}}}
{"type":"tool_progress","tool_use_id":"toolu_A","tool_name":"Bash","elapsed_time_seconds":31}
{"type":"tool_progress","parent_tool_use_id":null,"tool_use_id":"toolu_A","tool_name":"Bash","elapsed_time_seconds":40}
{"type":"tool_progress","tool_use_id":"toolu_A","tool_name":"Bash","elapsed_time_seconds":95}
{"type":"control_response","response":{"request_id":"req_1","subtype":"success","response":{"behavior":"allow"}}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_A","content":"ok","is_error":false}]},"session_id":"s1","parent_tool_use_id":null}
{"type":"stream_event","event":{"type":"message_start","message":{"id":"msg_B","role":"assistant","content":[]}},"session_id":"s1","parent_tool_use_id":null}
{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_B","name":"Read","input":{"file_path":"/w/a.go"}}},"session_id":"s1","parent_tool_use_id":null}
{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"x"}},"session_id":"s1","parent_tool_use_id":null}
{"type":"stream_event","event":{"type":"content_block_stop","index":0},"session_id":"s1","parent_tool_use_id":null}
{"type":"stream_event","event":{"type":"message_stop"},"session_id":"s1","parent_tool_use_id":null}
{"type":"assistant","message":{"id":"msg_B","role":"assistant","content":[{"type":"tool_use","id":"toolu_B","name":"Read","input":{"file_path":"/w/a.go"}}]},"session_id":"s1","parent_tool_use_id":null}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_B","content":"package a","is_error":false}]},"session_id":"s1","parent_tool_use_id":null}
{"type":"assistant","message":{"id":"msg_C","role":"assistant","content":[{"type":"text","text":"[API Error: 500 overloaded]"}]},"session_id":"s1","parent_tool_use_id":null}
{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":2,"result":"[API Error: 500 overloaded]","session_id":"s1"}
{"type":"system","subtype":"init","session_id":"s2","model":"m","cwd":"/w","tools":["Bash"],"claude_code_version":"2.1.207"}
{"type":"assistant","message":{"id":"msg_A","role":"assistant","content":[{"type":"tool_use","id":"toolu_A","name":"Bash","input":{"command":"make again"}}]},"session_id":"s2","parent_tool_use_id":null}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_A","content":"ok again","is_error":false}]},"session_id":"s2","parent_tool_use_id":null}
{"type":"assistant","message":{"id":"msg_A","role":"assistant","content":[{"type":"text","text":"done"}]},"session_id":"s2","parent_tool_use_id":null}
{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":2,"result":"done","session_id":"s2"}
`

func TestBorrowedLinesKept(t *testing.T) {
	checkLent(t, "kept", []byte(kept))
}

func FuzzBorrowedLines(f *testing.F) {
	f.Add(kept)
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "claude", "*.jsonl"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !strings.Contains(s, "{") {
			return
		}
		checkLent(t, "fuzz", []byte(s))
	})
}

// longAnswer is a stream whose one answer (size bytes or a little more,
// with escapes of every kind) is streamed as deltas, then repeated whole
// by the assistant frame and by result.result, as Claude Code writes it.
func longAnswer(size int) (lines []string, answer string) {
	chunk := `The build passes now;\n the \"flaky\" test\twaited on port 5432 \u00e9\ud83c\udf89 \\ \/ ok.\n`
	var deltas []string
	var all strings.Builder
	for all.Len() < size*11/10 {
		deltas = append(deltas, chunk)
		all.WriteString(chunk)
	}
	lines = []string{
		`{"type":"system","subtype":"init","session_id":"s1","model":"m","tools":[]}`,
		`{"type":"stream_event","event":{"type":"message_start","message":{"id":"msg_1","role":"assistant","content":[]}}}`,
		`{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}}`,
	}
	for _, d := range deltas {
		lines = append(lines, `{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"`+d+`"}}}`)
	}
	lines = append(lines,
		`{"type":"stream_event","event":{"type":"content_block_stop","index":0}}`,
		`{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"`+all.String()+`"}]},"session_id":"s1"}`,
		`{"type":"stream_event","event":{"type":"message_stop"}}`,
		`{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"`+all.String()+`","session_id":"s1"}`)
	return lines, parsers.Value(`"` + all.String() + `"`).String()
}

// TestBorrowedLongAnswer: an answer of over a MiB (past the size from
// which the decoder unescapes strings in place) repeated whole by the
// assistant frame and the result is decoded over its own escaped text in
// the line (the reader's buffer, reused after it): the events are those a
// parser that copies lines gives, the result's text is the answer, and
// decoding the two lines allocates a fraction of the answer's size (a
// decoded copy of it was allocated for each).
func TestBorrowedLongAnswer(t *testing.T) {
	lines, answer := longAnswer(1 << 20)
	checkLent(t, "long answer", []byte(strings.Join(lines, "\n")))

	var result, revisions int
	same := false
	sess := streaming.NewSession(streaming.HandlerFunc(func(ev *streaming.Event) error {
		switch ev.Kind {
		case streaming.KindResult:
			result, same = len(ev.Text), ev.Text == answer // (a copy would count)
		case streaming.KindTextRevision:
			revisions++
		}
		return nil
	}), streaming.Options{})
	dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{}, sess)
	if err != nil {
		t.Fatal(err)
	}
	var alloc uint64
	for i, line := range lines {
		buf := []byte(line)
		long := len(line) > len(answer)
		var before, after runtime.MemStats
		if long {
			runtime.ReadMemStats(&before)
		}
		if err := dec.Decode(input.Line{Bytes: buf, N: i + 1}); err != nil {
			t.Fatal(err)
		}
		if long {
			runtime.ReadMemStats(&after)
			alloc += after.TotalAlloc - before.TotalAlloc
		}
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
	if !same || revisions != 0 {
		t.Errorf("result: %d bytes (want the answer's %d), equal %v; %d revisions", result, len(answer), same, revisions)
	}
	if alloc > uint64(len(answer))/4 {
		t.Errorf("decoding the frame and the result of a %d KiB answer allocated %d KiB", len(answer)>>10, alloc>>10)
	}
}

// An init line lends its tool names to the session.start event as it lends
// its strings: the parser's scratch, not a slice of its own (a Claude log
// repeats its init, with dozens of tools, at every run). Decoding one
// allocates nothing once the parser has its scratch.
func TestInitLendsTools(t *testing.T) {
	line := []byte(`{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Task","Bash","Glob","Grep","Read","Edit"],"model":"m","claude_code_version":"2.0.1","uuid":"u"}`)
	var tools []string
	d, err := parsers.NewDecoder([]parsers.Agent{claude.Agent}, parsers.DecoderOptions{},
		parsers.EmitFunc(func(_ streaming.Mode, ev *streaming.Event) error {
			if ev.Kind == streaming.KindSessionStart {
				tools = append(tools[:0], ev.Tools...)
			}
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	if allocs := testing.AllocsPerRun(100, func() { n++; _ = d.DecodeBytes(line, n) }); allocs != 0 {
		t.Errorf("%v allocations an init line", allocs)
	}
	if got := strings.Join(tools, " "); got != "Task Bash Glob Grep Read Edit" {
		t.Errorf("tools %q", got)
	}
}

// A tool's input streamed as input_json_delta pieces is decoded once,
// onto the input so far: each piece's event is that part of it, and the
// call starts with the whole input; the pieces cost no allocation each (a
// decoded copy of each went into a strings.Builder before).
func TestStreamedInputDecodedOnce(t *testing.T) {
	const pieces = 200
	frame := func(event string) []byte {
		return []byte(`{"type":"stream_event","event":` + event + `,"session_id":"s","parent_tool_use_id":null,"uuid":"u"}`)
	}
	lines := [][]byte{
		frame(`{"type":"message_start","message":{"id":"m1","role":"assistant","content":[]}}`),
		frame(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"Write","input":{}}}`),
		frame(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"file_path\": \"/w/a.txt\", \"content\": \""}}`),
	}
	for range pieces {
		lines = append(lines, frame(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"line \\\"q\\\"\\\\n"}}`))
	}
	lines = append(lines, frame(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"}"}}`),
		frame(`{"type":"content_block_stop","index":0}`))
	var deltas strings.Builder
	var input string
	d, err := parsers.NewDecoder([]parsers.Agent{claude.Agent}, parsers.DecoderOptions{},
		parsers.EmitFunc(func(_ streaming.Mode, ev *streaming.Event) error {
			switch ev.Kind {
			case streaming.KindToolInputDelta:
				deltas.WriteString(ev.Text)
			case streaming.KindToolStart:
				input = strings.Clone(ev.Input)
			}
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	deltas.Grow(64 << 10)
	var before, after runtime.MemStats
	for i, l := range lines {
		if i == 3 {
			runtime.ReadMemStats(&before)
		}
		if i == 3+pieces {
			runtime.ReadMemStats(&after)
		}
		if err := d.DecodeBytes(l, i+1); err != nil {
			t.Fatal(err)
		}
	}
	want := `{"file_path": "/w/a.txt", "content": "` + strings.Repeat(`line \"q\"\\n`, pieces) + `"}`
	if input != want || deltas.String() != want {
		t.Fatalf("input %q\ndeltas %q\nwant %q", input, deltas.String(), want)
	}
	if n := after.Mallocs - before.Mallocs; n > pieces/4 {
		t.Errorf("%d input pieces: %d allocations", pieces, n)
	}
}
