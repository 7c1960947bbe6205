package claude

import (
	"slices"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// memoryCap bounds the maps the parser keeps within a run (tool calls,
// permission requests, progress), so that an endless run stays in
// constant memory.
//
// Strings the parser keeps beyond the line they came from (ids, names,
// in these maps and in the messages and tools they hold) are copies: a
// substring of a line keeps the whole line in memory, and thousands of
// kept ids would keep thousands of lines.
const memoryCap = 4096

// message is an assistant message being shown: one per parent level
// (top level, or one per running subagent).
type message struct {
	wire     string // message.id on the wire ("" for Amp)
	id       string // the id events carry (wire, or a generated one)
	parent   string // parent_tool_use_id
	streamed bool   // opened by a stream_event message_start
	nblocks  int    // blocks counted so far (frames without partials)
	cur      int    // index of the last content_block_start, -1 none
	blocks   map[int]*sblock
}

// msg names m for the kit.
func (m *message) msg() parsers.Msg {
	return parsers.Msg{ID: m.id, Role: streaming.RoleAssistant, Parent: m.parent}
}

// sblock is a content block of a streamed message.
type sblock struct {
	kind   string // text, thinking, tool_use, …
	framed bool   // its assistant frame arrived
	tool   string // tool_use id (wire)
	name   string // tool name
	input  string // input given at content_block_start, when not {}
	json   []byte // input_json_delta fragments, decoded
	hi     rune   // a surrogate half ending the last delta (see deltaText)
}

// tool is a tool call of the current run.
type tool struct {
	id      string // the id events carry
	name    string
	parent  string
	started bool
	ended   bool
}

type parser struct {
	out parsers.Out // its Agent is "", "qwen" or "amp": stamped on every event
	ids parsers.IDs

	open     []*message        // open assistant messages, one per parent level
	last     *message          // the streamed message stopped last: a late frame of it maps to its blocks
	tools    map[string]*tool  // tool calls of this run, by wire id
	perms    map[string]string // control_request id → tool name (can_use_tool)
	progress map[string]int64  // tool_progress: elapsed seconds last shown per tool
	apiErr   string            // top-level API error text of this run (Qwen's "[API Error: …]")
	blocks   []string          // scratch: the content blocks of a frame
	line     *parsers.Line     // the line being parsed (nil outside Parse)
	names    []string          // scratch: tool names of an init line

	// Why a run begins (docs/formats/claude.md), said once as a
	// status line of the run.
	cleared     string // the session a /clear ended (conversation_reset), said with the next init
	resetSeen   bool   // a conversation_reset is waiting for its init
	afterResult bool   // a result ended the last run and no init came since
	taskNote    string // a task notification after that result: the next run is its turn
	autoSaid    bool   // the current run was said to be started by a task notification
	origin      string // what began the current run, when no prompt did (Event.Origin)

	// Two runs written to one pipe at once (see mixedSessions).
	sid     string   // the current run's session id
	earlier []string // the session ids of the runs before it (the last few)
	mixed   bool     // said
}

func newParser() *parser {
	return &parser{
		tools:    map[string]*tool{},
		perms:    map[string]string{},
		progress: map[string]int64{},
	}
}

// Parse turns one line into events.
func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.out.Emit = emit
	p.line = l
	typ := l.Str("type")
	if err := p.mixedSessions(l, typ); err != nil {
		return err
	}
	if p.resetSeen && !(typ == "system" && l.Str("subtype") == "init") {
		// A /clear whose new init does not follow: said where it came.
		if err := p.sayCleared(); err != nil {
			return err
		}
	}
	switch typ {
	case "system":
		return p.system(l)
	case "assistant":
		return p.assistant(l)
	case "user":
		return p.user(l)
	case "result":
		return p.result(l)
	case "stream_event":
		return p.streamEvent(l)
	case "rate_limit_event":
		return p.rateLimit(l)
	case "control_request":
		return p.controlRequest(l)
	case "control_response":
		return p.controlResponse(l)
	case "tool_progress":
		return p.toolProgress(l)
	case "conversation_reset":
		return p.conversationReset(l)
	case "command_lifecycle":
		return p.commandLifecycle(l)
	}
	return p.out.Unknown(l.Str("type"), l.JSON)
}

// Finish starts the tool calls whose input was still streaming, so that
// the session shows them (as incomplete) at the end of the input.
func (p *parser) Finish(emit parsers.Emit) error {
	p.out.Emit = emit
	p.line = nil
	if p.resetSeen {
		if err := p.sayCleared(); err != nil {
			return err
		}
	}
	for _, m := range p.open {
		if err := p.flushTools(m); err != nil {
			return err
		}
	}
	return nil
}

// current returns the open message of a parent level.
func (p *parser) current(parent string) *message {
	for _, m := range p.open {
		if m.parent == parent {
			return m
		}
	}
	return nil
}

// openMessage starts an assistant message under its wire id (identity
// is scoped to the run by the session), or a generated one (Amp).
func (p *parser) openMessage(wire, parent string, streamed bool) (*message, error) {
	wire, parent = strings.Clone(wire), strings.Clone(parent)
	id := wire
	if wire == "" {
		id = p.ids.Next("turn")
	}
	m := &message{wire: wire, id: id, parent: parent, streamed: streamed, cur: -1}
	return m, p.start(m)
}

// start makes m the open message of its level.
func (p *parser) start(m *message) error {
	p.open = append(p.open, m)
	return p.out.Start(m.msg())
}

// closeMessage stops m.
func (p *parser) closeMessage(m *message) error {
	for i, o := range p.open {
		if o == m {
			p.open = append(p.open[:i], p.open[i+1:]...)
			break
		}
	}
	if err := p.flushTools(m); err != nil {
		return err
	}
	for _, b := range m.blocks {
		b.input = "" // its tool has started: not needed by a late frame
	}
	if m.streamed && m.wire != "" {
		p.last = m
	}
	return p.out.Stop(m.msg())
}

// closeLevel stops the open message of a parent level, if any.
func (p *parser) closeLevel(parent string) error {
	if m := p.current(parent); m != nil {
		return p.closeMessage(m)
	}
	return nil
}

// closeAll stops every open message (a result, a new run).
func (p *parser) closeAll() error {
	for len(p.open) > 0 {
		if err := p.closeMessage(p.open[0]); err != nil {
			return err
		}
	}
	return nil
}

// newRun forgets the state of the previous run.
func (p *parser) newRun() {
	p.last = nil
	clear(p.tools)
	clear(p.perms)
	clear(p.progress)
	p.apiErr = ""
}

// tool returns the tool call with a wire id, creating it.
func (p *parser) tool(wire string) *tool {
	if t := p.tools[wire]; t != nil {
		return t
	}
	wire = strings.Clone(wire)
	id := wire
	if id == "" {
		id = p.ids.Next("tool")
	}
	t := &tool{id: id}
	if len(p.tools) >= memoryCap {
		clear(p.tools)
	}
	p.tools[wire] = t
	return t
}

// startTool emits tool.start once per call, when its input is known.
func (p *parser) startTool(wire, name, input, parent string) error {
	t := p.tool(wire)
	if t.started || t.ended {
		return nil
	}
	t.started = true
	if name != "" {
		t.name = strings.Clone(parsers.CleanToolName(name))
	}
	t.parent = strings.Clone(parent)
	// t.parent is parent, owned: the decoder need not copy it.
	title := callTitle(p.line, t.name, input)
	p.out.Ev = streaming.Event{Kind: streaming.KindToolStart, ID: t.id, Name: t.name,
		Input: input, Title: title, Parent: t.parent}
	if err := p.out.Push(); err != nil {
		return err
	}
	return todoPlan(&p.out, t.id, t.name, input, t.parent)
}

// endTool emits tool.end once per call.
func (p *parser) endTool(wire string, status streaming.ToolStatus, output, parent string) error {
	t := p.tool(wire)
	if t.ended {
		return nil
	}
	t.ended = true
	if t.parent != "" {
		parent = t.parent
	}
	p.out.Ev = streaming.Event{Kind: streaming.KindToolEnd, ID: t.id, Name: t.name,
		Status: status, Output: output, Display: display(output), Parent: parent}
	return p.out.Push()
}

// toolTitle is the human description Claude gives some calls (Bash,
// Task/Agent: input.description).
// input is valid JSON (a part of l, or the parser's own text): its
// fields are read in one pass, as gjson.Get(input, "description") would.
func toolTitle(l *parsers.Line, input string) string {
	if input == "" || input[0] != '{' {
		return ""
	}
	if d := fieldsLine(l).FieldRaw(input, "description"); d != "" && d[0] == '"' {
		return oneLine(textOf(l, d))
	}
	return ""
}

// str returns a string value ("" for anything else).
func str(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Str
	}
	return ""
}

// usageOf reads Anthropic-style usage fields from obj, the JSON text of
// a usage object (a part of l), in one pass: the first of each name, as
// gjson's Get finds it, read as gjson's Int reads it. Anything but an
// object has none.
func usageOf(l *parsers.Line, obj string) streaming.Usage {
	var u streaming.Usage
	var seen uint8
	for f := fieldsLine(l).FieldsOf(obj); f.Next(); {
		var dst *int64
		var bit uint8
		switch f.Key {
		case "input_tokens":
			dst, bit = &u.InputTokens, 1
		case "output_tokens":
			dst, bit = &u.OutputTokens, 2
		case "cache_read_input_tokens":
			dst, bit = &u.CacheReadTokens, 4
		case "cache_creation_input_tokens":
			dst, bit = &u.CacheWriteTokens, 8
		default:
			continue
		}
		if seen&bit == 0 {
			seen |= bit
			*dst = parsers.Value(f.Raw).Int()
			if seen == 15 {
				break // all four (they come first): the rest is not read
			}
		}
	}
	return u
}

// textOf is the JSON value raw (a part of l, which may be nil) as gjson's
// String gives it: a string without escapes is a part of raw, a long one
// with escapes may be decoded into the line's scratch space (see
// parsers.Line.Text). Either is only valid while the line is parsed, and
// the parser copies what it keeps.
func textOf(l *parsers.Line, raw string) string {
	return fieldsLine(l).Text(raw)
}

// mixedSessions says, once, that the stream holds two runs written at
// once (two claude -p writing to one pipe): a line of a run that an init
// of another ended comes again. Their events cannot be told apart where
// the wire gives no message id (stream events), so their text may show
// twice or not at all. A session id that changes for good (/clear, a new
// run) is no mix.
func (p *parser) mixedSessions(l *parsers.Line, typ string) error {
	sid := l.Str("session_id")
	if sid == "" || sid == p.sid {
		return nil
	}
	if typ == "system" && l.Str("subtype") == "init" {
		if p.sid != "" {
			if len(p.earlier) == 8 {
				p.earlier = p.earlier[1:]
			}
			p.earlier = append(p.earlier, p.sid)
		}
		p.sid = strings.Clone(sid)
		return nil
	}
	if p.mixed || p.sid == "" || !slices.Contains(p.earlier, sid) {
		return nil
	}
	p.mixed = true
	return p.out.Status("this stream holds two sessions written at once ("+sid+" and "+p.sid+
		"): their events are mixed, and text may show twice or not at all; render each session's lines on their own",
		streaming.LevelWarning)
}
