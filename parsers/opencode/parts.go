package opencode

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// text handles a text or reasoning part. OpenCode writes each part once,
// complete, when it ends: it is sent as a Final block of its message,
// named by its part id (Event.Part). A part written again (the server can
// update a part more than once) is sent again the same way: the session
// shows only what changed while the message is open, and nothing once it
// has stopped. The run's final answer is the session's: the text of the
// last message that showed some.
func (p *parser) text(part *parsers.Object, kind streaming.Kind) error {
	text := part.Get("text").String()
	if strings.TrimSpace(text) == "" || part.Get("ignored").Bool() {
		return nil
	}
	id := part.Get("id").String()
	if id == "" {
		id = p.ids.Next("part")
	}
	e := p.out.New(kind)
	e.Message, e.Role, e.Part = p.partMsg(part), streaming.RoleAssistant, id
	e.Text = text
	return p.out.Final()
}
