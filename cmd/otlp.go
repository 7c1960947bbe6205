package cmd

import (
	"context"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/agentfmt/agentfmt/internal/otlp"
)

// tracing is --otlp for one command: the exporter, set up only when the
// flag asks for it, and what each stream's Trace is made with. nil
// without --otlp.
type tracing struct {
	exp     *otlp.Exporter
	content bool
	parent  context.Context
	now     func() time.Time
	mu      sync.Mutex
	traces  []*otlp.Trace
}

// otlpOn reports whether --otlp (or AGENTFMT_OTLP) asks for traces: a URL,
// "auto", or a true value.
func otlpOn(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "no", "off":
		return false
	}
	return true
}

// otlpFlag is --otlp's value as otlp.Endpoint takes it.
func otlpFlag(v string) string {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return "auto"
	}
	return strings.TrimSpace(v)
}

// startTracing sets up the exporter when --otlp asks for it (nil, nil
// otherwise: nothing of the SDK runs).
func startTracing(env *Env, o *Options) (*tracing, error) {
	if !otlpOn(o.OTLP) {
		return nil, nil
	}
	endpoint, err := otlp.Endpoint(otlpFlag(o.OTLP), env.getenv)
	if err != nil {
		return nil, usagef("%v", err)
	}
	cfg := otlp.Config{Endpoint: endpoint, Getenv: env.getenv, Version: Version()}
	if env.OTLP != nil {
		env.OTLP(&cfg)
	}
	exp, err := otlp.Start(cfg)
	if err != nil {
		return nil, usagef("--otlp: %v", err)
	}
	content := o.OTLPContent || strings.EqualFold(env.getenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"), "true")
	return &tracing{exp: exp, content: content, parent: otlp.Extract(env.getenv), now: env.Now}, nil
}

// trace is the Trace of one stream (tag: its tag among several, "" for
// one).
func (t *tracing) trace(tag string) *otlp.Trace {
	tr := otlp.New(t.exp.Tracer(), otlp.Options{Content: t.content, Parent: t.parent, Stream: tag, Now: t.now})
	t.mu.Lock()
	t.traces = append(t.traces, tr)
	t.mu.Unlock()
	return tr
}

// finish ends what is still open in every stream's trace, sends what is
// left within the flush bound, and says once on stderr what could not be
// sent.
func (t *tracing) finish(stderr io.Writer, why string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, tr := range t.traces {
		tr.Close(why)
	}
	if w := t.exp.Shutdown(); w != "" {
		warnf(stderr, "--otlp: %s", w)
	}
}

// handTrace gives the agent of 'agentfmt run' the TRACEPARENT (and
// TRACESTATE) of its run's span, begun now, in place of any it would
// inherit: an agent that exports spans of its own joins the run's trace.
func handTrace(tr *otlp.Trace, agent string, environ []string) []string {
	parent, state := otlp.Inject(tr.Begin(agent))
	out := make([]string, 0, len(environ)+2)
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "TRACEPARENT=") && !strings.HasPrefix(kv, "TRACESTATE=") {
			out = append(out, kv)
		}
	}
	if parent != "" {
		out = append(out, "TRACEPARENT="+parent)
	}
	if state != "" {
		out = append(out, "TRACESTATE="+state)
	}
	return out
}
