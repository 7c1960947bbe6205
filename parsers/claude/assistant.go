package claude

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// redactedThinking is shown for a redacted_thinking block.
const redactedThinking = "‹redacted thinking›"

// assistant handles an `assistant` frame: usually one content block of
// the message message.id (one line per block), or the whole message
// (Amp, older CLIs). With partial messages the frame repeats what the
// stream events showed; its text goes to the session as a Final for the
// same block, which drops what was already shown.
func (p *parser) assistant(l *parsers.Line) error {
	parent := str(l.Get("parent_tool_use_id"))
	// One pass over the message for its id and content, up to the later
	// of them (usage and the rest are not read).
	var idRaw, contentRaw string
	for f := l.FieldsOf(l.Get("message").Raw); f.Next(); {
		switch {
		case f.Key == "id" && idRaw == "":
			idRaw = f.Raw
		case f.Key == "content" && contentRaw == "":
			contentRaw = f.Raw
		default:
			continue
		}
		if idRaw != "" && contentRaw != "" {
			break
		}
	}
	wire := str(parsers.Value(idRaw))
	if wire == "" && p.out.Agent == "" && strings.HasPrefix(l.Str("session_id"), "T-") {
		p.out.Agent = "amp"
	}
	content := parsers.Value(contentRaw)
	blocks := p.blocks[:0]
	if content.IsArray() {
		for e := l.ElementsOf(content.Raw); e.Next(); {
			blocks = append(blocks, e.Raw)
		}
	}
	p.blocks = blocks[:0]
	if len(blocks) > 0 || content.Type == gjson.String {
		m, err := p.frameMessage(wire, parent)
		if err != nil {
			return err
		}
		if content.Type == gjson.String {
			err = p.textBlock(m, "text", content.Str, p.frameIndex(m, "text", 0, 1))
		}
		for i, b := range blocks {
			if err != nil {
				break
			}
			err = p.block(m, b, i, len(blocks))
		}
		clear(blocks) // parts of this line: not kept
		if err != nil {
			return err
		}
	}
	// A synthetic API error frame (model "<synthetic>", top-level error).
	if e := l.Get("error"); e.Exists() && e.Type != gjson.Null && parent == "" {
		text := firstText(content)
		code := e.String()
		if e.IsObject() {
			code = e.Get("type").String()
			if text == "" {
				text = e.Get("message").String()
			}
		}
		p.apiErr = strings.Clone(joinColon(code, text))
		p.out.Ev = streaming.Event{Kind: streaming.KindError, Level: streaming.LevelWarning,
			Text: "API error: " + code}
		return p.out.Push()
	}
	return nil
}

// frameMessage returns the message an assistant frame belongs to,
// opening or switching messages as the frame's id says.
func (p *parser) frameMessage(wire, parent string) (*message, error) {
	m := p.current(parent)
	if m != nil && m.wire == wire {
		return m, nil
	}
	if m != nil && m.streamed && (m.wire == "" || wire == "") {
		// A stream whose message_start had no id (or a frame without one):
		// the frame repeats the message being streamed.
		if m.wire == "" {
			m.wire = strings.Clone(wire)
		}
		return m, nil
	}
	if d := p.last; d != nil && wire != "" && d.wire == wire && d.parent == parent {
		// A frame after its message_stop: same message, already stopped.
		return d, nil
	}
	if m != nil {
		if err := p.closeMessage(m); err != nil {
			return nil, err
		}
	}
	return p.openMessage(wire, parent, false)
}

// frameIndex is the block index of the i-th of n blocks of a frame. With
// partial messages it is the index of the content_block_start the frame
// belongs to; without, blocks are counted per message.
func (p *parser) frameIndex(m *message, kind string, i, n int) int {
	if m.streamed && m.cur >= 0 {
		if n > 1 {
			// The whole content array: positions are the indexes.
			if b := m.blocks[i]; b != nil {
				b.framed = true
			}
			return i
		}
		if b := m.blocks[m.cur]; b != nil && b.kind == kind && !b.framed {
			b.framed = true
			return m.cur
		}
		// Not the current block: the first started block of this kind
		// without a frame yet.
		best := -1
		for idx, b := range m.blocks {
			if b.kind == kind && !b.framed && (best < 0 || idx < best) {
				best = idx
			}
		}
		if best >= 0 {
			m.blocks[best].framed = true
			return best
		}
		// Every block of this kind has its frame: the frame repeats one,
		// the current block or else the last of its kind (the session
		// compares the texts).
		if b := m.blocks[m.cur]; b != nil && b.kind == kind {
			return m.cur
		}
		last := -1
		for idx, b := range m.blocks {
			if b.kind == kind && idx > last {
				last = idx
			}
		}
		if last >= 0 {
			return last
		}
	}
	idx := m.nblocks
	if m.streamed {
		// Never collide with streamed indexes.
		idx += 1 << 16
	}
	m.nblocks++
	return idx
}

// block handles one content block of an assistant frame (its JSON text).
func (p *parser) block(m *message, raw string, i, n int) error {
	b := readBlock(p.line, raw)
	typ := b.str(b.typ)
	switch k := kindOf(typ); k {
	case partText:
		return p.textBlock(m, typ, b.str(b.text), p.frameIndex(m, typ, i, n))
	case partThinking:
		return p.textBlock(m, typ, b.thinkingText(typ), p.frameIndex(m, typ, i, n))
	case partToolUse:
		p.frameIndex(m, typ, i, n)
		return p.startTool(b.str(b.id), b.str(b.name), inputOf(parsers.Value(b.input)), m.parent)
	case partServerResult:
		if !m.streamed {
			m.nblocks++
		}
		status, out := serverToolResult(p.line, parsers.Value(b.content))
		return p.endTool(b.str(b.toolUseID), status, out, m.parent)
	}
	if !m.streamed {
		m.nblocks++
	}
	return p.out.Unknown("assistant."+typ, raw)
}

// textBlock sends a text or thinking block of a frame as a Final.
func (p *parser) textBlock(m *message, typ, text string, idx int) error {
	if typ == "text" && m.parent == "" {
		p.noteAPIError(text)
	}
	if text == "" {
		return nil
	}
	kind := streaming.KindTextDelta
	if typ != "text" {
		kind = streaming.KindThinkingDelta
	}
	// A frame after its message_stop is sent all the same: the session
	// drops a block the message showed and shows one it did not.
	return p.sendText(kind, m, idx, text, streaming.Final)
}

// sendText emits a text or thinking event of a block.
func (p *parser) sendText(kind streaming.Kind, m *message, idx int, text string, mode streaming.Mode) error {
	return p.out.Text(m.msg(), kind, idx, text, mode)
}

// noteAPIError keeps Qwen's "[API Error: …]" answer text: the run failed
// even if its result says success (QwenLM/qwen-code#8920). Later text
// means the run went on.
func (p *parser) noteAPIError(text string) {
	t := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(t, "[API Error"):
		p.apiErr = strings.Clone(strings.TrimSuffix(strings.TrimPrefix(t, "["), "]"))
	case t != "":
		p.apiErr = ""
	}
}

// inputOf is a tool input as JSON text.
func inputOf(v gjson.Result) string {
	if !v.Exists() || v.Type == gjson.Null {
		return ""
	}
	return v.Raw
}

// firstText returns the first text block of a content value.
func firstText(content gjson.Result) string {
	if content.Type == gjson.String {
		return content.Str
	}
	for _, b := range content.Array() {
		if b.Get("type").String() == "text" {
			return b.Get("text").String()
		}
	}
	return ""
}

func joinColon(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + ": " + b
}
