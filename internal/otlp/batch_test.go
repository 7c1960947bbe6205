package otlp

import (
	"context"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// gated is an exporter that says when it has a batch (entered), then
// takes it only when its gate lets it.
type gated struct {
	entered chan int
	gate    chan struct{}
	mu      sync.Mutex
	all     int
}

func (g *gated) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	g.entered <- len(spans)
	select {
	case <-g.gate:
	case <-ctx.Done():
		return ctx.Err()
	}
	g.mu.Lock()
	g.all += len(spans)
	g.mu.Unlock()
	return nil
}

func (g *gated) Shutdown(context.Context) error { return nil }

// spans ends n spans of the exporter's tracer.
func spans(exp *Exporter, n int) {
	tr := exp.Tracer()
	for range n {
		_, s := tr.Start(context.Background(), "s")
		s.End()
	}
}

// A full batch leaves as it fills, without waiting for the end; spans
// past the queue's bound are dropped and said once, at the end.
func TestBatcher(t *testing.T) {
	t.Parallel()
	g := &gated{entered: make(chan int, 100), gate: make(chan struct{})}
	exp, err := Start(Config{Exporter: g, Queue: 8, Endpoint: "http://x/v1/traces"})
	if err != nil {
		t.Fatal(err)
	}
	spans(exp, 2) // a batch (Queue/4)
	if n := <-g.entered; n != 2 {
		t.Fatalf("first batch of %d spans, want 2", n)
	}
	// While the exporter holds that batch, 8 spans wait and 3 more are
	// dropped.
	spans(exp, 11)
	close(g.gate)
	w := exp.Shutdown()
	if g.all != 10 || w != "3 of 13 spans not exported to http://x/v1/traces: the queue was full" {
		t.Errorf("%d spans exported, warning %q; want 10, and 3 of 13 dropped", g.all, w)
	}
}

// A batch that is not full leaves after a while, without the end.
func TestBatcherEvery(t *testing.T) {
	t.Parallel()
	g := &gated{entered: make(chan int, 1), gate: make(chan struct{})}
	close(g.gate)
	b := newBatcher(g, 8, 4, time.Millisecond, time.Second)
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(b))
	_, s := tp.Tracer("t").Start(context.Background(), "s")
	s.End()
	if n := <-g.entered; n != 1 {
		t.Errorf("a batch of %d spans, want 1", n)
	}
	_ = tp.Shutdown(context.Background())
}

func TestContainsFold(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{"Context COMPACTED": true, "compact": true, "compac": false, "": false,
		"auto-compaction": true, "impact": false} {
		if got := containsFold(s, "compact"); got != want {
			t.Errorf("containsFold(%q) = %v", s, got)
		}
	}
}
