package render

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/eventtext"
)

// fileHeading is "==> name <==".
func fileHeading(name string) string { return "==> " + name + " <==" }

// Heading writes "==> name <==" (bold), after a blank line unless it is
// the first thing written. The next session's header follows it without
// one.
func (p *plainRenderer) Heading(name string) error {
	p.endBlock()
	p.writeClosing()
	if p.printed {
		p.emitLine(nil, 0, "")
	}
	p.emitLine(nil, 0, p.p.Bold(fileHeading(p.clean(eventtext.OneLine(name)))))
	p.printed = false
	return p.err()
}

// Heading queues "==> name <==" (bold) in the scrollback's order.
func (r *prettyRenderer) Heading(name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil || r.finished {
		return r.err
	}
	r.endBlock()
	if r.printed {
		r.lines(0, "")
	}
	r.lines(0, r.p.Bold(fileHeading(r.clean(eventtext.OneLine(name)))))
	r.printed = false
	return r.err
}

// Heading writes a first-level heading naming the input; the input's
// first run gets its own heading under it.
func (m *markdownRenderer) Heading(name string) error {
	m.endBlock()
	m.begin(elemHeading)
	m.w.WriteString("# " + codeSpan(strings.TrimSpace(eventtext.OneLine(name))) + "\n")
	m.heading = false
	return m.err()
}
