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
	start time.Time // when the span began
	agent string
	model string
	// provider is the gen_ai.provider.name of the agent and model.
	provider string
	// begun: a session.start filled the span in (a second one begins
	// another run).
	begun bool
	// resulted: the run's result came.
	resulted bool
	// calls are the open tool calls by id (nil until the first); seq
	// numbers them in the order they started (those left open at the end
	// end in that order).
	calls map[string]*call
	seq   int
	// turns are the model turns of the run's own agent (a subagent's are
	// its call's).
	turns turns
	// prompt is the user's text (Options.Content).
	prompt bounded
	// attrs are the span's attributes gathered as the run goes, set once
	// as it ends (each SetAttributes grows the span's own list).
	attrs []attribute.KeyValue
}

// turns is when an agent's model turn began (started: one did since the
// last chat span) and when its last chat span ended.
type turns struct {
	start, last time.Time
	started     bool
}

// call is a tool call's span, and the span of the subagent it started
// once one of the subagent's events came.
type call struct {
	seq    int
	ctx    context.Context
	span   trace.Span
	sub    trace.Span
	subCtx context.Context
	turns  turns
	// name and id are the call's, extra its other attributes from its
	// start (content, edits): all are set as it ends, in one call.
	name, id string
	extra    []attribute.KeyValue
	// start and subStart are when the call's span and its subagent's
	// began.
	start, subStart time.Time
}

func (r *run) sessionStart(ev *streaming.Event) {
	r.begun = true
	if a := r.t.name(ev.Agent); a != "" && a != r.agent {
		r.agent = a
		r.span.SetName(r.t.spanName("invoke_agent", a))
		r.attrs = append(r.attrs, semconv.GenAIAgentName(a))
	}
	if ev.SessionID != "" {
		r.attrs = append(r.attrs, semconv.GenAIConversationID(clean(ev.SessionID)))
	}
	if ev.Model != "" {
		r.model = r.t.name(ev.Model)
		r.attrs = append(r.attrs, semconv.GenAIRequestModel(r.model))
	}
	r.provider = provider(r.agent, r.model)
	if r.provider != "" {
		r.attrs = append(r.attrs, semconv.GenAIProviderNameKey.String(r.provider))
	}
	if ev.Title != "" {
		r.attrs = append(r.attrs, attribute.String("agentfmt.run.title", clean(ev.Title)))
	}
}

// parent is the context the spans of an event hang from, and the turns
// of its agent: the subagent of the call that started it (begun now, if
// this is its first event), else the run.
func (r *run) parent(id string, at time.Time) (context.Context, *turns) {
	c := r.call(id)
	if c == nil {
		return r.ctx, &r.turns
	}
	if c.sub == nil {
		c.subCtx, c.sub = r.t.start(c.ctx, r.t.spanName("invoke_agent", r.agent), at, trace.SpanKindInternal)
		c.subStart = at
		r.t.set(c.sub, append(r.t.attrs(), semconv.GenAIOperationNameInvokeAgent, semconv.GenAIAgentName(r.agent),
			attribute.String("agentfmt.parent_call.id", c.id)))
		c.turns.last = at
	}
	return c.subCtx, &c.turns
}

// call is the open call id, nil for none (and for "", the run's own).
func (r *run) call(id string) *call {
	if id == "" {
		return nil
	}
	return r.calls[id]
}

// turnsOf is the turns of the agent of the call id (the run's for "").
func (r *run) turnsOf(id string) *turns {
	if c := r.call(id); c != nil {
		return &c.turns
	}
	return &r.turns
}

func (r *run) toolStart(ev *streaming.Event, at time.Time) *call {
	if c := r.calls[ev.ID]; c != nil {
		return c
	}
	ctx, _ := r.parent(ev.Parent, at)
	c := &call{name: r.t.name(ev.Name), id: clean(ev.ID)}
	if r.t.opts.Content {
		c.extra = r.t.content(c.extra, "gen_ai.tool.call.arguments", ev.Input)
		if s := ev.Subject; s != "" {
			c.extra = r.t.content(c.extra, "agentfmt.tool.subject", s)
		}
	}
	c.extra = appendEdits(c.extra, ev.Edits)
	r.seq++
	c.seq = r.seq
	c.ctx, c.span = r.t.start(ctx, r.t.spanName("execute_tool", c.name), at, trace.SpanKindInternal)
	c.start = at
	key := c.id
	if key != ev.ID {
		key = strings.Clone(ev.ID) // (clean replaced invalid bytes)
	}
	if r.calls == nil {
		r.calls = map[string]*call{}
	}
	r.calls[key] = c
	return c
}

func (r *run) toolEnd(ev *streaming.Event, at time.Time) {
	c := r.calls[ev.ID]
	if c == nil {
		c = r.toolStart(ev, at)
	}
	kv := append(c.head(r.t.attrs()), attribute.String("agentfmt.tool.status", r.t.name(string(ev.Status))))
	if ev.ExitCode != nil {
		kv = append(kv, attribute.Int("process.exit.code", *ev.ExitCode))
	}
	kv = appendEdits(kv, ev.Edits)
	if r.t.opts.Content {
		kv = r.t.content(kv, "gen_ai.tool.call.result", ev.Output)
	}
	switch ev.Status {
	case streaming.ToolError:
		what := "tool error"
		if ev.ExitCode != nil {
			what = "exit status " + itoa(*ev.ExitCode)
		}
		kv = append(kv, failure(c.span, "tool_error", what))
	case streaming.ToolIncomplete:
		kv = append(kv, attribute.String("agentfmt.incomplete", "the call never ended"))
	}
	c.end(r.t, at, "", kv)
	delete(r.calls, ev.ID)
}

// head appends the attributes of the call's start to kv.
func (c *call) head(kv []attribute.KeyValue) []attribute.KeyValue {
	kv = append(kv, semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName(c.name), semconv.GenAIToolCallID(c.id))
	return append(kv, c.extra...)
}

// end sets the call's attributes, kv (its head first), and ends its span
// and its subagent's; why says why a call that did not end ends here
// ("": it ended).
func (c *call) end(t *Trace, at time.Time, why string, kv []attribute.KeyValue) {
	if why != "" {
		kv = append(kv, attribute.String("agentfmt.incomplete", why))
	}
	t.set(c.span, kv)
	if c.sub != nil {
		t.end(c.sub, c.subStart, at)
	}
	t.end(c.span, c.start, at)
}

// chat records a model turn the stream marked with usage: a chat span
// from the turn's start (else the end of the last one) to now.
func (r *run) chat(ev *streaming.Event, at time.Time) {
	if ev.Usage == nil {
		return
	}
	ctx, tu := r.parent(ev.Parent, at)
	start := tu.start
	if !tu.started || start.Before(tu.last) {
		start = tu.last
	}
	if start.IsZero() || start.After(at) {
		start = at
	}
	tu.started, tu.last = false, at
	name := "chat"
	kv := append(r.t.attrs(), semconv.GenAIOperationNameChat)
	if r.model != "" {
		name = r.t.spanName("chat", r.model)
		kv = append(kv, semconv.GenAIRequestModel(r.model))
	}
	if r.provider != "" {
		kv = append(kv, semconv.GenAIProviderNameKey.String(r.provider))
	}
	kv = appendUsage(kv, ev.Usage)
	_, span := r.t.start(ctx, name, start, trace.SpanKindClient)
	r.t.set(span, kv)
	r.t.end(span, start, at)
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
		case containsFold(ev.Text, "compact"):
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
