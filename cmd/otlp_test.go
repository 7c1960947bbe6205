package cmd

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/otlp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// memTraces is an in-memory exporter that keeps its spans past Shutdown.
type memTraces struct{ *tracetest.InMemoryExporter }

func (memTraces) Shutdown(context.Context) error { return nil }

// traceEnv is a command environment whose --otlp exports to mem.
func traceEnv(stdin io.Reader, out, errb *bytes.Buffer, vars map[string]string, mem *memTraces) *Env {
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	return &Env{Stdin: stdin, Stdout: out, Stderr: errb, Getenv: func(k string) string { return vars[k] },
		Now:      func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) },
		Tick:     make(chan time.Time),
		Scribble: true,
		OTLP: func(c *otlp.Config) {
			if mem != nil {
				c.Exporter = mem
			}
		},
	}
}

// --otlp changes neither what is rendered nor the exit status, in any
// format; every run is exported.
func TestOTLPRendersTheSame(t *testing.T) {
	t.Parallel()
	files := []string{"claude/02-no-partial-parallel-tools-results-out-of-order.jsonl",
		"codex/03-turn-failed-error-items-retries.jsonl", "gemini/03-tool-error-and-warning.jsonl",
		"opencode/02-parallel-tools-error-and-rejected.jsonl", "claude-transcript/02-inline-sidechain-task.jsonl"}
	for _, f := range files {
		path := filepath.Join("..", "testdata", f)
		for _, format := range []string{"plain", "json", "text"} {
			var out0, err0, out1, err1 bytes.Buffer
			code0 := Run([]string{"-o", format, path}, traceEnv(nil, &out0, &err0, nil, nil))
			mem := &memTraces{tracetest.NewInMemoryExporter()}
			code1 := Run([]string{"-o", format, "--otlp", path}, traceEnv(nil, &out1, &err1, nil, mem))
			if code0 != code1 || out0.String() != out1.String() || err0.String() != err1.String() {
				t.Errorf("%s -o %s: --otlp changed the run: exit %d → %d, stdout same %v, stderr %q → %q",
					path, format, code0, code1, out0.String() == out1.String(), err0.String(), err1.String())
			}
			if roots := rootSpans(mem.GetSpans()); len(roots) == 0 {
				t.Errorf("%s: no run exported", path)
			}
		}
	}
}

// rootSpans are the invoke_agent spans that begin a trace.
func rootSpans(spans tracetest.SpanStubs) []tracetest.SpanStub {
	var roots []tracetest.SpanStub
	for _, s := range spans {
		if !s.Parent.IsValid() {
			roots = append(roots, s)
		}
	}
	return roots
}

// -o none renders nothing and keeps the exit status; with --otlp the
// tool calls are exported, their edits too (which -o none alone never
// derives).
func TestOTLPNone(t *testing.T) {
	t.Parallel()
	path := "../testdata/codex/01-current-reasoning-command-filechange-todo.jsonl"
	var out, errb bytes.Buffer
	mem := &memTraces{tracetest.NewInMemoryExporter()}
	code := Run([]string{"-o", "none", "--otlp", path}, traceEnv(nil, &out, &errb, nil, mem))
	var plain, perr bytes.Buffer
	want := Run([]string{"-o", "plain", path}, traceEnv(nil, &plain, &perr, nil, nil))
	if out.Len() != 0 || code != want {
		t.Errorf("-o none: exit %d (plain %d), stdout %q", code, want, out.String())
	}
	tools, edits := 0, 0
	for _, s := range mem.GetSpans() {
		if strings.HasPrefix(s.Name, "execute_tool ") {
			tools++
			for _, kv := range s.Attributes {
				if kv.Key == "agentfmt.tool.edits" {
					edits++
				}
			}
		}
	}
	if tools == 0 || edits == 0 {
		t.Errorf("%d execute_tool spans, %d with edits: want some of each", tools, edits)
	}
}

// agentfmt run hands the agent the TRACEPARENT of the run's span, a child
// of the caller's TRACEPARENT.
func TestOTLPRunHandsTraceparent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	capture, _ := filepath.Abs("../testdata/claude/02-no-partial-parallel-tools-results-out-of-order.jsonl")
	seen := filepath.Join(dir, "seen")
	script := "#!/bin/sh\nprintf '%s' \"$TRACEPARENT\" > " + seen + "\ncat " + capture + "\n"
	agent := filepath.Join(dir, "claude")
	if err := writeProgram(agent, []byte(script)); err != nil {
		t.Fatal(err)
	}
	const caller = "00-11111111111111111111111111111111-2222222222222222-01"
	var out, errb bytes.Buffer
	mem := &memTraces{tracetest.NewInMemoryExporter()}
	env := traceEnv(nil, &out, &errb, map[string]string{"TRACEPARENT": caller}, mem)
	env.Environ = func() []string { return []string{"PATH=/usr/bin:/bin", "TRACEPARENT=" + caller} }
	code := Run([]string{"-o", "plain", "--otlp", "run", agent, "hi"}, env)
	got, err := os.ReadFile(seen)
	if err != nil {
		t.Fatalf("exit %d, stderr %q: %v", code, errb.String(), err)
	}
	var run *tracetest.SpanStub
	spans := mem.GetSpans()
	for i, s := range spans {
		if s.Parent.SpanID().String() == "2222222222222222" {
			run = &spans[i]
		}
	}
	if run == nil {
		t.Fatalf("no run span under the caller's: %v", spans)
	}
	want := "00-11111111111111111111111111111111-" + run.SpanContext.SpanID().String() + "-01"
	if string(got) != want {
		t.Errorf("the agent got TRACEPARENT %q, want %q (the run's span)", got, want)
	}
}

// Several streams: a trace per run per stream, each naming its stream.
func TestOTLPFollowStreams(t *testing.T) {
	t.Parallel()
	a, _ := filepath.Abs("../testdata/codex/03-turn-failed-error-items-retries.jsonl")
	b, _ := filepath.Abs("../testdata/claude/02-no-partial-parallel-tools-results-out-of-order.jsonl")
	var out, errb bytes.Buffer
	mem := &memTraces{tracetest.NewInMemoryExporter()}
	code := Run([]string{"-o", "plain", "--otlp", "--follow", a, b}, quick(traceEnv(nil, &out, &errb, nil, mem)))
	streams := map[string]bool{}
	for _, s := range rootSpans(mem.GetSpans()) {
		for _, kv := range s.Attributes {
			if kv.Key == "agentfmt.stream" {
				streams[kv.Value.AsString()] = true
			}
		}
	}
	if len(streams) != 2 {
		t.Errorf("exit %d, stderr %q: runs of streams %v, want both", code, errb.String(), streams)
	}
}

// A collector that is down: the same output and exit status, one
// warning.
func TestOTLPCollectorDown(t *testing.T) {
	t.Parallel()
	path := "../testdata/codex/03-turn-failed-error-items-retries.jsonl"
	var out0, err0, out1, err1 bytes.Buffer
	code0 := Run([]string{"-o", "plain", path}, traceEnv(nil, &out0, &err0, nil, nil))
	env := traceEnv(nil, &out1, &err1, nil, nil)
	env.OTLP = func(c *otlp.Config) { c.Exporter, c.Flush = failing{}, 100*time.Millisecond }
	code1 := Run([]string{"-o", "plain", "--otlp", path}, env)
	if code0 != code1 || out0.String() != out1.String() {
		t.Errorf("exit %d → %d, same stdout %v", code0, code1, out0.String() == out1.String())
	}
	if lines := strings.Count(err1.String(), "\n"); lines != 1+strings.Count(err0.String(), "\n") ||
		!strings.Contains(err1.String(), "agentfmt: --otlp: ") || !strings.Contains(err1.String(), "spans not exported to http://localhost:4318/v1/traces: collector down") {
		t.Errorf("stderr %q, want one warning more than %q", err1.String(), err0.String())
	}
}

// failing is an exporter whose collector never answers.
type failing struct{}

func (failing) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error {
	return errCollectorDown
}
func (failing) Shutdown(context.Context) error { return nil }

var errCollectorDown = &exitError{msg: "collector down"}
