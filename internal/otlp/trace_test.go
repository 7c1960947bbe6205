package otlp

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/agentfmt/agentfmt/internal/golden" // (go test ./... -update runs here too)
	"github.com/agentfmt/agentfmt/streaming"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// record hands evs to a Trace and returns the spans it made, ended.
func record(t *testing.T, opts Options, evs ...streaming.Event) tracetest.SpanStubs {
	t.Helper()
	mem := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(mem))
	tr := New(tp.Tracer("test"), opts)
	for i := range evs {
		if err := tr.Handle(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	tr.Close("the input ended")
	return mem.GetSpans() // (synchronous: every span has left as it ended)
}

// tree writes spans as an indented tree, children under their parent in
// the order they started, each with the attributes keys names (all when
// keys is nil) and its status.
func tree(spans tracetest.SpanStubs, keys ...string) string {
	var b strings.Builder
	var walk func(parent string, depth int)
	sorted := slices.Clone(spans)
	slices.SortStableFunc(sorted, func(a, b tracetest.SpanStub) int { return a.StartTime.Compare(b.StartTime) })
	walk = func(parent string, depth int) {
		for _, s := range sorted {
			p := ""
			if s.Parent.IsValid() {
				p = s.Parent.SpanID().String()
			}
			if p != parent {
				continue
			}
			fmt.Fprintf(&b, "%s%s", strings.Repeat("  ", depth), s.Name)
			for _, kv := range s.Attributes {
				if keys == nil || slices.Contains(keys, string(kv.Key)) {
					fmt.Fprintf(&b, " %s=%s", kv.Key, kv.Value.String())
				}
			}
			if s.Status.Code.String() != "Unset" {
				fmt.Fprintf(&b, " [%s %s]", s.Status.Code, s.Status.Description)
			}
			for _, e := range s.Events {
				fmt.Fprintf(&b, " +%s", e.Name)
			}
			b.WriteString("\n")
			walk(s.SpanContext.SpanID().String(), depth+1)
		}
	}
	walk("", 0)
	return b.String()
}

func TestTraceShapes(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	usage := &streaming.Usage{InputTokens: 10, OutputTokens: 5, CacheReadTokens: 3, CostUSD: 0.25, HasCost: true}
	keys := []string{"gen_ai.operation.name", "gen_ai.tool.call.id", "gen_ai.conversation.id", "gen_ai.provider.name",
		"gen_ai.usage.input_tokens", "gen_ai.usage.cache_read.input_tokens", "agentfmt.usage.cost_usd", "error.type",
		"process.exit.code", "agentfmt.tool.status", "agentfmt.incomplete", "agentfmt.tool.edits"}
	for _, tc := range []struct {
		name string
		evs  []streaming.Event
		want string
	}{
		{"a run with a tool call", []streaming.Event{
			{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "s1", Model: "claude-opus-4-6"},
			{Kind: streaming.KindToolStart, Agent: "claude", ID: "t1", Name: "Bash"},
			{Kind: streaming.KindToolEnd, Agent: "claude", ID: "t1", Name: "Bash", Status: streaming.ToolOK, ExitCode: streaming.IntPtr(0)},
			{Kind: streaming.KindResult, Agent: "claude", OK: true, Usage: usage},
		}, `invoke_agent claude gen_ai.operation.name=invoke_agent gen_ai.conversation.id=s1 gen_ai.provider.name=anthropic gen_ai.usage.input_tokens=10 gen_ai.usage.cache_read.input_tokens=3 agentfmt.usage.cost_usd=0.25
  execute_tool Bash gen_ai.operation.name=execute_tool gen_ai.tool.call.id=t1 agentfmt.tool.status=ok process.exit.code=0
`},
		{"a failed run and a failed call", []streaming.Event{
			{Kind: streaming.KindSessionStart, Agent: "codex", SessionID: "s2"},
			{Kind: streaming.KindToolStart, Agent: "codex", ID: "c1", Name: "shell", Edits: []streaming.FileEdit{{Path: "a.go"}}},
			{Kind: streaming.KindToolEnd, Agent: "codex", ID: "c1", Name: "shell", Status: streaming.ToolError, ExitCode: streaming.IntPtr(2)},
			{Kind: streaming.KindResult, Agent: "codex", OK: false, Reason: "error_max_turns"},
		}, `invoke_agent codex gen_ai.operation.name=invoke_agent gen_ai.conversation.id=s2 gen_ai.provider.name=openai error.type=error_max_turns [Error error_max_turns]
  execute_tool shell gen_ai.operation.name=execute_tool gen_ai.tool.call.id=c1 agentfmt.tool.edits=["a.go"] agentfmt.tool.status=error process.exit.code=2 error.type=tool_error [Error exit status 2]
`},
		{"a subagent under its call", []streaming.Event{
			{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "s3"},
			{Kind: streaming.KindToolStart, Agent: "claude", ID: "task", Name: "Task"},
			{Kind: streaming.KindMessageStart, Agent: "claude", Message: "m", Role: "assistant", Parent: "task"},
			{Kind: streaming.KindToolStart, Agent: "claude", ID: "inner", Name: "Read", Parent: "task"},
			{Kind: streaming.KindToolEnd, Agent: "claude", ID: "inner", Name: "Read", Status: streaming.ToolOK, Parent: "task"},
			{Kind: streaming.KindToolEnd, Agent: "claude", ID: "task", Name: "Task", Status: streaming.ToolOK},
			{Kind: streaming.KindResult, Agent: "claude", OK: true},
		}, `invoke_agent claude gen_ai.operation.name=invoke_agent gen_ai.conversation.id=s3 gen_ai.provider.name=anthropic
  execute_tool Task gen_ai.operation.name=execute_tool gen_ai.tool.call.id=task agentfmt.tool.status=ok
    invoke_agent claude gen_ai.operation.name=invoke_agent
      execute_tool Read gen_ai.operation.name=execute_tool gen_ai.tool.call.id=inner agentfmt.tool.status=ok
`},
		{"calls open at the end of the input", []streaming.Event{
			{Kind: streaming.KindSessionStart, Agent: "gemini", SessionID: "s4", Model: "gemini-2.5-pro"},
			{Kind: streaming.KindToolStart, Agent: "gemini", ID: "g1", Name: "run_shell_command"},
		}, `invoke_agent gemini gen_ai.operation.name=invoke_agent gen_ai.conversation.id=s4 gen_ai.provider.name=gcp.gemini agentfmt.incomplete=the input ended
  execute_tool run_shell_command gen_ai.operation.name=execute_tool gen_ai.tool.call.id=g1 agentfmt.incomplete=the input ended
`},
		{"two runs, two traces; a model turn with usage; span events", []streaming.Event{
			{Kind: streaming.KindSessionStart, Agent: "opencode", SessionID: "a", Model: "anthropic/claude-sonnet-4"},
			{Kind: streaming.KindMessageStart, Agent: "opencode", Message: "m1", Role: "assistant"},
			{Kind: streaming.KindUsage, Agent: "opencode", Usage: usage},
			{Kind: streaming.KindPermissionRequest, Agent: "opencode", ID: "p", Name: "bash"},
			{Kind: streaming.KindStatus, Agent: "opencode", Text: "context compacted"},
			{Kind: streaming.KindSessionStart, Agent: "opencode", SessionID: "b"},
			{Kind: streaming.KindError, Agent: "opencode", Text: "boom", Fatal: true},
			{Kind: streaming.KindResult, Agent: "opencode", OK: true},
		}, `invoke_agent opencode gen_ai.operation.name=invoke_agent gen_ai.conversation.id=a gen_ai.provider.name=anthropic agentfmt.incomplete=a new run began +permission.request +compaction
  chat anthropic/claude-sonnet-4 gen_ai.operation.name=chat gen_ai.provider.name=anthropic gen_ai.usage.input_tokens=10 gen_ai.usage.cache_read.input_tokens=3 agentfmt.usage.cost_usd=0.25
invoke_agent opencode gen_ai.operation.name=invoke_agent gen_ai.conversation.id=b +error
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for i := range tc.evs {
				tc.evs[i].Time = at(i)
			}
			spans := record(t, Options{}, tc.evs...)
			if got := tree(spans, keys...); got != tc.want {
				t.Errorf("spans:\n%s\nwant:\n%s", got, tc.want)
			}
			traces := map[string]bool{}
			for _, s := range spans {
				traces[s.SpanContext.TraceID().String()] = true
			}
			if want := strings.Count(tc.want, "\ninvoke_agent") + 1; len(traces) != want {
				t.Errorf("%d traces, want %d (a trace per run)", len(traces), want)
			}
		})
	}
}

// The stream's own times make the spans' times; an event without a time
// after one with a time takes the last one (a backfill keeps its times).
func TestTraceTimes(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	now := func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) }
	spans := record(t, Options{Now: now},
		streaming.Event{Kind: streaming.KindSessionStart, Agent: "codex", Time: t0},
		streaming.Event{Kind: streaming.KindToolStart, Agent: "codex", ID: "1", Name: "shell", Time: t0.Add(time.Second)},
		streaming.Event{Kind: streaming.KindToolEnd, Agent: "codex", ID: "1", Status: streaming.ToolOK, Time: t0.Add(3 * time.Second)},
		streaming.Event{Kind: streaming.KindResult, Agent: "codex", OK: true}) // (made at the end of input: no time)
	want := map[string][2]time.Time{
		"invoke_agent codex": {t0, t0.Add(3 * time.Second)},
		"execute_tool shell": {t0.Add(time.Second), t0.Add(3 * time.Second)},
	}
	for _, s := range spans {
		if w := want[s.Name]; !s.StartTime.Equal(w[0]) || !s.EndTime.Equal(w[1]) {
			t.Errorf("%s: %v to %v, want %v to %v", s.Name, s.StartTime, s.EndTime, w[0], w[1])
		}
	}
	// Times that go back (a transcript's need not rise): no span ends
	// before it began.
	spans = record(t, Options{Now: now},
		streaming.Event{Kind: streaming.KindSessionStart, Agent: "claude", Time: t0.Add(5 * time.Second)},
		streaming.Event{Kind: streaming.KindToolStart, Agent: "claude", ID: "1", Name: "Bash", Time: t0.Add(6 * time.Second)},
		streaming.Event{Kind: streaming.KindToolEnd, Agent: "claude", ID: "1", Status: streaming.ToolOK, Time: t0.Add(2 * time.Second)},
		streaming.Event{Kind: streaming.KindResult, Agent: "claude", OK: true, Time: t0})
	for _, s := range spans {
		if s.EndTime.Before(s.StartTime) {
			t.Errorf("%s ends at %v, before it began at %v", s.Name, s.EndTime, s.StartTime)
		}
	}
	// Without times in the stream: the clock's.
	spans = record(t, Options{Now: now}, streaming.Event{Kind: streaming.KindSessionStart, Agent: "claude"},
		streaming.Event{Kind: streaming.KindResult, Agent: "claude", OK: true})
	if len(spans) != 1 || !spans[0].StartTime.Equal(now()) {
		t.Errorf("spans %v, want one starting at the clock's time", spans)
	}
}

// Content (prompt, answer, tool arguments and results) only when asked
// for, cut to the bound, in valid UTF-8.
func TestTraceContent(t *testing.T) {
	t.Parallel()
	evs := []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude"},
		{Kind: streaming.KindTextDelta, Agent: "claude", Role: "user", Text: "fix the secret test"},
		{Kind: streaming.KindToolStart, Agent: "claude", ID: "t", Name: "Bash", Input: `{"command":"cat .env"}`, Subject: "cat .env"},
		{Kind: streaming.KindToolEnd, Agent: "claude", ID: "t", Status: streaming.ToolOK, Output: "TOKEN=" + strings.Repeat("x", 100) + "\xff"},
		{Kind: streaming.KindResult, Agent: "claude", OK: true, Text: "done"},
	}
	contentKeys := []string{"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.tool.call.arguments",
		"gen_ai.tool.call.result", "agentfmt.tool.subject"}
	if got := tree(record(t, Options{}, evs...), contentKeys...); strings.Contains(got, "=") {
		t.Errorf("content without asking:\n%s", got)
	}
	got := tree(record(t, Options{Content: true, MaxContent: 40}, evs...), contentKeys...)
	want := `invoke_agent claude gen_ai.output.messages=[{"role":"assistant","parts":[{"type":"text","content":"done"}]}] gen_ai.input.messages=[{"role":"user","parts":[{"type":"text","content":"fix the secret test"}]}]
  execute_tool Bash gen_ai.tool.call.arguments={"command":"cat .env"} agentfmt.tool.subject=cat .env gen_ai.tool.call.result=TOKEN=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… [67 bytes cut]
`
	if got != want {
		t.Errorf("content:\n%s\nwant:\n%s", got, want)
	}
}

// agentfmt run begins the run's span before any event, so the agent can
// be handed its TRACEPARENT; the session.start then fills it in, and an
// incoming TRACEPARENT makes the run its child.
func TestTraceBeginAndPropagation(t *testing.T) {
	t.Parallel()
	const in = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	parent := Extract(func(k string) string {
		if k == "TRACEPARENT" {
			return in
		}
		return ""
	})
	mem := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(mem))
	tr := New(tp.Tracer("test"), Options{Parent: parent})
	ctx := tr.Begin("claude")
	tp1, _ := Inject(ctx)
	if !strings.HasPrefix(tp1, "00-0af7651916cd43dd8448eb211c80319c-") || strings.Contains(tp1, "b7ad6b7169203331") {
		t.Errorf("TRACEPARENT for the agent %q: want the incoming trace, the run's span", tp1)
	}
	for _, ev := range []streaming.Event{{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "x"},
		{Kind: streaming.KindResult, Agent: "claude", OK: true}} {
		_ = tr.Handle(&ev)
	}
	tr.Close("")
	spans := mem.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("%d spans, want 1 (session.start fills in the begun run)", len(spans))
	}
	s := spans[0]
	if s.Parent.SpanID().String() != "b7ad6b7169203331" || !strings.Contains(tp1, s.SpanContext.SpanID().String()) {
		t.Errorf("run span %v under %v; TRACEPARENT %s", s.SpanContext.SpanID(), s.Parent.SpanID(), tp1)
	}
	if !slices.Contains(s.Attributes, attribute.String("gen_ai.conversation.id", "x")) {
		t.Errorf("attributes %v lack the session id", s.Attributes)
	}
	if tp, _ := Inject(Extract(func(string) string { return "garbage" })); tp != "" {
		t.Errorf("a bad TRACEPARENT gave %q", tp)
	}
}
