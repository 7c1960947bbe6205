package opencode

import (
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// seenPart is where a text or reasoning part of the open message is shown:
// its message and block (the parser translates part ids to the session's
// ids; the session keeps the text and compares).
type seenPart struct {
	msg   string
	block int
}

// text handles a text or reasoning part. OpenCode writes each part once,
// complete, when it ends: it is sent as a Final block identified by its
// message and part id. A part written again (the server can update a part
// more than once) is sent to its block again while its message is open:
// the session shows only what changed (nothing, when it is the same). The
// last text part of the run is the final answer.
func (p *parser) text(part *parsers.Object, kind streaming.Kind, emit parsers.Emit) error {
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
	p.seen[id] = seen
	if kind == streaming.KindTextDelta && (!ok || id == p.run.lastPart) {
		// The newest text part (or it again, updated) is the answer; an
		// older part written again is not.
		p.run.lastText, p.run.lastPart = text, id
	}
	e := p.event(kind)
	e.Message, e.Role, e.Block = seen.msg, streaming.RoleAssistant, seen.block
	e.Text = text
	return emit.Final(e)
}
