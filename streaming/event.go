package streaming

import (
	"strings"
	"time"
)

// Kind names an event. The names are a public interface (docs/events.md):
// new kinds may be added, none renamed.
type Kind string

// The event kinds (docs/events.md), plus the few agentfmt adds.
const (
	KindSessionStart       Kind = "session.start"
	KindMessageStart       Kind = "message.start"
	KindMessageStop        Kind = "message.stop"
	KindTextDelta          Kind = "text.delta"
	KindTextRevision       Kind = "text.revision" // a block's text was rewritten: Text is the whole new text
	KindTextSentence       Kind = "text.sentence" // --sentences: a complete sentence of a block
	KindThinkingDelta      Kind = "thinking.delta"
	KindThinkingRevision   Kind = "thinking.revision"
	KindToolStart          Kind = "tool.start"
	KindToolInputDelta     Kind = "tool.input.delta"
	KindToolOutputDelta    Kind = "tool.output.delta"
	KindToolEnd            Kind = "tool.end"
	KindPlan               Kind = "plan"
	KindPermissionRequest  Kind = "permission.request"
	KindPermissionResponse Kind = "permission.response"
	KindModeChange         Kind = "mode.change"
	KindStatus             Kind = "status"
	KindUsage              Kind = "usage"
	KindError              Kind = "error"
	KindResult             Kind = "result"
	KindRaw                Kind = "raw"
	KindUnknown            Kind = "unknown"
	KindNotice             Kind = "notice"
	// KindStderr is a line the agent wrote to its stderr ('agentfmt run'
	// shows it in place): Text is the line.
	KindStderr Kind = "stderr"
	// KindBlockStop says a text or thinking block is final: no more of its
	// text follows (BlockKind says which kind of block).
	KindBlockStop Kind = "block.stop"
)

// IsText reports whether the kind carries block text that the session
// de-duplicates (assistant text and thinking).
func (k Kind) IsText() bool { return k == KindTextDelta || k == KindThinkingDelta }

// Mode says how a parser means the Text of a text-like event (text.delta,
// thinking.delta, tool.output.delta): which of the Session's Push,
// Snapshot and Final it hands the event to. It is not part of the event:
// downstream of the Session every text-like event is a delta.
type Mode uint8

const (
	// Delta is new text to append.
	Delta Mode = iota
	// Snapshot is the whole block so far (cumulative chunks).
	Snapshot
	// Final is the complete block, sent after (or instead of) streaming.
	Final
	// Restate is the next piece of the agent repeating the current block
	// (the block that showed text last) of the message Event.Restates
	// names: a consolidated restatement of what it streamed, an echo of
	// the prompt it was sent. What is not a repetition goes to the event's
	// own message and block (see Session.Restate).
	Restate
)

func (m Mode) String() string {
	switch m {
	case Snapshot:
		return "snapshot"
	case Final:
		return "final"
	case Restate:
		return "restatement"
	}
	return "delta"
}

// ToolStatus is how a tool call ended.
type ToolStatus string

// Tool call outcomes.
const (
	ToolOK         ToolStatus = "ok"
	ToolError      ToolStatus = "error"
	ToolDeclined   ToolStatus = "declined"
	ToolIncomplete ToolStatus = "incomplete"
)

// Role of a message's author.
const (
	RoleAssistant = "assistant"
	RoleUser      = "user"
)

// Origin of a run that no prompt began (Event.Origin).
const (
	OriginClear            = "clear"             // /clear: a new conversation
	OriginTaskNotification = "task-notification" // the agent began a turn when a background task ended
)

// Level of a status or error event: what a CI renderer turns into a
// warning annotation, and what is chatter (verbose: a person sees it only
// with --verbose).
const (
	LevelVerbose = "verbose"
	LevelInfo    = "info"
	LevelWarning = "warning"
)

// Usage is token and cost accounting as the agent reports it. Some agents
// report running totals (Codex): it is shown, never added up.
type Usage struct {
	InputTokens      int64
	OutputTokens     int64
	CacheReadTokens  int64
	CacheWriteTokens int64
	CostUSD          float64
	HasCost          bool
	// ContextWindow is the model's context window in tokens, when the
	// agent reports it (0: unknown).
	ContextWindow int64
}

// Total is input plus output tokens.
func (u Usage) Total() int64 { return u.InputTokens + u.OutputTokens }

// Plan entry statuses: a closed set. Parsers map their agent's words onto
// it (parsers.PlanStatus); renderers read nothing else.
const (
	PlanPending    = "pending"
	PlanInProgress = "in_progress"
	PlanCompleted  = "completed"
	PlanCancelled  = "cancelled"
)

// PlanEntry is one item of a plan or todo list.
type PlanEntry struct {
	Text     string
	Status   string // one of the Plan* statuses
	Priority string
}

// File edit operations.
const (
	EditModify = "modify"
	EditCreate = "create"
	EditDelete = "delete"
)

// FileEdit is one file change a tool call makes, normalised by the parser:
// either the old and new text of the changed region (Old empty for a new
// file), or a unified diff as the agent sent it (Diff), or both.
type FileEdit struct {
	Path string
	Op   string // EditModify, EditCreate, EditDelete
	// To is, for an edit that renames the file, its new path (Path is
	// the old one), when the agent says so.
	To   string
	Old  string
	New  string
	Diff string // a unified diff (hunks, with or without file headers)
}

// PermissionOption is one choice offered by a permission request.
type PermissionOption struct {
	ID   string
	Name string
	Kind string
}

// Event is one normalized lifecycle event. One struct serves every kind;
// each kind uses the fields documented in docs/events.md. Handlers receive
// a pointer that is valid only for the duration of the call.
type Event struct {
	Kind  Kind
	Agent string    // parser name: claude, codex, …
	Line  int       // 1-based input line this came from (0: synthesized at EOF)
	Time  time.Time // event time when the agent gives one
	// Stream names the source of the event when several are followed at
	// once (--follow A B, watch): a short stable tag such as
	// "claude·1a2b" or a file's name. Empty with one stream. The session
	// never sets it; whoever joins the streams does.
	Stream string

	// session.start
	SessionID string
	Model     string
	CWD       string
	Tools     []string

	// messages and blocks
	Message string // message id
	Role    string // assistant, user
	Block   int    // block index, scoped to the message
	// Part is a block's own id, for agents that name their blocks
	// (OpenCode's part ids). A parser that sets it leaves Block alone: the
	// session numbers a message's parts in the order they first come, and
	// the events a Handler receives carry both. A parser names all the
	// blocks of a message this way, or none.
	Part   string
	Parent string // subagent: the tool call id that started it
	// BlockKind is the kind of block a block.stop ends: KindTextDelta or
	// KindThinkingDelta.
	BlockKind Kind
	// Restates is, on a text event a parser hands over with Restate, the
	// id of the open message whose current block the text may repeat (the
	// event's own message, or the one before it). The session never
	// passes it on.
	Restates string

	// Text is the payload of text-like kinds, status, notice, raw and error
	// (message) events, and the final answer of a result.
	Text string

	// tools and permissions
	ID   string // tool call id, permission request id
	Name string // tool name (MCP prefixes cleaned), permission tool
	// Category is what kind of tool a call's is (tool.start, tool.end),
	// from one table for every agent: "read", "edit", "command",
	// "search", "fetch", "task", "plan", "ask" or "other".
	Category   string
	Input      string     // tool input as JSON text
	Title      string     // a human title for the call, when the agent gives one; for session.start, what the run is (a subagent's own transcript)
	Subject    string     // what the call is about: its command, path, pattern (filled by the parsers)
	Edits      []FileEdit // file changes the call makes (tool.start or tool.end)
	Status     ToolStatus // tool.end
	Output     string     // tool.end: the whole output
	ExitCode   *int       // tool.end
	DurationMS int64      // tool.end, result

	// Display is the output as a person reads it (tool.end), filled by the
	// parser when the agent wraps what the tool printed: without the
	// <system-reminder> blocks Claude Code appends to a file it read, or
	// the Command:/Directory:/…/Process Group PGID: frame of a Gemini shell
	// result. Empty when Output is all there is to read. json shows Output
	// only, as it came.
	Display string

	// plan, permissions, modes
	Entries []PlanEntry
	Options []PermissionOption
	Choice  string
	From    string
	To      string

	// usage and result
	Usage *Usage
	Level string // status, error: info or warning
	Fatal bool   // error
	OK    bool   // result
	Turns int    // result
	// Reason says why a result is not OK, or why a run ended (subtype,
	// terminal reason, stop reason).
	Reason string
	// Models names the models that answered the run (result), the main
	// one first, when the agent reports them: the session's model may be
	// a router's alias (Gemini's auto-gemini-3).
	Models []string
	// Origin says what began a run that no prompt began (result):
	// OriginClear, OriginTaskNotification, or the agent's own word.
	Origin string

	// Type is the wire type of an unknown event.
	Type string
}

// IntPtr returns a pointer to n, for ExitCode.
func IntPtr(n int) *int { return &n }

// Clone returns a copy of ev that shares no memory with it. An event's
// strings are valid only during Handle: a Handler that keeps an event
// keeps a clone, or copies the fields it keeps.
func (ev *Event) Clone() Event {
	c := *ev
	c.Kind, c.Status = Kind(strings.Clone(string(c.Kind))), ToolStatus(strings.Clone(string(c.Status)))
	c.BlockKind = Kind(strings.Clone(string(c.BlockKind)))
	for _, s := range [...]*string{&c.Agent, &c.Restates, &c.Stream, &c.SessionID, &c.Model, &c.CWD, &c.Message, &c.Role, &c.Parent,
		&c.Part, &c.Text, &c.ID, &c.Name, &c.Category, &c.Input, &c.Title, &c.Subject, &c.Output, &c.Display, &c.Choice, &c.From, &c.To,
		&c.Level, &c.Reason, &c.Type, &c.Origin} {
		*s = strings.Clone(*s)
	}
	if c.Tools != nil {
		c.Tools = make([]string, len(ev.Tools))
		for i, t := range ev.Tools {
			c.Tools[i] = strings.Clone(t)
		}
	}
	if c.Edits != nil {
		c.Edits = CloneEdits(ev.Edits)
	}
	if c.Models != nil {
		c.Models = make([]string, len(ev.Models))
		for i, m := range ev.Models {
			c.Models[i] = strings.Clone(m)
		}
	}
	if c.Entries != nil {
		c.Entries = make([]PlanEntry, len(ev.Entries))
		for i, e := range ev.Entries {
			c.Entries[i] = PlanEntry{Text: strings.Clone(e.Text), Status: strings.Clone(e.Status),
				Priority: strings.Clone(e.Priority)}
		}
	}
	if c.Options != nil {
		c.Options = make([]PermissionOption, len(ev.Options))
		for i, o := range ev.Options {
			c.Options[i] = PermissionOption{ID: strings.Clone(o.ID), Name: strings.Clone(o.Name), Kind: strings.Clone(o.Kind)}
		}
	}
	if ev.ExitCode != nil {
		x := *ev.ExitCode
		c.ExitCode = &x
	}
	if ev.Usage != nil {
		u := *ev.Usage
		c.Usage = &u
	}
	return c
}

// CloneEdits returns a copy of es that shares no memory with it (nil for
// none): what a Handler keeps of an event's Edits.
func CloneEdits(es []FileEdit) []FileEdit {
	if len(es) == 0 {
		return nil
	}
	out := make([]FileEdit, len(es))
	for i, e := range es {
		out[i] = FileEdit{Path: strings.Clone(e.Path), Op: strings.Clone(e.Op), To: strings.Clone(e.To), Old: strings.Clone(e.Old),
			New: strings.Clone(e.New), Diff: strings.Clone(e.Diff)}
	}
	return out
}
