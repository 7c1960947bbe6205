package claude

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// user handles a `user` frame: tool results (string or array content,
// images summarised) and prompt echoes (replays, Amp's echo, injected
// turns), which become user messages. The top-level tool_use_result
// repeats the result (and any image's base64): it is never read.
func (p *parser) user(l *parsers.Line) error {
	parent := str(l.Get("parent_tool_use_id"))
	// A user frame ends the assistant message of its level (without
	// partial messages; with them, message_stop does).
	if m := p.current(parent); m != nil && !m.streamed {
		if err := p.closeMessage(m); err != nil {
			return err
		}
	}
	contentRaw := l.FieldRaw(l.Get("message").Raw, "content")
	if contentRaw != "" && contentRaw[0] == '"' {
		return p.userText(parent, []string{textOf(l, contentRaw)})
	}
	content := parsers.Value(contentRaw)
	var texts []string
	for e := elements(l, content); e.Next(); {
		b := readBlock(l, e.Raw)
		switch k := kindOf(b.str(b.typ)); k {
		case partToolResult:
			if err := p.toolResult(&b, parent); err != nil {
				return err
			}
		case partText, partImage, partDocument:
			texts = append(texts, b.partText(k, e.Raw))
		}
	}
	return p.userText(parent, texts)
}

// userText shows texts as a user message.
func (p *parser) userText(parent string, texts []string) error {
	shown := false
	for _, t := range texts {
		if strings.TrimSpace(t) != "" {
			shown = true
		}
	}
	if !shown {
		return nil
	}
	// One copy of a subagent's parent for the message's events (the
	// decoder would copy it into each).
	m := parsers.Msg{ID: p.ids.Next("user"), Role: streaming.RoleUser, Parent: strings.Clone(parent)}
	return p.out.Blocks(m, texts...)
}

// toolResult ends a tool call from its tool_result block.
func (p *parser) toolResult(b *block, parent string) error {
	id, status, out := b.result()
	// The result of a Task/Agent call ends its subagent's message.
	if id != "" {
		if err := p.closeLevel(id); err != nil {
			return err
		}
	}
	return p.endTool(id, status, out, parent)
}
