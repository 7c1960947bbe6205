package otlp

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/streaming"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func TestEndpoint(t *testing.T) {
	t.Parallel()
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		flag string
		env  func(string) string
		want string
	}{
		{"auto", env(), "http://localhost:4318/v1/traces"},
		{"", env("OTEL_EXPORTER_OTLP_ENDPOINT", "https://api.example.com/otlp/"), "https://api.example.com/otlp/v1/traces"},
		{"auto", env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://a:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://b:4318/traces"), "http://b:4318/traces"},
		{"http://collector:4318", env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://a:4318"), "http://collector:4318/v1/traces"},
		{"collector:4318", env(), "error: --otlp: \"collector:4318\" is not an http:// or https:// URL"},
		{"auto", env("OTEL_EXPORTER_OTLP_ENDPOINT", "ftp://x"), "error: OTEL_EXPORTER_OTLP_ENDPOINT: \"ftp://x\" is not an http:// or https:// URL"},
	} {
		got, err := Endpoint(tc.flag, tc.env)
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != tc.want {
			t.Errorf("Endpoint(%q) = %s, want %s", tc.flag, got, tc.want)
		}
	}
}

// Spans go through the batcher to the exporter, and Shutdown says nothing
// when all of them left.
func TestExporterSends(t *testing.T) {
	t.Parallel()
	mem := keep{tracetest.NewInMemoryExporter()}
	exp, err := Start(Config{Endpoint: "http://x/v1/traces", Exporter: mem, Version: "1.2.3",
		Getenv: func(k string) string { return map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_RUN_ID": "7"}[k] }})
	if err != nil {
		t.Fatal(err)
	}
	tr := New(exp.Tracer(), Options{})
	for _, ev := range sampleRun() {
		_ = tr.Handle(&ev)
	}
	if w := exp.Shutdown(); w != "" {
		t.Errorf("warning %q", w)
	}
	spans := mem.GetSpans()
	if len(spans) != 2 {
		t.Fatalf("%d spans, want 2", len(spans))
	}
	res := spans[0].Resource
	for _, kv := range []attribute.KeyValue{attribute.String("service.name", "agentfmt"),
		attribute.String("service.version", "1.2.3"), attribute.String("cicd.pipeline.run.id", "7")} {
		if v, ok := res.Set().Value(kv.Key); !ok || v != kv.Value {
			t.Errorf("resource %v: want %s=%s", res, kv.Key, kv.Value.String())
		}
	}
}

// keep is the in-memory exporter without its forgetting at Shutdown.
type keep struct{ *tracetest.InMemoryExporter }

func (keep) Shutdown(context.Context) error { return nil }

// sampleRun is a run with one tool call: two spans.
func sampleRun() []streaming.Event {
	return []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "s"},
		{Kind: streaming.KindToolStart, Agent: "claude", ID: "t", Name: "Bash"},
		{Kind: streaming.KindToolEnd, Agent: "claude", ID: "t", Status: streaming.ToolOK},
		{Kind: streaming.KindResult, Agent: "claude", OK: true},
	}
}

// A collector that is down costs one warning at the end, within the
// flush bound, counting what was lost.
func TestExporterDownCollector(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // (nothing listens there now)
	exp, err := Start(Config{Endpoint: "http://" + addr + "/v1/traces", Flush: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	tr := New(exp.Tracer(), Options{})
	for _, ev := range sampleRun() {
		_ = tr.Handle(&ev)
	}
	start := time.Now()
	w := exp.Shutdown()
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("Shutdown took %v: the flush is bounded", took)
	}
	if !strings.HasPrefix(w, "2 of 2 spans not exported to http://"+addr+"/v1/traces: ") {
		t.Errorf("warning %q", w)
	}
}

func TestCIAttrs(t *testing.T) {
	t.Parallel()
	gh := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_WORKFLOW": "ci", "GITHUB_RUN_ID": "42",
		"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "o/r", "GITHUB_REPOSITORY_OWNER": "o",
		"GITHUB_JOB": "test", "GITHUB_REF_NAME": "main", "GITHUB_SHA": "abc"}
	gl := map[string]string{"GITLAB_CI": "true", "CI_PROJECT_PATH": "g/p", "CI_PIPELINE_ID": "9",
		"CI_PIPELINE_URL": "https://gitlab.com/g/p/-/pipelines/9", "CI_JOB_NAME": "lint", "CI_JOB_ID": "11",
		"CI_PROJECT_NAME": "p", "CI_PROJECT_NAMESPACE": "g", "CI_PROJECT_URL": "https://gitlab.com/g/p",
		"CI_COMMIT_REF_NAME": "dev", "CI_COMMIT_SHA": "def"}
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{gh, "cicd.pipeline.name=ci cicd.pipeline.run.id=42 cicd.pipeline.run.url.full=https://github.com/o/r/actions/runs/42 " +
			"cicd.pipeline.task.name=test vcs.provider.name=github vcs.owner.name=o vcs.repository.name=r " +
			"vcs.repository.url.full=https://github.com/o/r vcs.ref.head.name=main vcs.ref.head.revision=abc"},
		{gl, "cicd.pipeline.name=g/p cicd.pipeline.run.id=9 cicd.pipeline.run.url.full=https://gitlab.com/g/p/-/pipelines/9 " +
			"cicd.pipeline.task.name=lint cicd.pipeline.task.run.id=11 vcs.provider.name=gitlab vcs.owner.name=g " +
			"vcs.repository.name=p vcs.repository.url.full=https://gitlab.com/g/p vcs.ref.head.name=dev vcs.ref.head.revision=def"},
		{map[string]string{}, ""},
	} {
		var got []string
		for _, kv := range ciAttrs(func(k string) string { return tc.env[k] }) {
			got = append(got, string(kv.Key)+"="+kv.Value.String())
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("ciAttrs:\n%s\nwant:\n%s", s, tc.want)
		}
	}
}
