package otlp

import (
	"context"
	"slices"
	"time"

	"github.com/agentfmt/agentfmt/streaming"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
)

// Options say what a Trace records and where its runs hang.
type Options struct {
	// Content records prompts, answers, tool arguments and results (they
	// may hold secrets: off unless asked for), each cut to MaxContent
	// bytes.
	Content    bool
	MaxContent int
	// Parent is the context the runs are children of (an incoming
	// TRACEPARENT, see Extract); nil: each run is a trace of its own.
	Parent context.Context
	// Stream is the stream's tag when several are followed at once.
	Stream string
	// Now is the clock for events that carry no time of their own (nil:
	// time.Now).
	Now func() time.Time
}

// DefaultMaxContent is how many bytes of one prompt, answer, tool input
// or output a span holds with Options.Content.
const DefaultMaxContent = 8 << 10

// Trace turns the events of one stream into spans. It is a
// streaming.Handler placed beside the renderer; Handle never fails, so
// tracing never changes what is rendered. Close ends what is still open.
type Trace struct {
	tracer trace.Tracer
	opts   Options
	run    *run
	// names are the names a stream repeats (agents, models, tools, statuses),
	// each kept once; spanNames the span names made of them.
	names     map[string]string
	spanNames map[[2]string]string
	// kv is where a span's attributes are gathered before they are set
	// (the SDK copies them): one slice for all.
	kv []attribute.KeyValue
	// runKV is the same for the run's span, gathered as the run goes
	// (runs of one stream do not overlap).
	runKV []attribute.KeyValue
	// startOpts and endOpts hold the options of Start and End (see start).
	startOpts [2]trace.SpanStartOption
	endOpts   [1]trace.SpanEndOption
	// last is the latest time the stream gave: events without one that
	// come after it (those made at the end of the input) take it, so a
	// replayed session keeps its own times throughout.
	last time.Time
}

// New returns a Trace that starts its spans with tracer.
func New(tracer trace.Tracer, opts Options) *Trace {
	if opts.Parent == nil {
		opts.Parent = context.Background()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxContent <= 0 {
		opts.MaxContent = DefaultMaxContent
	}
	return &Trace{tracer: tracer, opts: opts}
}

// maxNames bounds Trace.names: past it, names are copied each time.
const maxNames = 4096

// name is clean(s), kept once: the name of an agent, model, tool or status.
func (t *Trace) name(s string) string {
	if n, ok := t.names[s]; ok {
		return n
	}
	n := clean(s)
	if len(t.names) < maxNames {
		if t.names == nil {
			t.names = map[string]string{}
		}
		t.names[n] = n
	}
	return n
}

// spanName is op+" "+name, kept once.
func (t *Trace) spanName(op, name string) string {
	k := [2]string{op, name}
	if n, ok := t.spanNames[k]; ok {
		return n
	}
	n := op + " " + name
	if len(t.spanNames) < maxNames {
		if t.spanNames == nil {
			t.spanNames = map[[2]string]string{}
		}
		t.spanNames[k] = n
	}
	return n
}

// start starts a span at at, its attributes to be set in one call (see
// attrs): those given to Start are copied twice. The options' slice is
// the Trace's (the SDK reads it during the call only).
func (t *Trace) start(ctx context.Context, name string, at time.Time, kind trace.SpanKind) (context.Context, trace.Span) {
	opts := append(t.startOpts[:0], trace.WithTimestamp(at))
	if kind != trace.SpanKindInternal { // (the SDK's kind when none is given)
		opts = append(opts, trace.WithSpanKind(kind))
	}
	ctx, span := t.tracer.Start(ctx, name, opts...)
	clear(opts)
	return ctx, span
}

// end ends span, begun at start, at at: at start when at is earlier (a
// transcript's times need not rise).
func (t *Trace) end(span trace.Span, start, at time.Time) {
	if at.Before(start) {
		at = start
	}
	t.endOpts[0] = trace.WithTimestamp(at)
	span.End(t.endOpts[:]...)
	t.endOpts[0] = nil
}

// attrs returns the slice to gather a span's attributes in; set hands
// them to the span and takes the slice back.
func (t *Trace) attrs() []attribute.KeyValue { return t.kv[:0] }

func (t *Trace) set(span trace.Span, kv []attribute.KeyValue) {
	if len(kv) > 0 {
		span.SetAttributes(kv...)
	}
	clear(kv)
	t.kv = kv[:0]
}

// at is the time of ev: its own, else the last the stream gave, else now.
func (t *Trace) at(ev *streaming.Event) time.Time {
	if !ev.Time.IsZero() {
		if ev.Time.After(t.last) {
			t.last = ev.Time
		}
		return ev.Time
	}
	if !t.last.IsZero() {
		return t.last
	}
	return t.opts.Now()
}

// Begin starts a run's span now, before any of its events (agentfmt run
// starts it as it starts the agent), and returns its context: the agent
// is handed its TRACEPARENT (Inject). The first session.start fills it in
// instead of beginning another run.
func (t *Trace) Begin(agent string) context.Context {
	if t.run == nil {
		t.begin(agent, t.opts.Now())
	}
	return t.run.ctx
}

// Handle records ev. It never returns an error.
func (t *Trace) Handle(ev *streaming.Event) error {
	switch ev.Kind {
	case streaming.KindRaw, streaming.KindStderr, streaming.KindNotice, streaming.KindUnknown,
		streaming.KindTextRevision, streaming.KindThinkingDelta, streaming.KindThinkingRevision,
		streaming.KindBlockStop, streaming.KindTextSentence, streaming.KindToolInputDelta, streaming.KindToolOutputDelta:
		return nil // (nothing of a span; and no run begins with them)
	case streaming.KindTextDelta:
		if !t.opts.Content || ev.Role != streaming.RoleUser || ev.Parent != "" {
			return nil
		}
	}
	at := t.at(ev)
	if ev.Kind == streaming.KindSessionStart {
		if t.run != nil && t.run.begun {
			t.endRun(at, "a new run began")
		}
		if t.run == nil {
			t.begin(ev.Agent, at)
		}
		t.run.sessionStart(ev)
		return nil
	}
	if t.run == nil {
		t.begin(ev.Agent, at)
	}
	r := t.run
	switch ev.Kind {
	case streaming.KindTextDelta:
		r.prompt.add(ev.Text)
	case streaming.KindMessageStart:
		if ev.Role != streaming.RoleUser {
			tu := r.turnsOf(ev.Parent)
			tu.start, tu.started = at, true
		}
	case streaming.KindToolStart:
		r.toolStart(ev, at)
	case streaming.KindToolEnd:
		r.toolEnd(ev, at)
	case streaming.KindUsage:
		r.chat(ev, at)
	case streaming.KindResult:
		r.result(ev)
		t.endRun(at, "")
	default:
		r.spanEvent(ev, at)
	}
	return nil
}

// Close ends the run left open at the end of the input (or of the
// command), and every span in it, with an unset status and why.
func (t *Trace) Close(why string) {
	if t.run != nil {
		t.endRun(t.closeTime(), why)
	}
}

// closeTime is when what is open ends: the stream's last time, or now.
func (t *Trace) closeTime() time.Time {
	if !t.last.IsZero() {
		return t.last
	}
	return t.opts.Now()
}

func (t *Trace) begin(agent string, at time.Time) {
	agent = t.name(agent)
	if agent == "" {
		agent = "agent"
	}
	kv := append(t.runKV[:0], semconv.GenAIOperationNameInvokeAgent, semconv.GenAIAgentName(agent))
	t.runKV = nil
	if t.opts.Stream != "" {
		kv = append(kv, attribute.String("agentfmt.stream", clean(t.opts.Stream)))
	}
	ctx, span := t.start(t.opts.Parent, t.spanName("invoke_agent", agent), at, trace.SpanKindInternal)
	t.run = &run{t: t, ctx: ctx, span: span, start: at, agent: agent, provider: provider(agent, ""), attrs: kv,
		prompt: bounded{max: t.opts.MaxContent}}
	t.run.turns.last = at
}

// endRun ends the run: what is open in it first, unset, with why ("":
// the run's result came).
func (t *Trace) endRun(at time.Time, why string) {
	r := t.run
	t.run = nil
	open := make([]*call, 0, len(r.calls))
	for _, c := range r.calls {
		open = append(open, c)
	}
	slices.SortFunc(open, func(a, b *call) int { return a.seq - b.seq })
	callWhy := why
	if callWhy == "" {
		callWhy = "the run ended before the call"
	}
	for _, c := range open {
		c.end(t, at, callWhy, c.head(t.attrs()))
	}
	r.calls = nil
	if why != "" && !r.resulted {
		r.attrs = append(r.attrs, attribute.String("agentfmt.incomplete", why))
	}
	r.finish()
	t.end(r.span, r.start, at)
	clear(r.attrs)
	t.runKV = r.attrs[:0]
}

// failure marks span failed with what, and returns its error.type: a
// short word of the agent's (error_max_turns) as it is, anything else
// kind.
func failure(span trace.Span, kind, what string) attribute.KeyValue {
	typ := kind
	if what != "" && len(what) <= 64 && !containsSpace(what) {
		typ = what
	}
	span.SetStatus(codes.Error, clean(what))
	return semconv.ErrorTypeKey.String(clean(typ))
}

func containsSpace(s string) bool {
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' {
			return true
		}
	}
	return false
}
