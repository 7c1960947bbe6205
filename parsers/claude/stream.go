package claude

import (
	"slices"
	"strings"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/agentfmt/agentfmt/streaming"
)

// streamEvent handles a `stream_event` line (--include-partial-messages):
// a raw Messages-API streaming event. Block indexes are scoped to the
// message of the last message_start at the line's parent level.
func (p *parser) streamEvent(l *parsers.Line) error {
	ev := l.Get("event")
	parent := str(l.Get("parent_tool_use_id"))
	// One pass over the event for the fields its types read (the first of
	// each name, as gjson's Get finds it).
	var typRaw, indexRaw, deltaRaw, blockRaw, msgRaw, usageRaw string
	msgs := 0
	for f := l.FieldsOf(ev.Raw); f.Next(); {
		var dst *string
		switch f.Key {
		case "type":
			dst = &typRaw
		case "index":
			dst = &indexRaw
		case "delta":
			dst = &deltaRaw
		case "content_block":
			dst = &blockRaw
		case "message":
			dst = &msgRaw
			msgs++
		case "usage":
			dst = &usageRaw
		default:
			continue
		}
		if *dst == "" {
			*dst = f.Raw
		}
	}
	typ := textOf(l, typRaw)
	if typ == "content_block_delta" {
		return p.blockDelta(int(parsers.Value(indexRaw).Int()), deltaRaw, parent)
	}
	switch typ {
	case "message_start":
		var wire string
		if msgs > 1 {
			// The path goes on to a later "message" when the first has no id.
			wire = str(ev.Get("message.id"))
		} else {
			wire = str(l.Field(msgRaw, "id"))
		}
		if m := p.current(parent); m != nil {
			if m.streamed && m.wire == wire && wire != "" {
				return nil // repeated
			}
			if err := p.closeMessage(m); err != nil {
				return err
			}
		}
		m, err := p.openMessage(wire, parent, true)
		if err != nil {
			return err
		}
		m.blocks = map[int]*sblock{}
		return nil
	case "content_block_start":
		return p.blockStart(int(parsers.Value(indexRaw).Int()), blockRaw, parent)
	case "content_block_stop":
		m := p.current(parent)
		if m == nil || m.blocks == nil {
			return nil
		}
		b := m.blocks[int(parsers.Value(indexRaw).Int())]
		if b == nil || b.tool == "" {
			return nil
		}
		return p.startStreamedTool(b, parent)
	case "message_delta":
		if usageRaw == "" {
			return nil
		}
		usage := usageOf(l, usageRaw)
		p.out.Ev = streaming.Event{Kind: streaming.KindUsage, Usage: &usage, Parent: parent}
		if m := p.current(parent); m != nil {
			p.out.Ev.Message = m.id
		}
		return p.out.Push()
	case "message_stop":
		if m := p.current(parent); m != nil && m.streamed {
			return p.closeMessage(m)
		}
		return nil
	case "ping":
		return nil
	case "error":
		text := joinColon(ev.Get("error.type").String(), ev.Get("error.message").String())
		if text == "" {
			text = "stream error"
		}
		p.out.Ev = streaming.Event{Kind: streaming.KindError, Level: streaming.LevelWarning, Text: text}
		return p.out.Push()
	}
	return p.out.Unknown("stream_event."+typ, l.JSON)
}

// streamMessage returns the message stream events of a level belong to,
// opening one implicitly for a stream joined after its message_start.
func (p *parser) streamMessage(parent string) (*message, error) {
	m := p.current(parent)
	if m == nil {
		var err error
		if m, err = p.openMessage("", parent, true); err != nil {
			return nil, err
		}
	}
	if m.blocks == nil {
		m.blocks = map[int]*sblock{}
	}
	return m, nil
}

// blockStart handles a content_block_start: the block's index and the
// content block's JSON text (a part of the line).
func (p *parser) blockStart(idx int, cbRaw, parent string) error {
	m, err := p.streamMessage(parent)
	if err != nil {
		return err
	}
	cb := readBlock(p.line, cbRaw)
	typ := cb.str(cb.typ)
	b := &sblock{kind: strings.Clone(typ)}
	if old := m.blocks[idx]; old != nil && old.kind == typ {
		b = old // repeated start
	}
	m.blocks[idx] = b
	m.cur = idx
	switch kindOf(typ) {
	case partText:
		return p.streamText(streaming.KindTextDelta, m, b, idx, cb.str(cb.text))
	case partThinking:
		kind, text := streaming.KindThinkingDelta, cb.thinkingText(typ)
		if typ == "redacted_thinking" {
			return p.sendText(kind, m, idx, text, streaming.Final)
		}
		return p.streamText(kind, m, b, idx, text)
	case partToolUse:
		b.tool = strings.Clone(cb.str(cb.id))
		b.name = strings.Clone(cb.str(cb.name))
		if in := cb.input; in != "" && in[0] == '{' {
			// A non-empty object (gjson's Map has a key).
			if f := p.line.FieldsOf(in); f.Next() {
				b.input = strings.Clone(in)
			}
		}
		if b.tool == "" {
			b.tool = p.ids.Next("tool")
		}
		t := p.tool(b.tool)
		if t.name == "" {
			t.name = parsers.CleanToolName(b.name)
		}
		return nil
	case partServerResult:
		status, out := serverToolResult(p.line, parsers.Value(cb.content))
		return p.endTool(cb.str(cb.toolUseID), status, out, parent)
	}
	return nil
}

// blockDelta handles a content_block_delta: the block's index and the
// delta's JSON text.
func (p *parser) blockDelta(idx int, delta, parent string) error {
	m, err := p.streamMessage(parent)
	if err != nil {
		return err
	}
	var typRaw, textRaw, thinkingRaw, pjRaw string
	for f := p.line.FieldsOf(delta); f.Next(); {
		switch {
		case f.Key == "type" && typRaw == "":
			typRaw = f.Raw
		case f.Key == "text" && textRaw == "":
			textRaw = f.Raw
		case f.Key == "thinking" && thinkingRaw == "":
			thinkingRaw = f.Raw
		case f.Key == "partial_json" && pjRaw == "":
			pjRaw = f.Raw
		}
	}
	dtyp := textOf(p.line, typRaw)
	b := m.blocks[idx]
	if b == nil {
		// A delta without its content_block_start (stream joined mid-way).
		b = &sblock{kind: strings.Clone(deltaKind(dtyp))}
		m.blocks[idx] = b
		if m.cur < idx {
			m.cur = idx
		}
	}
	switch dtyp {
	case "text_delta":
		return p.streamText(streaming.KindTextDelta, m, b, idx, deltaText(p.line, textRaw, &b.hi))
	case "thinking_delta":
		return p.streamText(streaming.KindThinkingDelta, m, b, idx, deltaText(p.line, thinkingRaw, &b.hi))
	case "input_json_delta":
		if b.tool == "" {
			b.tool = p.ids.Next("tool")
		}
		t := p.tool(b.tool)
		if t.started || t.ended {
			return nil
		}
		// Decoded once, onto the input so far; the event's text is that
		// piece of it (the block only appends to it).
		n := len(b.json)
		if b.json = appendText(b.json, pjRaw); len(b.json) == n {
			return nil
		}
		p.out.Ev = streaming.Event{Kind: streaming.KindToolInputDelta, ID: t.id, Name: t.name,
			Text: view.String(b.json[n:]), Parent: parent}
		return p.out.Push()
	}
	// signature_delta, citations_delta and later kinds show nothing.
	return nil
}

// appendText appends the text of raw, a JSON value of the line, to b: a
// string decoded, anything else as gjson's String gives it.
func appendText(b []byte, raw string) []byte {
	if len(raw) < 2 || raw[0] != '"' {
		return append(b, parsers.Value(raw).String()...)
	}
	body := raw[1 : len(raw)-1]
	if strings.IndexByte(body, '\\') < 0 {
		return append(b, body...)
	}
	return jsonscan.AppendUnescaped(b, body)
}

// streamText sends a text or thinking delta of a streamed block.
func (p *parser) streamText(kind streaming.Kind, m *message, b *sblock, idx int, text string) error {
	if text == "" {
		return nil
	}
	return p.sendText(kind, m, idx, text, streaming.Delta)
}

// startStreamedTool starts a tool call from its assembled partial input
// (content_block_stop, or the end of the message or input).
func (p *parser) startStreamedTool(b *sblock, parent string) error {
	t := p.tool(b.tool)
	if t.started || t.ended {
		b.json = nil
		return nil
	}
	input := view.String(b.json) // the block's own: not appended to again
	b.json = nil
	switch {
	case input == "":
		input = b.input
		if input == "" {
			input = "{}"
		}
	case !jsonscan.ValidString(input):
		input = "" // cut off: the input deltas showed what came
	}
	return p.startTool(b.tool, b.name, input, parent)
}

// flushTools starts the tool calls of m whose input was still streaming.
func (p *parser) flushTools(m *message) error {
	if len(m.blocks) == 0 {
		return nil
	}
	idxs := make([]int, 0, len(m.blocks))
	for i, b := range m.blocks {
		if b.tool != "" {
			idxs = append(idxs, i)
		}
	}
	slices.Sort(idxs)
	for _, i := range idxs {
		if err := p.startStreamedTool(m.blocks[i], m.parent); err != nil {
			return err
		}
	}
	return nil
}

func deltaKind(dtyp string) string {
	switch dtyp {
	case "text_delta", "citations_delta":
		return "text"
	case "thinking_delta", "signature_delta":
		return "thinking"
	case "input_json_delta":
		return "tool_use"
	}
	return dtyp
}
