package otlp

import (
	"context"
	"strconv"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// discard is an exporter that sends nowhere.
type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }

// BenchmarkToolCalls is the cost of a tool call's span, from its events
// to the exporter (which sends nowhere).
func BenchmarkToolCalls(b *testing.B) {
	exp, err := Start(Config{Exporter: discard{}})
	if err != nil {
		b.Fatal(err)
	}
	tr := New(exp.Tracer(), Options{})
	start := streaming.Event{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "s"}
	_ = tr.Handle(&start)
	ids := make([]string, 1024)
	for i := range ids {
		ids[i] = "toolu_" + strconv.Itoa(i)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		id := ids[i%len(ids)]
		s := streaming.Event{Kind: streaming.KindToolStart, Agent: "claude", ID: id, Name: "Bash", Input: `{"command":"ls"}`}
		e := streaming.Event{Kind: streaming.KindToolEnd, Agent: "claude", ID: id, Name: "Bash", Status: streaming.ToolOK,
			ExitCode: streaming.IntPtr(0), Output: "out"}
		_ = tr.Handle(&s)
		_ = tr.Handle(&e)
	}
	b.StopTimer()
	tr.Close("")
	exp.Shutdown()
}
