package render

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/agentfmt/agentfmt/streaming"
)

func init() {
	Register("json", func(w io.Writer, cfg Config) Renderer { return newJSON(w, cfg) })
}

// jsonRenderer prints the events of docs/events.md, one object per line.
type jsonRenderer struct {
	stateless
	w   *bufio.Writer
	cfg Config
	buf []byte
	// file is the input the events come from, when several are read one
	// after the other (Heading): every event says it.
	file string
}

// newJSON returns a JSON renderer writing to w.
func newJSON(w io.Writer, cfg Config) *jsonRenderer {
	return &jsonRenderer{w: bufio.NewWriterSize(w, outBuffer), cfg: cfg}
}

// Flush writes what is buffered.
func (j *jsonRenderer) Flush() error { return j.w.Flush() }

// Heading names the input the next events come from, as given on the
// command line ("-" for stdin): with several FILEs, each event carries it
// as "file" (its "line" counts that input's lines).
func (j *jsonRenderer) Heading(name string) error {
	j.file = name
	return nil
}

// Handle writes one event.
func (j *jsonRenderer) Handle(ev *streaming.Event) error {
	if len(ev.Text) > bigString || len(ev.Output) > bigString {
		return j.handleBig(ev)
	}
	j.buf = appendEvent(j.buf[:0], ev, j.file)
	j.buf = append(j.buf, '\n')
	_, err := j.w.Write(j.buf)
	if cap(j.buf) > bigString {
		j.buf = nil // not kept for the next event
	}
	return err
}

// bigString is the length from which the text or output of an event is
// written out in pieces as it is escaped, not built in memory whole: one
// long answer costs its own size, not another copy of it.
const bigString = 1 << 20

// bigMark stands for the big field while the rest of the event is built.
// Its encoding, after the field's key, cannot occur elsewhere in an
// event's JSON: a quote inside a string value is escaped.
const bigMark = "\x00agentfmt:big\x00"

func (j *jsonRenderer) handleBig(ev *streaming.Event) error {
	e := *ev
	field, key := &e.Text, `"text":`
	if len(e.Output) > bigString {
		field, key = &e.Output, `"output":`
	}
	big := *field
	*field = bigMark
	j.buf = appendEvent(j.buf[:0], &e, j.file)
	mark := appendString(append(j.buf[len(j.buf):], key...), bigMark)
	at := bytes.Index(j.buf, mark)
	if at < 0 {
		// (cannot happen: the field was written under its key)
		j.buf = appendEvent(j.buf[:0], ev, j.file)
		j.buf = append(j.buf, '\n')
		_, err := j.w.Write(j.buf)
		return err
	}
	at += len(key)
	if _, err := j.w.Write(j.buf[:at]); err != nil {
		return err
	}
	rest := append([]byte(nil), j.buf[at+len(mark)-len(key):]...)
	// The string, escaped in pieces cut at rune boundaries.
	piece := make([]byte, 0, 64<<10+16)
	piece = append(piece, '"')
	for s := big; s != ""; {
		n := min(len(s), 64<<10)
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n--
		}
		if n == 0 {
			n = min(len(s), utf8.UTFMax)
		}
		piece = appendEscaped(piece, s[:n])
		s = s[n:]
		if _, err := j.w.Write(piece); err != nil {
			return err
		}
		piece = piece[:0]
	}
	piece = append(piece, '"')
	piece = append(piece, rest...)
	piece = append(piece, '\n')
	_, err := j.w.Write(piece)
	return err
}

// Finish flushes.
func (j *jsonRenderer) Finish(Summary) error { return j.w.Flush() }

// appendEventJSON appends the JSON object of an event (without newline).
func appendEventJSON(b []byte, ev *streaming.Event) []byte { return appendEvent(b, ev, "") }

// appendEvent appends the JSON object of an event read from file ("": the
// only input).
func appendEvent(b []byte, ev *streaming.Event, file string) []byte {
	b = append(b, `{"v":1,"kind":`...)
	b = appendString(b, string(ev.Kind))
	b = append(b, `,"agent":`...)
	b = appendString(b, ev.Agent)
	if ev.Stream != "" {
		b = append(b, `,"stream":`...)
		b = appendString(b, ev.Stream)
	}
	if file != "" {
		b = append(b, `,"file":`...)
		b = appendString(b, file)
	}
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(ev.Line), 10)
	if !ev.Time.IsZero() {
		b = append(b, `,"time":`...)
		b = appendString(b, ev.Time.UTC().Format(time.RFC3339Nano))
	}
	str := func(k, v string) {
		if v != "" {
			b = append(b, ',', '"')
			b = append(b, k...)
			b = append(b, '"', ':')
			b = appendString(b, v)
		}
	}
	num := func(k string, v int64) {
		b = append(b, ',', '"')
		b = append(b, k...)
		b = append(b, '"', ':')
		b = strconv.AppendInt(b, v, 10)
	}
	// strs writes a list of strings.
	strs := func(k string, vs []string) {
		b = append(b, ',', '"')
		b = append(b, k...)
		b = append(b, '"', ':', '[')
		for i, v := range vs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, v)
		}
		b = append(b, ']')
	}
	// raw embeds v as JSON when it is a valid JSON value, compacted to
	// one line (every event is exactly one line), else as a string.
	raw := func(k, v string) {
		if v == "" {
			return
		}
		b = append(b, ',', '"')
		b = append(b, k...)
		b = append(b, '"', ':')
		var ok bool
		if b, ok = jsonscan.AppendCompact(b, v); !ok {
			b = appendString(b, v)
		}
	}
	switch ev.Kind {
	case streaming.KindSessionStart:
		str("session_id", ev.SessionID)
		str("title", ev.Title)
		str("model", ev.Model)
		str("cwd", ev.CWD)
		if ev.Tools != nil {
			strs("tools", ev.Tools)
		}
	case streaming.KindMessageStart, streaming.KindMessageStop:
		str("message", ev.Message)
		str("role", ev.Role)
		str("parent", ev.Parent)
	case streaming.KindBlockStop:
		str("message", ev.Message)
		num("block", int64(ev.Block))
		if ev.BlockKind == streaming.KindThinkingDelta {
			str("block_kind", "thinking")
		} else {
			str("block_kind", "text")
		}
		str("role", ev.Role)
		str("parent", ev.Parent)
	case streaming.KindTextDelta, streaming.KindThinkingDelta, streaming.KindTextRevision,
		streaming.KindThinkingRevision, streaming.KindTextSentence:
		str("message", ev.Message)
		num("block", int64(ev.Block))
		str("role", ev.Role)
		str("parent", ev.Parent)
		b = append(b, `,"text":`...)
		b = appendString(b, ev.Text)
	case streaming.KindToolStart:
		str("id", ev.ID)
		str("name", ev.Name)
		str("category", ev.Category)
		str("title", ev.Title)
		str("subject", ev.Subject)
		raw("input", ev.Input)
		str("parent", ev.Parent)
		b = appendEdits(b, ev.Edits)
	case streaming.KindToolInputDelta, streaming.KindToolOutputDelta:
		str("id", ev.ID)
		str("parent", ev.Parent)
		b = append(b, `,"text":`...)
		b = appendString(b, ev.Text)
	case streaming.KindToolEnd:
		str("id", ev.ID)
		str("name", ev.Name)
		str("category", ev.Category)
		str("status", string(ev.Status))
		b = appendEdits(b, ev.Edits)
		b = append(b, `,"output":`...)
		b = appendString(b, ev.Output)
		if ev.ExitCode != nil {
			num("exit_code", int64(*ev.ExitCode))
		}
		if ev.DurationMS > 0 {
			num("duration_ms", ev.DurationMS)
		}
		str("parent", ev.Parent)
	case streaming.KindPlan:
		b = append(b, `,"entries":[`...)
		for i, e := range ev.Entries {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"text":`...)
			b = appendString(b, e.Text)
			b = append(b, `,"status":`...)
			b = appendString(b, e.Status)
			if e.Priority != "" {
				b = append(b, `,"priority":`...)
				b = appendString(b, e.Priority)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	case streaming.KindPermissionRequest, streaming.KindPermissionResponse:
		str("id", ev.ID)
		str("tool", ev.Name)
		str("title", ev.Title)
		if len(ev.Options) > 0 {
			b = append(b, `,"options":[`...)
			for i, o := range ev.Options {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"id":`...)
				b = appendString(b, o.ID)
				b = append(b, `,"name":`...)
				b = appendString(b, o.Name)
				if o.Kind != "" {
					b = append(b, `,"kind":`...)
					b = appendString(b, o.Kind)
				}
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		str("choice", ev.Choice)
	case streaming.KindModeChange:
		str("from", ev.From)
		str("to", ev.To)
	case streaming.KindStatus, streaming.KindNotice, streaming.KindRaw, streaming.KindStderr:
		b = append(b, `,"text":`...)
		b = appendString(b, ev.Text)
		str("level", ev.Level)
	case streaming.KindUsage:
		if ev.Usage != nil {
			b = append(b, ',')
			b = appendUsage(b, ev.Usage)
		}
	case streaming.KindError:
		b = append(b, `,"message":`...)
		b = appendString(b, ev.Text)
		b = append(b, `,"fatal":`...)
		b = strconv.AppendBool(b, ev.Fatal)
		str("level", ev.Level)
	case streaming.KindResult:
		b = append(b, `,"ok":`...)
		b = strconv.AppendBool(b, ev.OK)
		b = append(b, `,"text":`...)
		b = appendString(b, ev.Text)
		if ev.DurationMS > 0 { // 0: the agent did not say
			num("duration_ms", ev.DurationMS)
		}
		num("turns", int64(ev.Turns))
		if ev.Usage != nil && ev.Usage.HasCost {
			b = append(b, `,"cost_usd":`...)
			b = strconv.AppendFloat(b, ev.Usage.CostUSD, 'f', -1, 64)
		}
		if ev.Usage != nil {
			b = append(b, `,"usage":{`...)
			b = appendUsage(b, ev.Usage)
			b = append(b, '}')
		}
		str("reason", ev.Reason)
		if len(ev.Models) > 0 {
			strs("models", ev.Models)
		}
		str("origin", ev.Origin)
	case streaming.KindUnknown:
		str("type", ev.Type)
		raw("raw", ev.Text)
	}
	return append(b, '}')
}

// appendUsage appends the usage fields, comma-separated, without braces.
func appendUsage(b []byte, u *streaming.Usage) []byte {
	for i, f := range []struct {
		k string
		v int64
	}{{"input_tokens", u.InputTokens}, {"output_tokens", u.OutputTokens},
		{"cache_read_tokens", u.CacheReadTokens}, {"cache_write_tokens", u.CacheWriteTokens}} {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, f.k...)
		b = append(b, '"', ':')
		b = strconv.AppendInt(b, f.v, 10)
	}
	if u.HasCost {
		b = append(b, `,"cost_usd":`...)
		b = strconv.AppendFloat(b, u.CostUSD, 'f', -1, 64)
	}
	if u.ContextWindow > 0 {
		b = strconv.AppendInt(append(b, `,"context_window":`...), u.ContextWindow, 10)
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Control characters, and the
// line separators that break JavaScript, are escaped; invalid UTF-8
// becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEscaped(b, s)
	return append(b, '"')
}

// appendEscaped appends s escaped as the body of a JSON string.
func appendEscaped(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != 0x7f {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		// Line separators break JavaScript; C1 controls and bidi overrides
		// must not reach a terminal that prints the JSON: escape them.
		if r == '\u2028' || r == '\u2029' || (r >= 0x80 && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u')
			b = append(b, hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
			i += n
			start = i
			continue
		}
		i += n
	}
	return append(b, s[start:]...)
}

// appendEdits appends the "edits" array of a tool call, when it has any.
func appendEdits(b []byte, edits []streaming.FileEdit) []byte {
	if len(edits) == 0 {
		return b
	}
	b = append(b, `,"edits":[`...)
	for i, e := range edits {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"path":`...)
		b = appendString(b, e.Path)
		for _, f := range [...]struct{ k, v string }{{"op", e.Op}, {"to", e.To}, {"old", e.Old}, {"new", e.New}, {"diff", e.Diff}} {
			if f.v != "" {
				b = append(append(append(b, `,"`...), f.k...), `":`...)
				b = appendString(b, f.v)
			}
		}
		b = append(b, '}')
	}
	return append(b, ']')
}
