package acp

import (
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// message is an open run of chunks of one kind.
type message struct {
	id     string           // event message id (generated)
	kind   entry            // entAgent, entThought or entUser
	wireID string           // messageId from the wire, when the agent gives one
	text   parsers.TextHash // the message's text, by hash: the session keeps it

	// A user message opened by the client's session/prompt request: the
	// agent's user_message_chunk echo of it is compared, not appended.
	prompt bool
	echo   string
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
// agent_thought_chunk (seed 003 rules 1 and 9, acp.md §8):
//   - it appends to the open message only if the last entry is that
//     message (same kind) and its messageId, when both have one, is the
//     same; otherwise it starts a new message;
//   - a chunk that restates the message just streamed under a new
//     messageId (claude-agent-acp) is not shown again;
//   - any other chunk is a delta, handed to the session as it came: the
//     session alone decides whether it is a cumulative snapshot
//     (DESIGN §4 rule 3). No overlap guessing.
func (p *parser) chunk(l *parsers.Line, kind entry, u *parsers.Object, emit parsers.Emit) error {
	if err := p.ensureRun(emit); err != nil {
		return err
	}
	text := chunkText(u.Get("content"))
	wireID := u.Get("messageId").String()
	m := p.msg
	if m != nil && m.kind == kind && p.last == kind {
		if wireID != "" && m.wireID != "" && wireID != m.wireID {
			if restates(&m.text, text) {
				// A consolidated restatement of the message just streamed
				// under another id.
				return nil
			}
			m = nil
		}
	} else {
		m = nil
	}
	if m == nil {
		if err := p.openMsg(l, kind, wireID, emit); err != nil {
			return err
		}
		m = p.msg
	}
	if m.wireID == "" {
		m.wireID = wireID
	}
	if text == "" {
		return nil
	}
	if m.prompt {
		// The agent echoing the prompt the client sent: the session shows
		// only what the echo adds to it.
		if len(text) > len(m.echo) && strings.HasPrefix(text, m.echo) && m.echo != "" {
			m.echo = text
		} else {
			m.echo += text
		}
		return p.emitChunk(m, streaming.Snapshot, m.echo, emit)
	}
	m.text.Add(text)
	return p.emitChunk(m, streaming.Delta, text, emit)
}

// restates reports whether text is the message's text again (white space
// around either aside).
func restates(h *parsers.TextHash, text string) bool {
	t := strings.TrimSpace(text)
	return t != "" && h.TrimmedIs(t)
}

func (p *parser) emitChunk(m *message, mode streaming.Mode, text string, emit parsers.Emit) error {
	ev := p.reset(m.kind.eventKind())
	ev.Message, ev.Role, ev.Text = m.id, m.kind.role(), text
	return parsers.Send(emit, mode, ev)
}

func (p *parser) openMsg(l *parsers.Line, kind entry, wireID string, emit parsers.Emit) error {
	if err := p.closeMsg(emit); err != nil {
		return err
	}
	p.msg = &message{id: p.newID(kind.prefix(), l.N), kind: kind, wireID: wireID}
	p.last = kind
	ev := p.reset(streaming.KindMessageStart)
	ev.Message, ev.Role = p.msg.id, kind.role()
	return emit.Push(ev)
}

func (p *parser) closeMsg(emit parsers.Emit) error {
	m := p.msg
	if m == nil {
		return nil
	}
	p.msg = nil
	ev := p.reset(streaming.KindMessageStop)
	ev.Message, ev.Role = m.id, m.kind.role()
	return emit.Push(ev)
}

// prompt shows the client's session/prompt as a user message, left open
// so that the agent's echo of it (user_message_chunk) is not shown twice.
func (p *parser) prompt(l *parsers.Line, emit parsers.Emit) error {
	text := blocksText(l.Path("params.prompt"))
	if err := p.openMsg(l, entUser, "", emit); err != nil {
		return err
	}
	p.msg.prompt = true
	if text == "" {
		return nil
	}
	return p.emitChunk(p.msg, streaming.Final, text, emit)
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

// blockText renders one ContentBlock (acp.md §5): text as it is, media as
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
