package acp

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// message is an open run of chunks of one kind.
type message struct {
	id     string // event message id (generated)
	kind   entry  // entAgent, entThought or entUser
	wireID string // messageId from the wire, when the agent gives one
	block  int    // the block its chunks go to

	// restates is the id of the message its chunks may repeat: the one
	// before it, when it began under a new messageId right after it
	// (claude-agent-acp restates what it streamed so), or itself, for the
	// agent's echo of the client's prompt. Its chunks go to the session
	// as a restatement, which shows what is not a repetition. The message
	// restated is kept open (prev) until this one stops.
	restates string
	prev     *message
}

func (k entry) eventKind() streaming.Kind {
	if k == entThought {
		return streaming.KindThinkingDelta
	}
	return streaming.KindTextDelta
}

func (k entry) role() string {
	if k == entUser {
		return streaming.RoleUser
	}
	return streaming.RoleAssistant
}

func (k entry) prefix() string {
	switch k {
	case entThought:
		return "thought"
	case entUser:
		return "user"
	}
	return "msg"
}

// chunk handles user_message_chunk, agent_message_chunk and
// agent_thought_chunk (docs/formats/acp.md, "Chunks"):
//   - it appends to the open message only if the last entry is that
//     message (same kind); otherwise it starts a new message;
//   - a run of chunks under a new messageId right after a message of the
//     same kind may be the agent restating that message (claude-agent-acp)
//     or a message of its own: the session tells (a restatement of the
//     message, whose new text goes to a block of its own); so is the
//     agent's echo of the prompt the client sent;
//   - any other chunk is a delta, handed to the session as it came: the
//     session alone decides whether it is a cumulative snapshot
//     (streaming.SnapshotMinBytes). No overlap guessing.
func (p *parser) chunk(l *parsers.Line, kind entry, u *parsers.Object) error {
	if err := p.ensureRun(); err != nil {
		return err
	}
	text := chunkText(u.Get("content"))
	wireID := u.Get("messageId").String()
	m := p.msg
	switch {
	case m == nil || m.kind != kind || p.last != kind:
		if err := p.openMsg(l, kind, wireID); err != nil {
			return err
		}
		m = p.msg
	case wireID != "" && m.wireID != "" && wireID != m.wireID:
		// A new message, or the one before restated: the session tells.
		if err := p.stopMsg(m.prev); err != nil {
			return err
		}
		m.prev = nil
		if err := p.startMsg(l, kind, wireID); err != nil {
			return err
		}
		p.msg.restates, p.msg.prev = m.id, m
		m = p.msg
	case m.wireID == "":
		m.wireID = wireID
	}
	if text == "" {
		return nil
	}
	if m.restates != "" {
		return p.emitChunk(m, streaming.Restate, text)
	}
	return p.emitChunk(m, streaming.Delta, text)
}

func (p *parser) emitChunk(m *message, mode streaming.Mode, text string) error {
	ev := p.out.New(m.kind.eventKind())
	ev.Message, ev.Role, ev.Block, ev.Text = m.id, m.kind.role(), m.block, text
	if mode == streaming.Restate {
		ev.Restates = m.restates
	}
	return p.out.Send(mode)
}

// msg names m for the kit.
func (m *message) msg() parsers.Msg { return parsers.Msg{ID: m.id, Role: m.kind.role()} }

// openMsg closes the open message and starts a new one.
func (p *parser) openMsg(l *parsers.Line, kind entry, wireID string) error {
	if err := p.closeMsg(); err != nil {
		return err
	}
	return p.startMsg(l, kind, wireID)
}

// startMsg starts a message, which becomes the open one.
func (p *parser) startMsg(l *parsers.Line, kind entry, wireID string) error {
	p.msg = &message{id: p.ids.At(kind.prefix(), l.N), kind: kind, wireID: wireID}
	p.last = kind
	return p.out.Start(p.msg.msg())
}

// closeMsg stops the open message, and the message it may restate.
func (p *parser) closeMsg() error {
	m := p.msg
	if m == nil {
		return nil
	}
	p.msg = nil
	if err := p.stopMsg(m); err != nil {
		return err
	}
	return p.stopMsg(m.prev)
}

func (p *parser) stopMsg(m *message) error {
	if m == nil {
		return nil
	}
	return p.out.Stop(m.msg())
}

// prompt shows the client's session/prompt as a user message, left open:
// the agent's echo of it (user_message_chunk) is a restatement of it,
// which the session shows only where it differs.
func (p *parser) prompt(l *parsers.Line) error {
	text := blocksText(l.Path("params.prompt"))
	if err := p.openMsg(l, entUser, ""); err != nil {
		return err
	}
	if text == "" {
		return nil
	}
	if err := p.emitChunk(p.msg, streaming.Final, text); err != nil {
		return err
	}
	p.msg.block, p.msg.restates = 1, p.msg.id
	return nil
}

// chunkText is a chunk's content: one block, or (tolerated) an array of
// blocks run together.
func chunkText(c gjson.Result) string {
	if !c.IsArray() {
		return blockText(c)
	}
	var b strings.Builder
	c.ForEach(func(_, it gjson.Result) bool {
		b.WriteString(blockText(it))
		return true
	})
	return b.String()
}

// blocksText renders an array of content blocks, one per paragraph.
func blocksText(bs gjson.Result) string {
	if !bs.IsArray() {
		return blockText(bs)
	}
	var parts []string
	bs.ForEach(func(_, b gjson.Result) bool {
		if t := blockText(b); t != "" {
			parts = append(parts, t)
		}
		return true
	})
	return strings.Join(parts, "\n\n")
}

// blockText renders one ContentBlock: text as it is, media as
// a summary, resources by their URI — never base64.
func blockText(b gjson.Result) string {
	if b.Type == gjson.String {
		return b.Str
	}
	switch b.Get("type").Str {
	case "text", "":
		return b.Get("text").Str
	case "image", "audio":
		mt := b.Get("mimeType").Str
		if mt == "" {
			mt = b.Get("type").Str
		}
		if d := b.Get("data").Str; d != "" {
			return parsers.ImageSummary(mt, len(d))
		}
		if u := b.Get("uri").Str; u != "" {
			return "‹" + mt + " " + u + "›"
		}
		return "‹" + mt + "›"
	case "resource_link":
		name := b.Get("title").Str
		if name == "" {
			name = b.Get("name").Str
		}
		return "‹" + name + " " + b.Get("uri").Str + "›"
	case "resource":
		r := b.Get("resource")
		if r.Get("blob").Exists() {
			return "‹" + r.Get("uri").Str + " " + parsers.ImageSummary(r.Get("mimeType").Str, len(r.Get("blob").Str)) + "›"
		}
		return "‹" + r.Get("uri").Str + "›"
	}
	if t := b.Get("text"); t.Type == gjson.String {
		return t.Str
	}
	return ""
}
