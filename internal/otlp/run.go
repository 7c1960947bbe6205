package otlp

import (
	"context"
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/streaming"
	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
)

// run is the span of one run and what is open in it.
type run struct {
	t     *Trace
	ctx   context.Context
	span  trace.Span
	agent string
	model string
	// begun: a session.start filled the span in (a second one begins
	// another run).
	begun bool
	// resulted: the run's result came.
	resulted bool
	// calls are the open tool calls by id; seq numbers them in the order
	// they started (those left open at the end end in that order).
	calls map[string]*call
	seq   int
	// turnStart is when the last model turn began, lastChat when the last
	// chat span ended, by the call id of the subagent ("" for the run).
	turnStart map[string]time.Time
	lastChat  map[string]time.Time
	// prompt is the user's text (Options.Content).
	prompt bounded
	// attrs are the span's attributes gathered as the run goes, set once
	// as it ends (each SetAttributes grows the span's own list).
	attrs []attribute.KeyValue
}

// call is a tool call's span, and the span of the subagent it started
// once one of the subagent's events came.
type call struct {
	seq    int
	ctx    context.Context
	span   trace.Span
	sub    trace.Span
	subCtx context.Context
}

func (r *run) sessionStart(ev *streaming.Event) {
	r.begun = true
	if a := r.t.name(ev.Agent); a != "" && a != r.agent {
		r.agent = a
		r.span.SetName("invoke_agent " + a)
		r.attrs = append(r.attrs, semconv.GenAIAgentName(a))
	}
	if ev.SessionID != "" {
		r.attrs = append(r.attrs, semconv.GenAIConversationID(clean(ev.SessionID)))
	}
	if ev.Model != "" {
		r.model = r.t.name(ev.Model)
		r.attrs = append(r.attrs, semconv.GenAIRequestModel(r.model))
	}
	if p := provider(r.agent, r.model); p != "" {
		r.attrs = append(r.attrs, semconv.GenAIProviderNameKey.String(p))
	}
	if ev.Title != "" {
		r.attrs = append(r.attrs, attribute.String("agentfmt.run.title", clean(ev.Title)))
	}
}

// parent is the context the spans of an event hang from: the subagent of
// the call that started it (begun now, if this is its first event), else
// the run.
func (r *run) parent(id string, at time.Time) (context.Context, string) {
	if id == "" {
		return r.ctx, ""
	}
	c := r.calls[id]
	if c == nil {
		return r.ctx, ""
	}
	if c.sub == nil {
		c.subCtx, c.sub = r.t.tracer.Start(c.ctx, "invoke_agent "+r.agent, trace.WithTimestamp(at),
			trace.WithAttributes(semconv.GenAIOperationNameInvokeAgent, semconv.GenAIAgentName(r.agent),
				attribute.String("agentfmt.parent_call.id", clean(id))))
		r.lastChat[id] = at
	}
	return c.subCtx, id
}

func (r *run) toolStart(ev *streaming.Event, at time.Time) {
	if r.calls[ev.ID] != nil {
		return
	}
	ctx, _ := r.parent(ev.Parent, at)
	name := r.t.name(ev.Name)
	attrs := []attribute.KeyValue{semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName(name),
		semconv.GenAIToolCallID(clean(ev.ID))}
	if r.t.opts.Content {
		attrs = r.t.content(attrs, "gen_ai.tool.call.arguments", ev.Input)
		if s := ev.Subject; s != "" {
			attrs = r.t.content(attrs, "agentfmt.tool.subject", s)
		}
	}
	attrs = appendEdits(attrs, ev.Edits)
	r.seq++
	c := &call{seq: r.seq}
	c.ctx, c.span = r.t.tracer.Start(ctx, "execute_tool "+name, trace.WithTimestamp(at), trace.WithAttributes(attrs...))
	r.calls[strings.Clone(ev.ID)] = c
}

func (r *run) toolEnd(ev *streaming.Event, at time.Time) {
	c := r.calls[ev.ID]
	if c == nil {
		r.toolStart(ev, at)
		c = r.calls[ev.ID]
	}
	attrs := make([]attribute.KeyValue, 0, 6)
	attrs = append(attrs, attribute.String("agentfmt.tool.status", r.t.name(string(ev.Status))))
	if ev.ExitCode != nil {
		attrs = append(attrs, attribute.Int("process.exit.code", *ev.ExitCode))
	}
	attrs = appendEdits(attrs, ev.Edits)
	if r.t.opts.Content {
		attrs = r.t.content(attrs, "gen_ai.tool.call.result", ev.Output)
	}
	switch ev.Status {
	case streaming.ToolError:
		what := "tool error"
		if ev.ExitCode != nil {
			what = "exit status " + itoa(*ev.ExitCode)
		}
		attrs = append(attrs, failure(c.span, "tool_error", what))
	case streaming.ToolIncomplete:
		attrs = append(attrs, attribute.String("agentfmt.incomplete", "the call never ended"))
	}
	c.span.SetAttributes(attrs...)
	c.end(at, "")
	delete(r.calls, ev.ID)
}

// end ends the call's span and its subagent's; why says why a call that
// did not end ends here ("": it ended).
func (c *call) end(at time.Time, why string) {
	if why != "" {
		c.span.SetAttributes(attribute.String("agentfmt.incomplete", why))
	}
	if c.sub != nil {
		c.sub.End(trace.WithTimestamp(at))
	}
	c.span.End(trace.WithTimestamp(at))
}

// chat records a model turn the stream marked with usage: a chat span
// from the turn's start (else the end of the last one) to now.
func (r *run) chat(ev *streaming.Event, at time.Time) {
	if ev.Usage == nil {
		return
	}
	ctx, key := r.parent(ev.Parent, at)
	start, ok := r.turnStart[key]
	if !ok || start.Before(r.lastChat[key]) {
		start = r.lastChat[key]
	}
	if start.IsZero() || start.After(at) {
		start = at
	}
	delete(r.turnStart, key)
	r.lastChat[key] = at
	model := r.model
	name := "chat"
	attrs := []attribute.KeyValue{semconv.GenAIOperationNameChat}
	if model != "" {
		name += " " + model
		attrs = append(attrs, semconv.GenAIRequestModel(model))
	}
	if p := provider(r.agent, model); p != "" {
		attrs = append(attrs, semconv.GenAIProviderNameKey.String(p))
	}
	attrs = appendUsage(attrs, ev.Usage)
	_, span := r.t.tracer.Start(ctx, name, trace.WithTimestamp(start), trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attrs...))
	span.End(trace.WithTimestamp(at))
}

func (r *run) result(ev *streaming.Event) {
	r.resulted = true
	if len(ev.Models) > 0 {
		r.attrs = append(r.attrs, semconv.GenAIResponseModel(r.t.name(ev.Models[0])))
	}
	if ev.Usage != nil {
		r.attrs = appendUsage(r.attrs, ev.Usage)
	}
	if ev.Turns > 0 {
		r.attrs = append(r.attrs, attribute.Int("agentfmt.turns", ev.Turns))
	}
	if ev.Reason != "" {
		r.attrs = append(r.attrs, attribute.String("agentfmt.reason", clean(ev.Reason)))
	}
	if ev.Origin != "" {
		r.attrs = append(r.attrs, attribute.String("agentfmt.origin", r.t.name(ev.Origin)))
	}
	if r.t.opts.Content && ev.Text != "" {
		r.attrs = append(r.attrs, attribute.String("gen_ai.output.messages", messages("assistant", r.t.cut(ev.Text))))
	}
	if !ev.OK {
		r.attrs = append(r.attrs, failure(r.span, "agent_failure", ev.Reason))
	}
}

// finish writes what the run gathered as it went on its span.
func (r *run) finish() {
	if r.t.opts.Content && r.prompt.Len() > 0 {
		r.attrs = append(r.attrs, attribute.String("gen_ai.input.messages", messages("user", r.prompt.String())))
	}
	if len(r.attrs) > 0 {
		r.span.SetAttributes(r.attrs...)
	}
}

// spanEvent records permissions, errors, compactions, mode changes and
// warnings as events of the span they happen in.
func (r *run) spanEvent(ev *streaming.Event, at time.Time) {
	ctx, _ := r.parent(ev.Parent, at)
	span := trace.SpanFromContext(ctx)
	var name string
	var attrs []attribute.KeyValue
	switch ev.Kind {
	case streaming.KindPermissionRequest:
		name = "permission.request"
		attrs = []attribute.KeyValue{attribute.String("id", clean(ev.ID)), attribute.String("tool", clean(ev.Name))}
	case streaming.KindPermissionResponse:
		name = "permission.response"
		attrs = []attribute.KeyValue{attribute.String("id", clean(ev.ID)), attribute.String("choice", clean(ev.Choice))}
	case streaming.KindModeChange:
		name = "mode.change"
		attrs = []attribute.KeyValue{attribute.String("from", clean(ev.From)), attribute.String("to", clean(ev.To))}
	case streaming.KindError:
		name = "error"
		attrs = []attribute.KeyValue{attribute.Bool("fatal", ev.Fatal), attribute.String("message", r.t.cut(ev.Text))}
	case streaming.KindStatus:
		switch {
		case strings.Contains(strings.ToLower(ev.Text), "compact"):
			name = "compaction"
		case ev.Level == streaming.LevelWarning:
			name = "warning"
		default:
			return
		}
		attrs = []attribute.KeyValue{attribute.String("message", r.t.cut(ev.Text))}
	default:
		return
	}
	span.AddEvent(name, trace.WithTimestamp(at), trace.WithAttributes(attrs...))
}

func appendUsage(attrs []attribute.KeyValue, u *streaming.Usage) []attribute.KeyValue {
	attrs = append(attrs, semconv.GenAIUsageInputTokensKey.Int64(u.InputTokens),
		semconv.GenAIUsageOutputTokensKey.Int64(u.OutputTokens))
	if u.CacheReadTokens > 0 {
		attrs = append(attrs, semconv.GenAIUsageCacheReadInputTokensKey.Int64(u.CacheReadTokens))
	}
	if u.CacheWriteTokens > 0 {
		attrs = append(attrs, semconv.GenAIUsageCacheCreationInputTokensKey.Int64(u.CacheWriteTokens))
	}
	if u.HasCost {
		attrs = append(attrs, attribute.Float64("agentfmt.usage.cost_usd", u.CostUSD))
	}
	return attrs
}

// appendEdits names the files a call edits (paths only: their text is
// content).
func appendEdits(attrs []attribute.KeyValue, edits []streaming.FileEdit) []attribute.KeyValue {
	if len(edits) == 0 {
		return attrs
	}
	paths := make([]string, 0, len(edits))
	for _, e := range edits {
		paths = append(paths, clean(e.Path))
	}
	return append(attrs, attribute.StringSlice("agentfmt.tool.edits", paths))
}
