package opencode

import (
	"math"
	"time"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// parser is the state of one OpenCode stream.
type parser struct {
	out  parsers.Out    // its Time is the current line's
	part parsers.Object // the part of the line being read
	ids  parsers.IDs    // for parts that have none (sanitized logs)

	// The run: one sessionID.
	run     run
	started bool // a run has begun

	// The step being read.
	stepMsg   string // part.messageID of its step_start (or a generated id)
	inStep    bool   // between the step's start and its finish
	openMsg   string // stepMsg, once a part was sent to it in the step
	stepTools bool   // the step ran tools
}

// run is what the parser knows of the current run's outcome.
type run struct {
	session  string
	steps    int
	usage    streaming.Usage
	hasUsage bool
	over     parsers.StartsOver // opened at the run's first step

	firstTime time.Time // the first line's timestamp
	endTime   time.Time // the last line's timestamp

	terminal   bool   // the last step finished for a reason that ends the run
	termReason string // its finish reason

	failed  bool   // an error line was seen: the run fails (exit 1)
	failMsg string // the first error's text

	ended bool // the result was emitted
}

func newParser() *parser { return &parser{} }

// Parse handles one line.
func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.out.Emit = emit
	p.out.Time = parsers.TimeOf(l.Get("timestamp"))
	// The run's first step again: the log starts over (`cat run.jsonl
	// run.jsonl`), a run of its own (the session scopes identity to it).
	again := l.Str("type") == "step_start" && p.run.over.At(l.Path("part.messageID").Str)
	if err := p.session(l.Str("sessionID"), again); err != nil {
		return err
	}
	if !p.out.Time.IsZero() {
		if p.run.firstTime.IsZero() {
			p.run.firstTime = p.out.Time
		}
		p.run.endTime = p.out.Time
	}
	part := p.part.Reset(l.Get("part").Raw) // its fields, read once
	switch typ := l.Str("type"); typ {
	case "step_start":
		return p.stepStart(part)
	case "step_finish":
		return p.stepFinish(part)
	case "text":
		return p.text(part, streaming.KindTextDelta)
	case "reasoning":
		return p.text(part, streaming.KindThinkingDelta)
	case "tool_use":
		return p.toolUse(part)
	case "error":
		return p.errorLine(l.Get("error"))
	case "done":
		return p.done(l)
	default:
		return p.out.Unknown(typ, l.JSON)
	}
}

// Finish ends the run at the end of input (or before another agent's
// lines): a run whose last step finished with a final reason, or that
// reported an error, gets its result; any other run is left incomplete.
func (p *parser) Finish(emit parsers.Emit) error {
	p.out.Emit = emit
	return p.endRun()
}

// session begins a run at the first line, whenever the sessionID
// changes (logs of several runs concatenated), and when the run's first
// step comes again. OpenCode has no init line.
func (p *parser) session(id string, again bool) error {
	if p.started && !again && (id == "" || id == p.run.session) {
		return nil
	}
	if p.started {
		if err := p.endRun(); err != nil {
			return err
		}
	}
	p.started = true
	p.run = run{session: id}
	p.stepMsg, p.inStep = "", false
	e := p.out.New(streaming.KindSessionStart)
	e.SessionID = id
	return p.out.Push()
}

// endRun closes the open message and emits the run's result when the
// stream says how it ended.
func (p *parser) endRun() error {
	if err := p.closeMsg(); err != nil {
		return err
	}
	r := &p.run
	if r.ended || !(r.terminal || r.failed) {
		return nil
	}
	return p.result()
}

// result emits the run's result: failed when an error line was seen,
// else successful. It is emitted when the run is known to be over (done,
// another run, the end of input), so it carries the line that told.
func (p *parser) result() error {
	r := &p.run
	r.ended = true
	e := p.out.New(streaming.KindResult)
	e.OK = !r.failed
	if r.failed {
		e.Reason = r.failMsg
	} else {
		e.Reason = r.termReason
	}
	e.Turns = r.steps
	if !r.firstTime.IsZero() && r.endTime.After(r.firstTime) {
		e.DurationMS = r.endTime.Sub(r.firstTime).Milliseconds()
	}
	if r.hasUsage {
		u := r.usage
		u.CostUSD = math.Round(u.CostUSD*1e9) / 1e9 // sums of floats: 0.0006, not 0.0006000000000000001
		e.Usage = &u
	}
	return p.out.Push()
}
