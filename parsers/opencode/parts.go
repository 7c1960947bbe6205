package opencode

import (
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// seenPart is a text or reasoning part already shown.
type seenPart struct {
	msg   string
	block int
	text  string
}

// text handles a text or reasoning part. OpenCode writes each part once,
// complete, when it ends: it is sent as a Final block identified by its
// message and part id. A part written again (the server can update a part
// more than once) is dropped when it is the same, and sent to its block
// again, for the session to show only what changed, while its message is
// open. The last text part of the run is the final answer.
func (p *parser) text(part gjson.Result, kind streaming.Kind, emit parsers.Emit) error {
	text := part.Get("text").String()
	if strings.TrimSpace(text) == "" || part.Get("ignored").Bool() {
		return nil
	}
	id := part.Get("id").String()
	if id == "" {
		id = p.genID("part")
	}
	id = string(kind) + "/" + id
	seen, ok := p.seen[id]
	switch {
	case ok && seen.text == text:
		return nil
	case ok && seen.msg != p.openMsg, !ok && p.shown.has(id):
		// An update of a part whose step is over: its text was shown.
		return nil
	case !ok:
		msg, err := p.ensureMsg(part, emit)
		if err != nil {
			return err
		}
		seen = seenPart{msg: msg, block: p.nblocks}
		p.nblocks++
	}
	seen.text = text
	p.seen[id] = seen
	if kind == streaming.KindTextDelta {
		p.run.lastText = text
	}
	e := p.event(kind)
	e.Message, e.Role, e.Block = seen.msg, streaming.RoleAssistant, seen.block
	e.Text, e.Mode = text, streaming.Final
	return emit(e)
}
