package codex

import (
	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// The codex agent reads three families of input, told apart line by line:
// `codex exec --json` (parser), the app-server's JSON-RPC notifications
// (appServer, appserver.go) and the session rollout files of
// ~/.codex/sessions (rollout, rollout.go). dispatch routes each line to
// the reader of its family; each keeps the state of its own stream.

// detectAll scores a line for the codex agent: the exec formats (Detect),
// app-server messages and rollout lines.
func detectAll(l *parsers.Line) parsers.Confidence {
	if c := detectAppServer(l); c != parsers.No {
		return c
	}
	if c := detectRollout(l); c != parsers.No {
		return c
	}
	return Detect(l)
}

// dispatch is the codex agent's parser: it hands each line to the reader
// of its family, made on first use.
type dispatch struct {
	exec *parser
	app  *appServer
	roll *rollout
	last int // family of the last line: famExec, famApp, famRollout
}

const (
	famExec = iota
	famApp
	famRollout
)

func newDispatch() parsers.Parser { return &dispatch{} }

func (d *dispatch) Parse(l *parsers.Line, emit parsers.Emit) error {
	switch d.family(l) {
	case famApp:
		if d.app == nil {
			d.app = newAppServer()
		}
		d.last = famApp
		return d.app.Parse(l, emit)
	case famRollout:
		if d.roll == nil {
			d.roll = newRollout()
		}
		d.last = famRollout
		return d.roll.Parse(l, emit)
	}
	if d.exec == nil {
		d.exec = newParser()
	}
	d.last = famExec
	return d.exec.Parse(l, emit)
}

// family tells which reader a line is for. Lines that say little (a bare
// {"type":"message"} of an old rollout, an unknown method) stay with the
// family of the lines before them.
func (d *dispatch) family(l *parsers.Line) int {
	if l.Has("method") || appEnvelope(l).Exists() {
		return famApp
	}
	if l.Has("id") && (l.Has("result") || l.Has("error")) && !l.Has("type") && !l.Has("msg") {
		return famApp // a JSON-RPC response
	}
	if detectRollout(l) != parsers.No {
		return famRollout
	}
	if d.last == famRollout && !l.Has("msg") && !isExecType(l.Str("type")) {
		return famRollout
	}
	return famExec
}

// isExecType reports the types of `codex exec --json` (dotted, and the
// top-level error and request_user_input lines).
func isExecType(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] == '.' {
			return true
		}
	}
	return t == "error" || t == "request_user_input"
}

func (d *dispatch) Finish(emit parsers.Emit) error {
	if d.exec != nil {
		if err := d.exec.Finish(emit); err != nil {
			return err
		}
	}
	if d.app != nil {
		if err := d.app.Finish(emit); err != nil {
			return err
		}
	}
	if d.roll != nil {
		return d.roll.Finish(emit)
	}
	return nil
}

// editsOf turns a file change list ({path, kind, diff}; kind a string or
// {"type":…}) into file edits: an added file's diff is its content.
func editsOf(ch gjson.Result) []streaming.FileEdit {
	var edits []streaming.FileEdit
	ch.ForEach(func(k, c gjson.Result) bool {
		path := c.Get("path").String()
		if path == "" && k.Type == gjson.String {
			path = k.Str // {path: change} maps
		}
		kind := c.Get("kind")
		word := kind.String()
		if kind.IsObject() {
			word = kind.Get("type").String()
		}
		if word == "" {
			word = c.Get("type").String()
		}
		e := streaming.FileEdit{Path: path, Op: streaming.EditModify}
		diff := c.Get("diff").String()
		if diff == "" {
			diff = c.Get("unified_diff").String()
		}
		switch word {
		case "add", "create":
			e.Op = streaming.EditCreate
			e.New = diff
			if diff == "" {
				e.New = c.Get("content").String()
			}
		case "delete", "remove":
			e.Op = streaming.EditDelete
			e.Diff = diff
		default:
			e.Diff = diff
		}
		edits = append(edits, e)
		return true
	})
	return edits
}
