package render

import (
	"io"
	"strings"

	"github.com/agentfmt/agentfmt/internal/sanitize"

	"github.com/agentfmt/agentfmt/streaming"
)

func init() {
	Register("text", func(w io.Writer, cfg Config) Renderer { return &Text{w: w, cfg: cfg} })
}

// Text prints only the final answer, for answer=$(agent | agentfmt -o text).
// The answer is written as it is for a script; on a terminal it is
// sanitised like every other renderer's content, its SGR colour left out.
type Text struct {
	w   io.Writer
	cfg Config
}

// IgnoresEdits: Text shows no file edits (see EditsIgnorer).
func (*Text) IgnoresEdits() {}

// Handle ignores events: the answer comes with Finish.
func (t *Text) Handle(*streaming.Event) error { return nil }

// Finish writes the final answer with one trailing newline.
func (t *Text) Finish(s Summary) error {
	if s.Answer == "" {
		return nil
	}
	answer := strings.TrimRight(s.Answer, "\n")
	if t.cfg.Terminal {
		answer = sanitize.String(answer, sanitize.Options{SGR: sanitize.DropSGR})
	}
	_, err := io.WriteString(t.w, answer+"\n")
	return err
}
