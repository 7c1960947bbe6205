package cmd

import (
	"fmt"
	"io"
	"strings"
)

// Hints: what agentfmt says on stderr when a newcomer's command is
// probably not what they meant, and the one-line reason -o text gives for
// a bad exit status. Nothing here writes to stdout.

// hintTerminal says that agentfmt is waiting for input on a terminal,
// instead of waiting silently.
func (p *pipeline) hintTerminal(files []string) {
	if len(files) > 0 && !(len(files) == 1 && files[0] == "-") {
		return
	}
	w, ok := p.env.Stdin.(io.Writer) // (an *os.File is both)
	if !ok || !p.env.isTerminal(w) {
		return
	}
	fmt.Fprintln(p.stderr, "agentfmt: reading an agent's JSON from the terminal: pipe an agent into agentfmt, name a FILE, or use 'agentfmt run claude -p \"…\"' (Ctrl-D ends the input)")
}

// hintNoJSONText is the hint for a pipe that gave only plain text.
const hintNoJSONText = "agentfmt: the input holds no agent JSON, only plain text: was the agent run without its JSON output flag (claude -p … --output-format stream-json --verbose, codex exec --json, gemini --output-format stream-json)? 'agentfmt run AGENT …' adds it"

// hintNoJSON says when the input held text but no agent JSON at all: the
// agent was most likely run without its JSON output flag.
func (p *pipeline) hintNoJSON() {
	t := &p.out.tally
	if t.agent || !t.plainText {
		return
	}
	msg := hintNoJSONText
	if p.agent != nil {
		msg = fmt.Sprintf("agentfmt: %s printed no JSON, only plain text: do its arguments turn its JSON output off (%s)?", p.agent.name, strings.Join(p.agent.added, " "))
	}
	fmt.Fprintln(p.stderr, msg)
}

// hintEmpty says which inputs were empty: an empty pipe or file otherwise
// ends on a bare "incomplete" (-o text says it in its reason instead).
func (p *pipeline) hintEmpty(agentFailed bool) {
	if p.format == "text" && len(p.empty) == 1 && p.fileErrs == 0 {
		return // (explain says it)
	}
	for _, name := range p.empty {
		switch {
		case p.agent != nil:
			if !agentFailed {
				warnf(p.stderr, "%s printed nothing on stdout", p.agent.name)
			}
		case name == "-":
			warnf(p.stderr, "the input was empty")
		default:
			warnf(p.stderr, "%s was empty", name)
		}
	}
}

// hintForced says when --agent forced a parser onto lines that look like
// another agent's (--agent claude on a Codex log shows nothing but
// unknown events).
func (p *pipeline) hintForced() {
	n, other := p.dec.Misread()
	if other == "" {
		return
	}
	lines := "lines"
	if n == 1 {
		lines = "line"
	}
	warnf(p.stderr, "--agent %s did not understand %d %s of the input; they look like %s's: try --agent %s, or leave --agent out",
		p.o.Agent, n, lines, other, other)
}

// explain gives -o text's one line on stderr for exit 1, 3 and 4 (and
// under 'agentfmt run', for the agent's own failure): the answer alone on
// stdout does not say why a script's run went wrong.
func (p *pipeline) explain(code int, reason string, agentFailed bool) {
	if p.format != "text" {
		return
	}
	unshown := p.out.tally.unshownReason(p.dec.Objects(), minUnshown)
	if unshown != "" {
		unshown += "; " + unshownAdvice
	}
	if code == ExitOK {
		if unshown != "" {
			warnf(p.stderr, "%s", unshown)
		}
		return
	}
	reason = oneLineClip(reason, 300)
	var msg string
	switch {
	case agentFailed: // ('agentfmt run': the agent failed without a result)
		msg = reason
	case code == ExitFailed:
		msg = "the agent reported failure"
		if reason != "" {
			msg += ": " + reason
		}
	case code == ExitIncomplete:
		msg = "the stream ended before the run finished"
		if reason != "" && !strings.Contains(reason, msg) {
			msg += ": " + reason
		}
		switch {
		case unshown != "":
			msg += " (" + unshown + ")"
		case len(p.empty) > 0 && !p.out.tally.agent && !p.out.tally.plainText:
			msg += " (the input was empty)"
		case !p.out.tally.agent:
			msg += " (no agent JSON in the input)"
		}
	case code == ExitUntil:
		msg = fmt.Sprintf("the final answer lacks the --until marker %q", p.o.Until)
	default:
		return
	}
	warnf(p.stderr, "%s (exit %d)", msg, code)
}

// oneLineClip joins the lines of s and cuts it to about n bytes (at a
// character boundary).
func oneLineClip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// gateWriter is stdout as the renderer sees it; discard drops what is
// written once set (a run over no input at all has no footer to show).
type gateWriter struct {
	w       io.Writer
	discard bool
}

func (g *gateWriter) Write(b []byte) (int, error) {
	if g.discard {
		return len(b), nil
	}
	return g.w.Write(b)
}

// trimBlankLines removes the leading and trailing blank (whitespace-only)
// lines of s and nothing else: the first and last lines that hold text
// keep their own spaces.
func trimBlankLines(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			start = i + 1
			continue
		case ' ', '\t', '\r', '\f', '\v':
			continue
		}
		break
	}
	s = s[start:]
	end := len(s)
	for i := len(s) - 1; i >= 0; i-- {
		c := s[i]
		if c == '\n' {
			end = i
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
			continue
		}
		break
	}
	if end < len(s) && end > 0 && s[end-1] == '\r' {
		end-- // (a CRLF line end)
	}
	return s[:end]
}
