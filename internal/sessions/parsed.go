package sessions

import (
	"errors"
	"strings"
	"time"

	kit "github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/streaming"
)

// The first prompt a listing shows, and the directory and the start it
// falls back on, are what rendering the file shows: its first lines go
// through the agent's own parser, which knows what is a prompt and what
// is context the agent injected, a slash command or an interruption. The
// listing reads records itself only for what rendering does not show (a
// summary title, a queued prompt) and to leave files out early.

// parsed is what the agent's parser says of a session's first lines.
type parsed struct {
	cwd     string
	started time.Time
	prompt  string // the first user message of the main conversation, on one line
	command string // the first slash command, where no prompt comes
}

// errPrompted ends the reading at the end of the first prompt.
var errPrompted = errors.New("prompt read")

// parseHead reads the lines of h that are left (after first, a line
// already read, when not nil) with agent's parser, until the first
// prompt has ended. seen, when set, is given every line before the
// parser, in order; the reading ends where it returns false.
func parseHead(agent string, h *head, first []byte, seen func([]byte) bool) parsed {
	var p parsed
	var prompt strings.Builder
	in, block := "", -1 // the message of the prompt being read, and its block
	emit := kit.EmitFunc(func(_ streaming.Mode, ev *streaming.Event) error {
		switch ev.Kind {
		case streaming.KindSessionStart:
			if p.cwd == "" {
				p.cwd = strings.Clone(ev.CWD)
			}
			if p.started.IsZero() {
				p.started = ev.Time
			}
		case streaming.KindMessageStart:
			if ev.Role == streaming.RoleUser && ev.Parent == "" && in == "" {
				in = strings.Clone(ev.Message)
			}
		case streaming.KindTextDelta:
			if in != "" && ev.Message == in {
				if ev.Block != block && prompt.Len() > 0 {
					prompt.WriteByte(' ')
				}
				block = ev.Block
				prompt.WriteString(ev.Text)
			}
		case streaming.KindStatus:
			if t := strings.TrimSpace(ev.Text); p.command == "" && strings.HasPrefix(t, "/") {
				p.command = oneLine(t)
			}
		case streaming.KindMessageStop:
			if in != "" && ev.Message == in {
				if p.prompt = oneLine(prompt.String()); p.prompt != "" {
					return errPrompted
				}
				in, block = "", -1
				prompt.Reset()
			}
		}
		return nil
	})
	d, err := kit.NewDecoder(all.Agents(), kit.DecoderOptions{Force: agent, NoEdits: true}, emit)
	if err != nil {
		return p
	}
	n := 0
	decode := func(line []byte) bool {
		n++
		return (seen == nil || seen(line)) && d.DecodeBytes(line, n) == nil
	}
	if first != nil && !decode(first) {
		return p
	}
	for line, ok := h.next(); ok; line, ok = h.next() {
		if !decode(line) {
			return p
		}
	}
	if d.Close(); p.prompt == "" {
		p.prompt = oneLine(prompt.String()) // a prompt the head cut
	}
	return p
}
