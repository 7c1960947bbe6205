package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/otlp"
	"github.com/agentfmt/agentfmt/internal/testenv"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// JaegerVar names the Jaeger v2 all-in-one binary the trace tests export
// to (.ci/run builds it from tools/jaeger).
const JaegerVar = "AGENTFMT_JAEGER"

// jaeger is a Jaeger all-in-one running on free local ports, its traces
// in memory.
type jaeger struct {
	otlp, query string // base URLs
}

// startJaeger starts the binary AGENTFMT_JAEGER names, or skips.
func startJaeger(t *testing.T) *jaeger {
	t.Helper()
	testenv.Slow(t)
	bin := os.Getenv(JaegerVar)
	if bin == "" {
		t.Skipf("%s names no Jaeger binary: the trace tests against a real backend skip (.ci/run builds one from tools/jaeger)", JaegerVar)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("%s=%s: %v (the trace tests skip)", JaegerVar, bin, err)
	}
	ports := freePorts(t, 3)
	j := &jaeger{otlp: "http://" + ports[0], query: "http://" + ports[1]}
	config := fmt.Sprintf(`service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    enable_tracing: false
    storage:
      traces: memstore
    http:
      endpoint: %s
    grpc:
      endpoint: %s
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 100000
receivers:
  otlp:
    protocols:
      http:
        endpoint: %s
processors:
  batch:
    timeout: 100ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`, ports[1], ports[2], ports[0])
	dir := t.TempDir()
	path := filepath.Join(dir, "jaeger.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	cmd := exec.Command(bin, "--config", path)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("jaeger's log:\n%s", logs.String())
		}
	})
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := http.Get(j.query + "/api/services")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return j
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("jaeger did not answer on %s: %v\n%s", j.query, err, logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// freePorts are n local addresses nothing listens on now.
func freePorts(t *testing.T, n int) []string {
	t.Helper()
	var ls []net.Listener
	var addrs []string
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		addrs = append(addrs, l.Addr().String())
	}
	for _, l := range ls {
		l.Close()
	}
	return addrs
}

// jTrace is a trace as Jaeger's query API gives it.
type jTrace struct {
	TraceID string  `json:"traceID"`
	Spans   []jSpan `json:"spans"`
}

type jSpan struct {
	SpanID     string `json:"spanID"`
	Operation  string `json:"operationName"`
	References []struct {
		RefType string `json:"refType"`
		SpanID  string `json:"spanID"`
	} `json:"references"`
	StartTime int64 `json:"startTime"` // µs since the epoch
	Tags      []struct {
		Key   string `json:"key"`
		Value any    `json:"value"`
	} `json:"tags"`
}

func (s jSpan) tag(key string) (any, bool) {
	for _, t := range s.Tags {
		if t.Key == key {
			return t.Value, true
		}
	}
	return nil, false
}

func (s jSpan) parent() string {
	for _, r := range s.References {
		if r.RefType == "CHILD_OF" {
			return r.SpanID
		}
	}
	return ""
}

// traces returns every trace of agentfmt Jaeger holds, by id.
func (j *jaeger) traces(t *testing.T) map[string]jTrace {
	t.Helper()
	// (from the epoch: a backfilled run keeps its own, old, times)
	end := time.Now().Add(time.Hour).UnixMicro()
	resp, err := http.Get(fmt.Sprintf("%s/api/traces?service=agentfmt&limit=1000&start=1&end=%d", j.query, end))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("jaeger's /api/traces: %s", resp.Status)
	}
	var body struct {
		Data []jTrace `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	out := map[string]jTrace{}
	for _, tr := range body.Data {
		out[tr.TraceID] = tr
	}
	return out
}

// exportTo runs agentfmt with --otlp on Jaeger and returns the traces that
// came, once as many spans came as the in-memory exporter got for the
// same run; it checks that the output and exit status are those of a run
// without --otlp.
func (j *jaeger) exportTo(t *testing.T, path string, content bool) map[string]jTrace {
	t.Helper()
	before := j.traces(t)
	args := []string{"-o", "plain", path}
	var out0, err0 bytes.Buffer
	code0 := Run(args, traceEnv(nil, &out0, &err0, nil, nil))
	flags := []string{"--otlp=" + j.otlp}
	if content {
		flags = append(flags, "--otlp-content")
	}
	mem := &memTraces{tracetest.NewInMemoryExporter()}
	var outM, errM bytes.Buffer
	Run(append(flags, args...), traceEnv(nil, &outM, &errM, nil, mem))
	want := len(mem.GetSpans())
	var out1, err1 bytes.Buffer
	env := traceEnv(nil, &out1, &err1, nil, nil)
	env.OTLP = nil
	code1 := Run(append(flags, args...), env)
	if code1 != code0 || out1.String() != out0.String() || err1.String() != err0.String() {
		t.Errorf("%s: --otlp changed the run: exit %d → %d, same stdout %v, stderr %q → %q", path, code0, code1,
			out1.String() == out0.String(), err0.String(), err1.String())
	}
	deadline := time.Now().Add(time.Minute)
	for {
		got, n := map[string]jTrace{}, 0
		for id, tr := range j.traces(t) {
			if _, ok := before[id]; !ok {
				got[id] = tr
				n += len(tr.Spans)
			}
		}
		if n >= want {
			if n > want {
				t.Errorf("%s: %d spans in Jaeger, the SDK made %d", path, n, want)
			}
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d spans in Jaeger after a minute, want %d", path, n, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestOTLPJaeger exports real captures to a running Jaeger and reads them
// back through its query API.
func TestOTLPJaeger(t *testing.T) {
	j := startJaeger(t)
	corpus := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("no ../shared/corpus")
	}
	contentKeys := []string{"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"}
	monthAgo := time.Now().Add(-30 * 24 * time.Hour).UnixMicro()
	for _, tc := range []struct {
		file string
		// subagents: tool calls run under a subagent's invoke_agent;
		// failed: the run failed; usage: the run's usage is on its span;
		// timed: the stream carries its times.
		subagents, failed, usage, timed bool
	}{
		{file: "claude/01-subagents-parallel-task-no-partial.jsonl", subagents: true, usage: true},
		{file: "claude/05-result-error-max-budget-v2.1.207.jsonl", failed: true, usage: true},
		{file: "codex/02-vincent-command-execution.jsonl", usage: true},
		{file: "codex/03-vincent-error-item-and-turn-failed.jsonl", failed: true},
		{file: "gemini/05-agentcmd-v0.11-read-replace-read.jsonl", usage: true, timed: true},
		{file: "opencode/04-ralph-two-bash-tools.jsonl", usage: true, timed: true},
		{file: "claude-transcript/03-happy-1.0.71-inline-sidechain-task-subagent-websearch.jsonl", subagents: true, timed: true},
		{file: "codex-rollout/01-agentcmd-0.40.0-vscode-shell-function-calls-reasoning-token-count.jsonl", usage: true, timed: true},
	} {
		path := filepath.Join(corpus, tc.file)
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		var evs bytes.Buffer
		Run([]string{"-o", "json", path}, traceEnv(nil, &evs, &bytes.Buffer{}, nil, nil))
		runs, tools := strings.Count(evs.String(), `"kind":"result"`), strings.Count(evs.String(), `"kind":"tool.start"`)
		for _, content := range []bool{false, true} {
			traces := j.exportTo(t, path, content)
			if len(traces) != runs {
				t.Errorf("%s: %d traces, want %d (one per run)", tc.file, len(traces), runs)
			}
			calls, nested, withContent := 0, 0, 0
			for _, tr := range traces {
				byID := map[string]jSpan{}
				for _, s := range tr.Spans {
					byID[s.SpanID] = s
				}
				for _, s := range tr.Spans {
					for _, k := range contentKeys {
						if _, has := s.tag(k); has {
							withContent++
							if !content {
								t.Errorf("%s: span %s has %s without --otlp-content", tc.file, s.Operation, k)
							}
						}
					}
					p, hasParent := byID[s.parent()]
					switch {
					case s.parent() == "":
						if !strings.HasPrefix(s.Operation, "invoke_agent ") {
							t.Errorf("%s: root span %q", tc.file, s.Operation)
						}
						_, hasUsage := s.tag("gen_ai.usage.input_tokens")
						errType, failed := s.tag("error.type")
						if hasUsage != tc.usage || failed != tc.failed {
							t.Errorf("%s: run span usage %v failed %v (%v), want %v %v", tc.file, hasUsage, failed, errType, tc.usage, tc.failed)
						}
						if old := s.StartTime < monthAgo; old != tc.timed {
							t.Errorf("%s: run starts at %v: the stream's own time %v", tc.file, time.UnixMicro(s.StartTime), tc.timed)
						}
					case strings.HasPrefix(s.Operation, "execute_tool "):
						calls++
						id, _ := s.tag("gen_ai.tool.call.id")
						name, _ := s.tag("gen_ai.tool.name")
						if id == "" || id == nil || name == nil || "execute_tool "+fmt.Sprint(name) != s.Operation {
							t.Errorf("%s: %s: id %v name %v", tc.file, s.Operation, id, name)
						}
						if !hasParent {
							t.Errorf("%s: %s has no parent in its trace", tc.file, s.Operation)
						} else if p.parent() != "" && strings.HasPrefix(p.Operation, "invoke_agent ") {
							nested++
							if gp := byID[p.parent()]; !strings.HasPrefix(gp.Operation, "execute_tool ") {
								t.Errorf("%s: a subagent under %q, not under a call", tc.file, gp.Operation)
							}
						}
					}
				}
			}
			if content && tools > 0 && withContent == 0 {
				t.Errorf("%s: no content with --otlp-content", tc.file)
			}
			if calls != tools {
				t.Errorf("%s: %d execute_tool spans, want %d (one per call)", tc.file, calls, tools)
			}
			if (nested > 0) != tc.subagents {
				t.Errorf("%s: %d calls under a subagent, want some: %v", tc.file, nested, tc.subagents)
			}
		}
	}
}

// A collector that is down: the output and exit status of a run without
// --otlp, one warning, and an exit within the flush bound.
func TestOTLPCollectorDownReal(t *testing.T) {
	testenv.Slow(t)
	t.Parallel()
	addr := freePorts(t, 1)[0]
	path := "../testdata/claude/02-no-partial-parallel-tools-results-out-of-order.jsonl"
	var out0, err0, out1, err1 bytes.Buffer
	code0 := Run([]string{"-o", "plain", path}, traceEnv(nil, &out0, &err0, nil, nil))
	env := traceEnv(nil, &out1, &err1, nil, nil)
	env.OTLP = nil
	start := time.Now()
	code1 := Run([]string{"-o", "plain", "--otlp=http://" + addr, path}, env)
	took := time.Since(start)
	if code1 != code0 || out1.String() != out0.String() {
		t.Errorf("exit %d → %d, same stdout %v", code0, code1, out1.String() == out0.String())
	}
	if strings.Count(err1.String(), "\n") != 1 || !strings.Contains(err1.String(), "--otlp: ") {
		t.Errorf("stderr %q, want one warning", err1.String())
	}
	// (a generous bound: the flush is bounded by otlp.DefaultFlush)
	if took > 10*otlp.DefaultFlush {
		t.Errorf("took %v", took)
	}
}
