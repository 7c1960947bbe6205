package render

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// ciMarkers writes the log markers of a CI system around plain output:
// GitHub Actions workflow commands, GitLab collapsible sections. With no
// CI every method does nothing.
type ciMarkers struct {
	ci      CI
	w       *bufio.Writer
	token   string // GitHub: the stop-commands token while content is inert
	open    bool   // a group or section is open
	section string
	n       int
}

func newCIMarkers(ci CI, w *bufio.Writer) ciMarkers {
	m := ciMarkers{ci: ci, w: w}
	if ci == CIGitHub {
		var b [12]byte
		_, _ = rand.Read(b[:])
		m.token = "agentfmt-" + hex.EncodeToString(b[:])
		// Everything from here on is inert until the token ends it: content
		// cannot issue workflow commands.
		fmt.Fprintf(w, "::stop-commands::%s\n", m.token)
	}
	return m
}

// folds reports whether tool output is folded (and so shown whole).
func (m *ciMarkers) folds() bool { return m.ci == CIGitHub || m.ci == CIGitLab }

// command writes a live GitHub workflow command: commands are resumed for
// that one line and stopped again with a fresh token.
func (m *ciMarkers) command(cmd string) {
	fmt.Fprintf(m.w, "::%s::\n", m.token)
	m.w.WriteString(cmd)
	m.w.WriteByte('\n')
	var b [12]byte
	_, _ = rand.Read(b[:])
	m.token = "agentfmt-" + hex.EncodeToString(b[:])
	fmt.Fprintf(m.w, "::stop-commands::%s\n", m.token)
}

// content makes a content line safe for the CI log. With commands stopped
// it needs no change; the method is the single place to add escaping.
func (m *ciMarkers) content(s string) string { return s }

func escapeData(s string) string {
	s = strings.ReplaceAll(s, "%", "%25")
	s = strings.ReplaceAll(s, "\r", "%0D")
	return strings.ReplaceAll(s, "\n", "%0A")
}

func (m *ciMarkers) groupStart(title string) {
	title = strings.TrimSpace(oneLine(title))
	switch m.ci {
	case CIGitHub:
		m.command("::group::" + escapeData(TruncateRunes(title, 120)))
		m.open = true
	case CIGitLab:
		m.n++
		m.section = fmt.Sprintf("agentfmt_tool_%d", m.n)
		fmt.Fprintf(m.w, "\x1b[0Ksection_start:%d:%s[collapsed=true]\r\x1b[0K%s\n", time.Now().Unix(), m.section, TruncateRunes(title, 120))
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
		m.command("::endgroup::")
	case CIGitLab:
		fmt.Fprintf(m.w, "\x1b[0Ksection_end:%d:%s\r\x1b[0K\n", time.Now().Unix(), m.section)
	}
}

func (m *ciMarkers) warning(msg string) {
	if m.ci == CIGitHub {
		m.command("::warning::" + escapeData(msg))
	}
}

func (m *ciMarkers) errorAnnotation(msg string) {
	if m.ci == CIGitHub {
		m.command("::error::" + escapeData(strings.TrimSuffix(msg, ": ")))
	}
}

// finish resumes workflow commands at the end of output.
func (m *ciMarkers) finish() {
	m.groupEnd()
	if m.ci == CIGitHub && m.token != "" {
		fmt.Fprintf(m.w, "::%s::\n", m.token)
		m.token = ""
	}
}
