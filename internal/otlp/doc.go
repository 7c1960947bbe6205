// Package otlp exports agentfmt's runs as OpenTelemetry traces, after the
// GenAI semantic conventions (docs/events.md, "Spans"): a consumer of the
// session's events as a renderer is, and read by none.
//
// A Trace is a streaming.Handler that turns one stream's events into
// spans: each run is an invoke_agent span, each tool call an execute_tool
// span under it, a subagent an invoke_agent span under the call that
// started it, model turns with usage chat spans. Times come from the
// stream where its events carry them, else from the clock.
//
// An Exporter is the SDK set up to send the spans over OTLP/HTTP: in
// batches, off the rendering path, from a bounded queue, with a bounded
// flush at the end. It is made only when --otlp asks for it.
//
//	exp, err := otlp.Start(otlp.Config{Endpoint: otlp.Endpoint(flag, getenv)})
//	tr := otlp.New(exp.Tracer(), otlp.Options{})
//	sess := streaming.NewSession(multi(renderer, tr), …)
//	…
//	tr.Close("the input ended")
//	if warning := exp.Shutdown(); warning != "" { … }
package otlp
