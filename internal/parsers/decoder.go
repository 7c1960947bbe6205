package parsers

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// LineError is an unparseable line under --strict.
type LineError struct {
	Line int
	Msg  string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ExitCode is streaming.ExitDataErr.
func (e *LineError) ExitCode() int { return streaming.ExitDataErr }

// DecoderOptions configure a Decoder.
type DecoderOptions struct {
	// Force names the agent to use for every line ("" or "auto": detect).
	Force string
	// Strict makes non-JSON and invalid lines errors.
	Strict bool
	// Report receives detection decisions and notices with their line (--debug).
	Report func(line int, msg string)
	// NoEdits leaves Event.Edits as the parsers give them: they are not
	// derived from tool inputs, for a consumer that shows no file edits.
	NoEdits bool
	// Scribble overwrites the memory of each line once its events are
	// handled, as the reader does when it reuses its buffer (tests: a
	// string of an event kept past Emit without a copy turns to garbage).
	Scribble bool
}

// Decoder turns input lines into events: raw text, notices, and the
// events of the agent parser it picked for the stream.
type Decoder struct {
	agents []Agent
	opts   DecoderOptions
	out    Emit

	cur      Parser
	curAgent *Agent
	line     Line
	top      jsonscan.TopSpans // where the fields of the line are, from its validation
	ev       streaming.Event

	truncated bool
	objects   int            // JSON objects read
	unread    map[string]int // lines no agent recognised, by type (--debug sums them up)
	mis       misreads       // what a parser Force chose did not understand

	// buf is the reader's buffer the current line's text is, when it
	// is not a copy (see Agent.Borrow); nil otherwise.
	buf []byte
	// emitFn is the Emit handed to parsers (decoderEmit{d}), made once:
	// converted to the interface on every line, it would be allocated on
	// every line.
	emitFn Emit
}

// NewDecoder returns a decoder over the given agents (in detection
// priority order) that hands events to out.
func NewDecoder(agents []Agent, opts DecoderOptions, out Emit) (*Decoder, error) {
	d := &Decoder{agents: agents, opts: opts, out: out}
	d.emitFn = decoderEmit{d}
	if opts.Force != "" && opts.Force != "auto" {
		a := Find(agents, opts.Force)
		if a == nil {
			return nil, fmt.Errorf("unknown agent %q", opts.Force)
		}
		d.curAgent = a
		d.cur = a.New()
		d.mis.forced = true
	}
	return d, nil
}

// Find returns the agent named name (or one of its aliases).
func Find(agents []Agent, name string) *Agent {
	for i := range agents {
		if agents[i].Name == name {
			return &agents[i]
		}
		for _, al := range agents[i].Aliases {
			if al == name {
				return &agents[i]
			}
		}
	}
	return nil
}

// Truncated reports whether the last line read was cut off: invalid JSON
// with no newline after it.
func (d *Decoder) Truncated() bool { return d.truncated }

// Objects is how many JSON objects the input held so far (the lines an
// agent's parser was given, or none recognised).
func (d *Decoder) Objects() int { return d.objects }

// Agent returns the name of the agent detected last ("" if none).
func (d *Decoder) Agent() string {
	if d.curAgent == nil {
		return ""
	}
	return d.curAgent.Name
}

func (d *Decoder) report(line int, format string, args ...any) {
	if d.opts.Report != nil {
		d.opts.Report(line, fmt.Sprintf(format, args...))
	}
}

// decoderEmit is the Emit the decoder hands its parsers: each event is
// completed (agent, line, unknown type, normalised fields) and passed on
// to the session the same way. Its strings may be the line's memory
// (Agent.Borrow, Line.Text), valid during the call only, as the
// streaming contract says: the session and the renderers copy what they
// keep.
type decoderEmit struct{ d *Decoder }

func (e decoderEmit) Push(ev *streaming.Event) error     { return e.d.out.Push(e.d.prepare(ev)) }
func (e decoderEmit) Snapshot(ev *streaming.Event) error { return e.d.out.Snapshot(e.d.prepare(ev)) }
func (e decoderEmit) Final(ev *streaming.Event) error    { return e.d.out.Final(e.d.prepare(ev)) }
func (e decoderEmit) Restate(ev *streaming.Event) error  { return e.d.out.Restate(e.d.prepare(ev)) }

func (d *Decoder) prepare(ev *streaming.Event) *streaming.Event {
	if ev.Kind == streaming.KindUnknown && ev.Type == "" {
		ev.Type = UnknownType(&d.line)
	}
	if ev.Agent == "" && d.curAgent != nil {
		ev.Agent = d.curAgent.Name
	}
	if ev.Line == 0 {
		ev.Line = d.line.N
	}
	normalise(ev, &d.curAgent.Tools, !d.opts.NoEdits)
	if d.mis.forced && ev.Kind == streaming.KindUnknown {
		d.lookAt(ev)
	}
	return ev
}

func (d *Decoder) simple(kind streaming.Kind, n int, text string) error {
	d.ev = streaming.Event{Kind: kind, Line: n, Text: text}
	if d.curAgent != nil {
		d.ev.Agent = d.curAgent.Name
	}
	return d.out.Push(&d.ev)
}

// DecodeBytes handles one input line, without its line ending: line n
// (1-based) of the input. The decoder copies what it keeps of it, so the
// caller may reuse line once it returns (as bufio.Scanner does).
func (d *Decoder) DecodeBytes(line []byte, n int) error {
	return d.Decode(input.Line{Bytes: line, N: n})
}

// InputLine is one line of input as agentfmt's own reader hands it over:
// its bytes and number, and what the reader knows of it (a last line
// without a newline, a line too long that was skipped, an element of a
// top-level JSON array, a buffer the reader will not reuse). An embedder
// with a reader of its own fills what it knows, or calls DecodeBytes.
type InputLine = input.Line

// Decode handles one input line as agentfmt's own reader hands it over.
func (d *Decoder) Decode(in InputLine) error {
	d.line.arena = d.line.arena[:0]
	err := d.decode(in)
	if d.opts.Scribble {
		scribble(d.line.arena)
		if !in.Owned {
			scribble(in.Bytes)
		}
	}
	d.line.arena = d.line.arena[:0]
	if cap(d.line.arena) > maxArena {
		d.line.arena = nil // a huge line's strings: not kept for the next
	}
	return err
}

// maxArena is the scratch space kept from line to line.
const maxArena = 1 << 20

func scribble(b []byte) {
	for i := range b {
		b[i] = '#'
	}
}

func (d *Decoder) decode(in input.Line) error {
	d.truncated = false
	if in.Skipped > 0 {
		return d.simple(streaming.KindNotice, in.N,
			fmt.Sprintf("line %d skipped: %s is longer than --max-line", in.N, HumanBytes(in.Skipped)))
	}
	b := stripTerminalPrefix(in.Bytes)
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	if !looksJSON(b) {
		if d.opts.Strict {
			return &LineError{Line: in.N, Msg: "not JSON: " + Clip(string(b), 60)}
		}
		return d.simple(streaming.KindRaw, in.N, lineString(in, in.Bytes))
	}
	if !jsonscan.Index(b, &d.top) {
		if b[0] == '[' && !looksLikeArray(b) {
			// "[plugin:notify] …", "[INFO] …": a text line.
			if d.opts.Strict {
				return &LineError{Line: in.N, Msg: "not JSON: " + Clip(string(b), 60)}
			}
			return d.simple(streaming.KindRaw, in.N, lineString(in, in.Bytes))
		}
		d.truncated = in.NoNewline
		if d.opts.Strict {
			return &LineError{Line: in.N, Msg: "invalid JSON: " + Clip(string(b), 60)}
		}
		what := "is not valid JSON"
		if in.NoNewline {
			what = "is cut off (invalid JSON at the end of input)"
		}
		if err := d.simple(streaming.KindNotice, in.N, fmt.Sprintf("line %d %s; shown as it is", in.N, what)); err != nil {
			return err
		}
		return d.simple(streaming.KindRaw, in.N, lineString(in, in.Bytes))
	}
	if b[0] == '[' && !in.Element {
		// One JSON array on a line: its elements are the events.
		var err error
		gjson.ParseBytes(b).ForEach(func(_, v gjson.Result) bool {
			err = d.value(v.Raw, in.N)
			return err == nil
		})
		return err
	}
	if b[0] == '{' {
		// The common case: the line is indexed from its validation. When
		// the current parser borrows lines, the text is the reader's
		// buffer; it is copied if another parser takes the line.
		if !in.Owned && d.curAgent != nil && d.curAgent.Borrow {
			d.buf = b
			defer func() { d.buf = nil }()
			d.line.resetSpans(view.String(b), in.N, &d.top)
		} else {
			d.line.resetSpans(lineString(in, b), in.N, &d.top)
		}
		return d.parse()
	}
	return d.value(lineString(in, b), in.N)
}

// lineString returns b, a part of in.Bytes, as a string: without a copy
// when the reader handed the line over (a line of many megabytes is not
// copied again), else copied, as the reader reuses its buffer.
func lineString(in input.Line, b []byte) string {
	if in.Owned && len(b) > 0 {
		return view.String(b)
	}
	return copyString(b)
}

func (d *Decoder) value(json string, n int) error {
	d.line.Reset(json, n)
	if !strings.HasPrefix(json, "{") {
		return d.simple(streaming.KindRaw, n, json)
	}
	return d.parse()
}

// parse hands the indexed object line to the parser of its agent.
func (d *Decoder) parse() error {
	d.objects++
	d.choose()
	if d.buf != nil && (d.cur == nil || !d.curAgent.Borrow) {
		// Taken by a parser that keeps lines: it gets a copy.
		d.line.rebase(copyString(d.buf))
		d.buf = nil
	}
	// A parser that copies what it keeps may have long strings decoded
	// into the line's scratch space (see Line.Text).
	d.line.lend = d.cur != nil && d.curAgent.Borrow
	// The reader's buffer the line is in is reused after it: a very long
	// string may be decoded over itself (see Line.inPlace).
	d.line.writable = d.line.lend && d.buf != nil
	n, json := d.line.N, d.line.JSON
	if d.cur == nil {
		d.ev = streaming.Event{Kind: streaming.KindUnknown, Line: n, Type: UnknownType(&d.line), Text: json}
		if d.opts.Report != nil {
			// Said once per type, and summed up at the end: a stream of an
			// agent none knows is not a line of --debug per line.
			if d.unread == nil {
				d.unread = map[string]int{}
			}
			if d.unread[d.ev.Type] == 0 {
				d.report(n, "no agent recognises this line (type %q); lines of this type are counted", d.ev.Type)
			}
			d.unread[d.ev.Type]++
		}
		return d.out.Push(&d.ev)
	}
	return d.cur.Parse(&d.line, d.emitFn)
}

// choose picks the parser for the current line: the first decisive line
// decides, and a later line that is decisively another agent's switches.
func (d *Decoder) choose() {
	if d.opts.Force != "" && d.opts.Force != "auto" {
		return
	}
	curScore := No
	if d.curAgent != nil {
		// A line decisively the current agent's never switches (see
		// below): the other detectors need not run. Most lines of a long
		// stream are such lines.
		if curScore = d.curAgent.Detect(&d.line); curScore == Decisive {
			return
		}
	}
	var best *Agent
	bestScore := No
	for i := range d.agents {
		a := &d.agents[i]
		c := curScore
		if a != d.curAgent {
			c = a.Detect(&d.line)
		}
		if c > bestScore {
			best, bestScore = a, c
		}
	}
	if best == nil || best == d.curAgent {
		return
	}
	// Once an agent is picked, only a line that is decisively another
	// agent's switches: shared shapes (Maybe) stay with the current parser.
	if d.cur != nil && !(bestScore == Decisive && curScore < Decisive) {
		return
	}
	if d.cur != nil {
		if err := d.cur.Finish(d.emitFn); err != nil {
			d.report(d.line.N, "finishing %s: %v", d.curAgent.Name, err)
		}
		d.report(d.line.N, "input switches from %s to %s", d.curAgent.Name, best.Name)
	} else {
		d.report(d.line.N, "detected %s", best.Name)
	}
	d.curAgent = best
	d.cur = best.New()
}

// Close ends the input: the parser emits what it still holds.
func (d *Decoder) Close() error {
	if len(d.unread) > 0 {
		n := 0
		for _, c := range d.unread {
			n += c
		}
		lines := "lines"
		if n == 1 {
			lines = "line"
		}
		d.report(0, "no agent recognised %d %s: %s", n, lines, TypeCounts(d.unread, 0))
		clear(d.unread)
	}
	if d.cur == nil {
		return nil
	}
	return d.cur.Finish(d.emitFn)
}

// looksJSON reports a line that starts like a JSON object or an array of
// values: '{', or '[' followed by '{', '[', '"', ']' or nothing. A log line
// such as "[INFO] starting" or "[1/3] building" is text, not broken JSON.
func looksJSON(b []byte) bool {
	if b[0] == '{' {
		return true
	}
	if b[0] != '[' {
		return false
	}
	rest := bytes.TrimLeft(b[1:], " \t\r\n")
	return len(rest) == 0 || bytes.IndexByte([]byte(`{["]`), rest[0]) >= 0
}

// stripTerminalPrefix removes the escape and title sequences that some
// agents (Kilo) print around the JSON of a line: "ESC]0;title BEL ESC[2J{…}".
// It strips only what is terminal noise (escape sequences, control
// characters, spaces) before the first '{' and after the last '}', and
// only when what is left is valid JSON.
func stripTerminalPrefix(b []byte) []byte {
	if len(b) == 0 || b[0] == '{' || b[0] == '[' || bytes.IndexByte(b, 0x1b) < 0 {
		return b
	}
	i := bytes.IndexByte(b, '{')
	j := bytes.LastIndexByte(b, '}')
	if i < 0 || j < i || !terminalNoise(b[:i]) || !terminalNoise(b[j+1:]) {
		return b
	}
	if jsonscan.Valid(b[i : j+1]) {
		return b[i : j+1]
	}
	return b
}

// terminalNoise reports text made only of escape sequences (CSI, OSC and
// two-byte ones), control characters and spaces.
func terminalNoise(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == 0x1b && i+1 < len(b) && b[i+1] == '[': // CSI: params, intermediates, final byte
			i += 2
			for i < len(b) && b[i] >= 0x20 && b[i] <= 0x3f {
				i++
			}
			if i >= len(b) || b[i] < 0x40 || b[i] > 0x7e {
				return false
			}
			i++
		case c == 0x1b && i+1 < len(b) && b[i+1] == ']': // OSC: up to BEL or ESC \
			k := bytes.IndexAny(b[i+2:], "\x07\x1b")
			if k < 0 {
				return false
			}
			i += 2 + k
			if b[i] == 0x07 {
				i++
			} else if i+1 < len(b) && b[i+1] == '\\' {
				i += 2
			} else {
				return false
			}
		case c == 0x1b && i+1 < len(b) && b[i+1] >= 0x20 && b[i+1] <= 0x7e: // ESC x
			i += 2
		case c < 0x20 || c == ' ' || c == 0x7f:
			i++
		default:
			return false
		}
	}
	return true
}

// Clip shortens s to at most n runes, marking the cut with "…".
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, c := 0, 0
	for i = range s {
		if c == n {
			break
		}
		c++
	}
	return s[:i] + "…"
}

// HumanBytes formats a size as 412 B, 12 KB, 48 MB.
func HumanBytes(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%d KB", (n+500)/1000)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%d MB", (n+500_000)/1000_000)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}

// looksLikeArray reports whether a line that starts with '[' starts like a
// JSON array ("[{", "[[", "[\"", "[1", "[]") rather than a bracketed tag.
func looksLikeArray(b []byte) bool {
	rest := bytes.TrimLeft(b[1:], " \t")
	if len(rest) == 0 {
		return true
	}
	switch c := rest[0]; {
	case c == '{' || c == '[' || c == '"' || c == ']' || c == '-' || (c >= '0' && c <= '9'):
		return true
	case bytes.HasPrefix(rest, []byte("true")) || bytes.HasPrefix(rest, []byte("false")) || bytes.HasPrefix(rest, []byte("null")):
		return true
	}
	return false
}
