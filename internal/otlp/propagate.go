package otlp

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Extract is the context of an incoming W3C TRACEPARENT (and
// TRACESTATE), as a CI job or a caller sets it: the runs become its
// children. Without a valid one it is the background context.
func Extract(getenv func(string) string) context.Context {
	carrier := propagation.MapCarrier{"traceparent": getenv("TRACEPARENT"), "tracestate": getenv("TRACESTATE")}
	return propagation.TraceContext{}.Extract(context.Background(), carrier)
}

// Inject returns the TRACEPARENT and TRACESTATE that make a process's
// spans children of ctx's span ("" when it has none).
func Inject(ctx context.Context) (traceparent, tracestate string) {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return "", ""
	}
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	return carrier["traceparent"], carrier["tracestate"]
}
