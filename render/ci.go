package render

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/sanitize"
)

// CI log markers around plain output: GitHub Actions groups and
// annotations, GitLab collapsible sections.
//
// GitHub Actions. The runner treats a line as a workflow command when,
// after leading white space, it starts with "::" (::error::, ::add-mask::,
// ::set-env::, ::stop-commands::…), or when it holds "##[" anywhere (the
// old ##[command] syntax). The log viewer also draws ##[group], ##[endgroup],
// ##[error]… at the start of a line (that is all ::group:: does: the runner
// prints "##[group]<title>"). Agent text, tool output, file contents and raw
// lines are untrusted, so two independent defences keep them inert:
//
//  1. Stop-commands. The output starts with ::stop-commands::<token>; the
//     runner then ignores every command until a line ::<token>:: comes.
//     Groups need no command: agentfmt writes the ##[group]<title> and
//     ##[endgroup] lines the viewer draws, which the runner passes on as
//     they are while commands are stopped. Only annotations (::warning::,
//     ::error::) need commands: agentfmt resumes for that one line and
//     stops again at once with a fresh token. Tokens are 96 random bits
//     from crypto/rand, never reused: one seen in the log (the runner
//     echoes, and masks, them) is useless afterwards. This also covers what
//     the agent writes to stderr (the same log) while agentfmt runs, and
//     keeps the log quiet: no stop/resume lines around every tool call.
//  2. Escaping. Every line agentfmt writes, other than its own markers, is
//     escaped as it is written: a line whose first non-blank character is
//     ':' gets a zero-width space (U+200B) before it, and "##[" becomes
//     "##\u200b[". So content is inert even if the stop-commands line were
//     not seen (the job printed a partial line just before agentfmt), cannot
//     resume commands with a token it somehow knew, and cannot draw or
//     close groups or fake ##[error] lines. The change is invisible.
//
// Annotation messages and group titles are sanitised (control characters
// shown visibly) and made one line; annotation data is %-escaped (%, CR,
// LF) as the runner wants. Groups are never nested and every group is
// closed before the output ends, whatever happened (an incomplete tool
// call, an interrupted run); at the end commands are resumed, so later
// steps are unaffected.
//
// GitLab. A section is "\e[0Ksection_start:<unix time>:<name>[collapsed=true]
// \r\e[0K<header>" … "\e[0Ksection_end:<unix time>:<name>\r\e[0K". Names are
// unique in the output (a prefix from the start time and a counter). Content
// cannot open or close sections: the markers need ESC and CR, which the
// sanitiser shows visibly in untrusted text. No GitHub markers are written.
type ciMarkers struct {
	ci      CI
	w       *bufio.Writer // the renderer's writer
	esc     *ghEscaper    // GitHub: under w, escapes content
	now     func() time.Time
	token   string // GitHub: the stop-commands token in force
	open    bool   // a group or section is open
	section string
	prefix  string // GitLab section name prefix
	n       int
	// lane is the view of several streams this renderer is one lane of
	// (lanes_plain.go): markers and commands go through it, between the
	// lanes' whole lines; tag names the stream in group titles and
	// annotations.
	lane *plainView
	tag  string
}

// outBuffer is the output buffer of the streaming renderers. It is
// flushed whenever the input goes idle, so its size only matters for a
// fast stream: there, large writes save system calls and, into a pipe,
// the switches to its reader (256 KB against 32 KB: a tenth of the
// writes; docs/performance.md has what it saves).
const outBuffer = 256 << 10

// newCIMarkers returns the markers for cfg.CI and the buffered writer the
// renderer writes through (escaping content for GitHub).
func newCIMarkers(cfg Config, w io.Writer) (ciMarkers, *bufio.Writer) {
	now := cfg.env.Now
	if now == nil {
		now = time.Now
	}
	m := ciMarkers{ci: cfg.CI, now: now}
	switch cfg.CI {
	case CIGitHub:
		m.esc = &ghEscaper{w: w, lineStart: true}
		m.w = bufio.NewWriterSize(m.esc, outBuffer)
		m.token = newToken()
		// Everything from here on is inert until the token ends it.
		m.raw("::stop-commands::" + m.token + "\n")
	case CIGitLab:
		m.w = bufio.NewWriterSize(w, outBuffer)
		m.prefix = fmt.Sprintf("agentfmt_%d", now().Unix())
	default:
		m.w = bufio.NewWriterSize(w, outBuffer)
	}
	return m, m.w
}

func newToken() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "agentfmt-" + hex.EncodeToString(b[:])
}

// folds reports whether tool output is folded (and so shown whole).
func (m *ciMarkers) folds() bool { return m.ci == CIGitHub || m.ci == CIGitLab }

// raw writes agentfmt's own marker lines, unescaped: what is buffered
// goes first (through the escaper), then s alone.
func (m *ciMarkers) raw(s string) {
	_ = m.w.Flush()
	if m.lane != nil {
		m.lane.raw(s)
		return
	}
	m.esc.raw = true
	m.w.WriteString(s)
	_ = m.w.Flush()
	m.esc.raw = false
}

// command writes a live GitHub workflow command (an annotation): commands
// are resumed for that one line and stopped again with a fresh token.
func (m *ciMarkers) command(cmd string) {
	if m.lane != nil {
		_ = m.w.Flush()
		m.lane.command(cmd)
		return
	}
	next := newToken()
	m.raw("::" + m.token + "::\n" + cmd + "\n::stop-commands::" + next + "\n")
	m.token = next
}

// content makes a content line safe for the CI log. Escaping is done by
// the writer, for every line; this is kept for the renderer's call sites.
func (m *ciMarkers) content(s string) string { return s }

// commandData makes untrusted text one safe line of command data.
func commandData(s string, n int) string {
	s = strings.TrimSpace(eventtext.OneLine(sanitize.String(s, sanitize.Options{})))
	s = eventtext.TruncateRunes(s, n)
	s = strings.ReplaceAll(s, "%", "%25")
	s = strings.ReplaceAll(s, "\r", "%0D")
	s = strings.ReplaceAll(s, "##[", "##"+zwsp+"[")
	return strings.ReplaceAll(s, "\n", "%0A")
}

// groupStart opens a group (GitHub) or a collapsed section (GitLab) with a
// header line; an open one is closed first.
func (m *ciMarkers) groupStart(title string) {
	m.groupEnd()
	if m.lane != nil {
		title = m.tag + " " + title
	}
	header := eventtext.TruncateRunes(strings.TrimSpace(eventtext.OneLine(sanitize.String(title, sanitize.Options{}))), 200)
	switch m.ci {
	case CIGitHub:
		m.raw("##[group]" + strings.ReplaceAll(header, "##[", "##"+zwsp+"[") + "\n")
		m.open = true
	case CIGitLab:
		m.n++
		m.section = fmt.Sprintf("%s_%d", m.prefix, m.n)
		m.marker(fmt.Sprintf("\x1b[0Ksection_start:%d:%s[collapsed=true]\r\x1b[0K%s\n", m.now().Unix(), m.section, header))
		m.open = true
	}
}

func (m *ciMarkers) groupEnd() {
	if !m.open {
		return
	}
	m.open = false
	switch m.ci {
	case CIGitHub:
		m.raw("##[endgroup]\n")
	case CIGitLab:
		m.marker(fmt.Sprintf("\x1b[0Ksection_end:%d:%s\r\x1b[0K\n", m.now().Unix(), m.section))
	}
}

// marker writes a GitLab section line: among the content, or, in a lane,
// through the view, whole and without the lane's tag before it.
func (m *ciMarkers) marker(s string) {
	if m.lane != nil {
		m.raw(s)
		return
	}
	m.w.WriteString(s)
}

// tagged names the lane's stream before an annotation's message.
func (m *ciMarkers) tagged(msg string) string {
	if m.lane != nil {
		return m.tag + ": " + msg
	}
	return msg
}

// warning writes a warning annotation (GitHub): retries, rate limits,
// non-fatal errors.
func (m *ciMarkers) warning(msg string) {
	if m.ci == CIGitHub {
		m.groupEnd()
		m.command("::warning::" + commandData(m.tagged(msg), 1000))
	}
}

// errorAnnotation writes an error annotation (GitHub): a failed or
// incomplete run.
func (m *ciMarkers) errorAnnotation(msg string) {
	if m.ci == CIGitHub {
		m.groupEnd()
		m.command("::error::" + commandData(m.tagged(strings.TrimSuffix(strings.TrimSpace(msg), ":")), 1000))
	}
}

// finish closes an open group and resumes workflow commands at the end of
// the output.
func (m *ciMarkers) finish() {
	m.groupEnd()
	if m.ci == CIGitHub && m.token != "" {
		m.raw("::" + m.token + "::\n")
		m.token = ""
	}
}

// zwsp breaks "::" at the start of a line and "##[" without being seen.
const zwsp = "\u200b"

// ghEscaper escapes content lines for the GitHub runner (see ciMarkers):
// a line whose first non-blank character is ':' gets U+200B before it,
// and "##[" becomes "##\u200b[". Lines may arrive in any pieces.
type ghEscaper struct {
	w         io.Writer
	raw       bool // agentfmt's own command lines pass as they are
	lineStart bool // only blanks so far on this line
	hashes    int  // '#' just before
	esc       byte // in an escape sequence: 0x1b just read, or '[' of a CSI
	part      []byte
	out       []byte
}

func (e *ghEscaper) Write(p []byte) (int, error) {
	if e.raw {
		if len(e.part) > 0 {
			if _, err := e.w.Write(e.part); err != nil {
				return 0, err
			}
			e.part = nil
		}
		if len(p) > 0 {
			e.lineStart = p[len(p)-1] == '\n'
			e.hashes = 0
		}
		return e.w.Write(p)
	}
	b := p
	if len(e.part) > 0 {
		b = append(e.part, p...)
		e.part = nil
	}
	out := e.out[:0]
	for i := 0; i < len(b); {
		c := b[i]
		if e.esc != 0 {
			// An escape sequence (pretty's cursor moves, colours) leaves the
			// line start where it was: "\r\x1b[2K::error::" is still a
			// line that starts with "::" once the terminal codes are gone.
			switch {
			case e.esc == 0x1b && c == '[':
				e.esc = '['
			case e.esc == '[' && c >= 0x20 && c <= 0x3f:
			default:
				e.esc = 0
			}
			out = append(out, c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch {
			case c == 0x1b:
				e.esc = 0x1b
				e.hashes = 0
				out = append(out, c)
				i++
				continue
			case c == '\n' || c == '\r':
				e.lineStart = true
			case e.lineStart && (c == ' ' || c == '\t' || c == '\v' || c == '\f'):
			case e.lineStart && c == ':':
				out = append(out, zwsp...)
				e.lineStart = false
			case c == '[' && e.hashes >= 2:
				out = append(out, zwsp...)
				e.lineStart = false
			default:
				e.lineStart = false
			}
			if c == '#' {
				e.hashes++
			} else {
				e.hashes = 0
			}
			out = append(out, c)
			i++
			continue
		}
		if !utf8.FullRune(b[i:]) {
			e.part = append([]byte(nil), b[i:]...)
			break
		}
		r, n := utf8.DecodeRune(b[i:])
		// The runner trims Unicode white space (.NET TrimStart) too.
		if !unicode.IsSpace(r) {
			e.lineStart = false
		}
		e.hashes = 0
		out = append(out, b[i:i+n]...)
		i += n
	}
	e.out = out
	if _, err := e.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// ciWriter is where a renderer other than plain (which writes its own
// markers, see newCIMarkers) writes in a GitHub Actions job: the runner
// reads every line of the step's output, whatever the format. pretty,
// markdown and text go through the escaper (invisible U+200B, so a captured
// answer is unchanged to the eye); json gets "##[" as "##\u005b", which
// decodes to the same string, so the JSON stays lossless (a line of JSON
// never starts with ':'). --ci none writes the bytes as they are.
func ciWriter(format string, cfg Config, w io.Writer) io.Writer {
	if cfg.CI != CIGitHub {
		return w
	}
	switch format {
	case "plain":
		return w
	case "json":
		return &jsonEscaper{w: w}
	}
	return &ghEscaper{w: w, lineStart: true}
}

// jsonEscaper writes JSON lines with every "##[" as "##\u005b": in JSON
// output '#' is only ever inside a string, where the escape means '['.
type jsonEscaper struct {
	w      io.Writer
	hashes int
	out    []byte
}

func (e *jsonEscaper) Write(p []byte) (int, error) {
	out := e.out[:0]
	start := 0
	for i, c := range p {
		switch {
		case c == '#':
			e.hashes++
		case c == '[' && e.hashes >= 2:
			out = append(out, p[start:i]...)
			out = append(out, `\u005b`...)
			start = i + 1
			e.hashes = 0
		default:
			e.hashes = 0
		}
	}
	if start == 0 {
		return e.w.Write(p)
	}
	out = append(out, p[start:]...)
	e.out = out
	if _, err := e.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
