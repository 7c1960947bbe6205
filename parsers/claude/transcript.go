package claude

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Claude Code's session transcripts (~/.claude/projects/<dir>/<session>.jsonl
// and the subagent files beside them) hold the same Anthropic messages as
// stream-json, one record per content block, in an envelope of camelCase
// keys (sessionId, parentUuid, isSidechain, uuid, timestamp), with
// bookkeeping records and no result line. See
// docs/formats/claude-transcript.md. The transcript reader keeps no
// text: only which message is being written, which tool calls are open,
// and where the last turn stands (for the exit status: a turn finished
// when the assistant had the last word, failed on an API error or an
// interruption, and is still running otherwise).

// bookkeeping are the transcript's record types outside the conversation.
var bookkeeping = map[string]bool{
	"summary": true, "file-history-snapshot": true, "queue-operation": true, "last-prompt": true,
	"pr-link": true, "custom-title": true, "ai-title": true, "agent-name": true, "tag": true,
	"mode": true, "permission-mode": true, "worktree-state": true, "progress": true, "attachment": true,
}

// detectTranscript scores a line: the envelope (sessionId with parentUuid
// or isSidechain; stream-json says session_id) or a bookkeeping record
// with its own keys is decisive.
func detectTranscript(l *parsers.Line) parsers.Confidence {
	if l.Has("session_id") {
		return parsers.No
	}
	t := l.Str("type")
	if l.Has("sessionId") && (l.Has("parentUuid") || l.Has("isSidechain")) {
		if t != "" {
			return parsers.Decisive
		}
		return parsers.No
	}
	if bookkeeping[t] && (l.Has("leafUuid") || l.Has("messageId") || l.Has("sessionId") || l.Has("uuid")) {
		return parsers.Decisive
	}
	return parsers.No
}

// transcript is the state of one transcript file.
type transcript struct {
	out parsers.Out

	sid, cwd string // the session, for the start of later turns
	started  bool   // a session.start was sent
	turn     parsers.Turns
	over     parsers.StartsOver // opened at the run's first prompt

	msg   string // the assistant message being written, and its blocks so far
	msgP  string // its parent
	block int

	open  map[string]bool // tool calls started and not ended
	tasks []string        // open Task/Agent calls, newest last: the parent of inline sidechains

	// agent is the subagent whose own transcript the run is (its records'
	// agentId), "" for a main conversation: its records are the run's,
	// none hangs under a Task call.
	agent string
}

func newTranscript() *transcript { return &transcript{open: map[string]bool{}} }

func (t *transcript) Parse(l *parsers.Line, emit parsers.Emit) error {
	t.out.Emit, t.out.Time = emit, parsers.TimeOf(l.Get("timestamp"))
	return t.record(gjson.Parse(l.JSON), l.N, "")
}

// record handles one record; parent is the Task call a mirrored subagent
// record (progress/agent_progress) belongs to.
func (t *transcript) record(r gjson.Result, n int, parent string) error {
	typ := r.Get("type").String()
	if t.started && parent == "" && typ == "user" && isRoot(r) && t.over.At("") {
		// The file starts over (one transcript twice, or two
		// concatenated): a new run, where the session scopes identity.
		if err := t.restart(); err != nil {
			return err
		}
	}
	side := r.Get("isSidechain").Bool()
	conversation := typ == "user" || typ == "assistant" || typ == "system"
	if a := r.Get("agentId"); parent == "" && side && conversation && a.Type == gjson.String && a.Str != t.agent {
		// A subagent's own transcript (agent-<id>.jsonl): a run of its
		// own, after whatever the input held before it.
		if t.started {
			if err := t.restart(); err != nil {
				return err
			}
		}
		t.agent = strings.Clone(a.Str)
	}
	if !t.started && r.Get("sessionId").Exists() && conversation {
		t.sid = strings.Clone(r.Get("sessionId").String())
		t.cwd = strings.Clone(r.Get("cwd").String())
		if err := t.start(); err != nil {
			return err
		}
	}
	if parent == "" && side && t.agent == "" && len(t.tasks) > 0 {
		// An inline sidechain (1.0.x): the subagent of the last Task call.
		parent = t.tasks[len(t.tasks)-1]
	}
	switch typ {
	case "assistant":
		return t.assistant(r, n, parent)
	case "user":
		return t.user(r, n, parent)
	case "system":
		return t.system(r)
	case "progress":
		if r.Get("data.type").String() == "agent_progress" {
			if m := r.Get("data.message"); m.IsObject() {
				p := r.Get("parentToolUseID").String()
				if p == "" {
					p = parent
				}
				return t.record(m, n, p)
			}
		}
		return nil // hook, bash, search progress: what the results say again
	}
	if bookkeeping[typ] {
		return nil
	}
	return t.out.Unknown(typ, r.Raw)
}

// isRoot reports whether r is the first record of a conversation: on the
// main chain, with a null parentUuid (a sidechain's first record and a
// compaction boundary have one too, but are not main-chain user records).
func isRoot(r gjson.Result) bool {
	p := r.Get("parentUuid")
	return p.Exists() && p.Type == gjson.Null && !r.Get("isSidechain").Bool()
}

// restart ends the run the file held so far (its finished turn gets its
// result; what is left open the session ends as incomplete) and forgets
// its calls, so that the next record begins a run.
func (t *transcript) restart() error {
	if err := t.closeTurn(); err != nil {
		return err
	}
	if err := t.stopMsg(); err != nil {
		return err
	}
	clear(t.open)
	t.tasks = t.tasks[:0]
	t.started, t.agent = false, ""
	t.turn.Reset()
	return nil
}

func (t *transcript) start() error {
	t.started, t.over = true, parsers.StartsOver{}
	t.turn.Run()
	ev := t.out.New(streaming.KindSessionStart)
	ev.SessionID, ev.CWD = t.sid, t.cwd
	if t.agent != "" {
		ev.Title = "subagent " + t.agent
	}
	return t.out.Push()
}

// stopMsg ends the assistant message being written.
func (t *transcript) stopMsg() error {
	if t.msg == "" {
		return nil
	}
	m := parsers.Msg{ID: t.msg, Role: streaming.RoleAssistant, Parent: t.msgP}
	t.msg, t.msgP = "", ""
	return t.out.Stop(m)
}

func (t *transcript) system(r gjson.Result) error {
	switch r.Get("subtype").String() {
	case "compact_boundary":
		msg := "conversation compacted"
		if tr := r.Get("compactMetadata.trigger").String(); tr != "" {
			msg += " (" + tr
			if n := r.Get("compactMetadata.preTokens").Int(); n > 0 {
				msg += ", " + strconv.FormatInt(n, 10) + " tokens before"
			}
			msg += ")"
		}
		return t.out.Status(msg, streaming.LevelInfo)
	case "microcompact_boundary":
		return t.out.Status("context microcompacted", streaming.LevelInfo)
	case "turn_duration":
		return t.closeTurn()
	case "api_error":
		msg := "API error"
		if a := r.Get("retryAttempt"); a.Exists() {
			msg += ", retry " + a.String() + "/" + r.Get("maxRetries").String()
		}
		return t.out.Status(msg, streaming.LevelWarning)
	case "local_command":
		c := r.Get("content").String()
		if strings.Contains(c, "<command-name>") {
			return t.out.Status(commandLine(c), streaming.LevelInfo)
		}
		return t.out.Status(stripTags(c), streaming.LevelInfo)
	case "stop_hook_summary":
		return nil
	}
	level := streaming.LevelInfo
	if r.Get("level").String() == "error" || r.Get("level").String() == "warning" {
		level = streaming.LevelWarning
	}
	return t.out.Status(r.Get("content").String(), level)
}

// newTurn begins a turn at a typed prompt: the turn before it ends.
func (t *transcript) newTurn() error {
	if err := t.closeTurn(); err != nil {
		return err
	}
	if t.turn.Resulted {
		if err := t.start(); err != nil {
			return err
		}
	}
	t.turn.Begin()
	t.over.OpenedAny()
	return nil
}

// closeTurn ends the current turn with a result when it finished (the
// assistant had the last word) or failed; a turn still running is left
// open.
func (t *transcript) closeTurn() error {
	ok, due := t.turn.Due(len(t.open))
	if !due {
		return nil
	}
	if err := t.stopMsg(); err != nil {
		return err
	}
	return t.turn.Result(&t.out, ok)
}

// Finish ends the file: the last turn's outcome, if it has one.
func (t *transcript) Finish(emit parsers.Emit) error {
	t.out.Emit = emit
	return t.closeTurn()
}
