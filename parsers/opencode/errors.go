package opencode

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// errorLine is a session error (API error, auth, aborted, output length).
// It does not stop the stream, but OpenCode exits 1 after any: the run's
// result will not be OK, whatever follows.
func (p *parser) errorLine(v gjson.Result) error {
	msg := errorMessage(v)
	if !p.run.failed {
		p.run.failed = true
		p.run.failMsg = msg
		if name := v.Get("name").String(); name != "" && !strings.HasPrefix(msg, name) {
			p.run.failMsg = name + ": " + msg
		}
	}
	e := p.out.New(streaming.KindError)
	e.Text, e.Fatal = msg, true
	return p.out.Push()
}

// errorMessage is error.data.message, falling back to error.name, with
// the HTTP status when there is one.
func errorMessage(v gjson.Result) string {
	if v.Type == gjson.String {
		if v.Str == "" {
			return "error"
		}
		return v.Str
	}
	msg := v.Get("data.message").String()
	if msg == "" {
		msg = v.Get("message").String()
	}
	if msg == "" {
		msg = v.Get("name").String()
	}
	if msg == "" {
		msg = parsers.Clip(v.Raw, 200)
	}
	if msg == "" {
		msg = "error"
	}
	if code := v.Get("data.statusCode"); code.Type == gjson.Number {
		msg = fmt.Sprintf("%s (HTTP %d)", msg, code.Int())
	}
	return msg
}

// done is the newest versions' last line: the session went idle, so the
// run is over whatever its last step said. Auto-rejected permissions are
// reported as a warning.
func (p *parser) done(l *parsers.Line) error {
	if err := p.closeMsg(); err != nil {
		return err
	}
	var names []string
	l.Get("rejected").ForEach(func(_, v gjson.Result) bool {
		names = append(names, v.String())
		return true
	})
	if len(names) > 0 {
		if err := p.out.Status("permissions auto-rejected: "+strings.Join(names, ", "), streaming.LevelWarning); err != nil {
			return err
		}
	}
	if p.run.ended {
		return nil
	}
	if !p.run.terminal {
		p.run.termReason = l.Str("reason")
	}
	return p.result()
}
