package render

import (
	"io"
	"strings"

	"github.com/agentfmt/agentfmt/internal/sanitize"

	"github.com/agentfmt/agentfmt/streaming"
)

func init() {
	Register("text", func(w io.Writer, cfg Config) Renderer { return &textRenderer{w: w, cfg: cfg} })
}

// textRenderer prints only the final answer, for answer=$(agent | agentfmt -o text).
// The answer is written as it is for a script; on a terminal it is
// sanitised like every other renderer's content, its SGR colour left out.
type textRenderer struct {
	stateless
	headless
	w   io.Writer
	cfg Config
}

// Handle ignores events: the answer comes with Finish.
func (t *textRenderer) Handle(*streaming.Event) error { return nil }

// Flush has nothing to write: the answer comes with Finish.
func (t *textRenderer) Flush() error { return nil }

// Finish writes the final answer with one trailing newline.
func (t *textRenderer) Finish(s Summary) error {
	if s.Answer == "" {
		return nil
	}
	answer := strings.TrimRight(s.Answer, "\n")
	if t.cfg.Terminal {
		answer = sanitize.String(answer, sanitize.Options{SGR: sanitize.DropSGR})
	}
	// The answer can be megabytes: it is not copied to add the line end,
	// nor into one []byte for a writer without WriteString.
	if err := writeString(t.w, answer); err != nil {
		return err
	}
	return writeString(t.w, "\n")
}

// writeString writes s to w without a copy of s whole: through w's
// WriteString if it has one, else in pieces of a small buffer.
func writeString(w io.Writer, s string) error {
	if sw, ok := w.(io.StringWriter); ok {
		_, err := sw.WriteString(s)
		return err
	}
	var buf [32 << 10]byte
	for s != "" {
		n := copy(buf[:], s)
		if _, err := w.Write(buf[:n]); err != nil {
			return err
		}
		s = s[n:]
	}
	return nil
}
