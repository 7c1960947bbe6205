package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Tool names for Codex's built-in item types (MCP calls are server.tool).
const (
	nameShell     = "shell"
	namePatch     = "apply_patch"
	nameWebSearch = "web_search"
)

// toolItem handles the items that are tool calls (see describe). The
// first state seen starts the call (items of older builds arrive
// completed only); item.completed ends it.
func (p *parser) toolItem(k string, kind itemKind, typ string, it *parsers.Object, phase string) error {
	t := p.open[k]
	fresh := t == nil // started by this state
	if fresh {
		t = &tool{}
		p.open[k] = t
		p.order = append(p.order, k)
		ev := p.out.New(streaming.KindToolStart)
		ev.ID = k
		describe(&execSpelling, ev, kind, typ, it)
		t.name, t.title, t.input = ev.Name, ev.Title, ev.Input
		if err := p.out.Push(); err != nil {
			return err
		}
	}
	if phase != "item.completed" {
		if kind == itemCommand {
			// aggregated_output is cumulative: a snapshot of the output.
			if out := commandOutput(&execSpelling, it); out != "" {
				return p.outputSnapshot(k, t, cleanOutput(out))
			}
		}
		return nil
	}
	// Later states may say more (web_search gets its query on
	// completion; a file_change is revised): the end says what the
	// completed item does.
	ev := streaming.Event{Kind: streaming.KindToolEnd, ID: k, Name: t.name, Title: t.title, Input: t.input}
	if !fresh {
		describe(&execSpelling, &ev, kind, typ, it)
	}
	describeEnd(&execSpelling, &ev, kind, it)
	if kind == itemCommand && t.streamed && ev.Output != "" {
		if err := p.outputSnapshot(k, t, ev.Output); err != nil {
			return err
		}
	}
	p.closeTool(k)
	p.out.Ev = ev
	return p.out.Push()
}

func (p *parser) outputSnapshot(k string, t *tool, out string) error {
	t.streamed = true
	ev := p.out.New(streaming.KindToolOutputDelta)
	ev.ID = k
	ev.Text = out
	return p.out.Snapshot()
}

// commandStatus: failed and declined as said; a completed command with a
// non-zero exit failed; one completed without an exit code was cut off at
// the end of the turn (older builds force-complete running commands).
func commandStatus(status string, exit *int) streaming.ToolStatus {
	switch status {
	case "failed":
		return streaming.ToolError
	case "declined":
		return streaming.ToolDeclined
	case "in_progress":
		return streaming.ToolIncomplete
	}
	if exit == nil {
		if status == "completed" {
			return streaming.ToolIncomplete
		}
		return streaming.ToolOK
	}
	if *exit != 0 {
		return streaming.ToolError
	}
	return streaming.ToolOK
}

// toolStatus maps an item status; def is used when there is none.
func toolStatus(status string, def streaming.ToolStatus) streaming.ToolStatus {
	switch status {
	case "completed", "success", "succeeded", "ok":
		return streaming.ToolOK
	case "failed", "error", "errored":
		return streaming.ToolError
	case "declined", "rejected":
		return streaming.ToolDeclined
	case "in_progress", "pending", "running", "interrupted", "cancelled":
		return streaming.ToolIncomplete
	}
	return def
}

// changeList is a file_change's output: one "kind path" line per change,
// each followed by its diff when the build sends one.
func changeList(ch gjson.Result) string {
	var b strings.Builder
	ch.ForEach(func(_, c gjson.Result) bool {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		kind := c.Get("kind")
		k := kind.String()
		if kind.IsObject() { // newer builds: {"type":"update","move_path":…}
			k = kind.Get("type").String()
		}
		if k == "" {
			k = "change"
		}
		b.WriteString(k)
		b.WriteByte(' ')
		b.WriteString(c.Get("path").String())
		if mv := kind.Get("move_path").String(); mv != "" {
			b.WriteString(" → ")
			b.WriteString(mv)
		}
		if d := c.Get("diff").String(); d != "" {
			b.WriteByte('\n')
			b.WriteString(strings.TrimSuffix(cleanOutput(d), "\n"))
		}
		return true
	})
	return b.String()
}

// changeTitle names a file change: "update /a/b.go", or "update /a/b.go
// (+2 more)".
func changeTitle(ch gjson.Result) string {
	arr := ch.Array()
	if len(arr) == 0 {
		return ""
	}
	k := arr[0].Get("kind")
	kind := k.String()
	if k.IsObject() {
		kind = k.Get("type").String()
	}
	title := strings.TrimSpace(kind + " " + arr[0].Get("path").String())
	if len(arr) > 1 {
		title += " (+" + itoa(len(arr)-1) + " more)"
	}
	return title
}

// agentStates is a collab_tool_call's output: one line per agent, its
// status and last message.
func agentStates(states gjson.Result) string {
	var lines []string
	states.ForEach(func(id, s gjson.Result) bool {
		line := id.String() + ": " + s.Get("status").String()
		if m := s.Get("message").String(); m != "" {
			line += " — " + m
		}
		lines = append(lines, line)
		return true
	})
	return strings.Join(lines, "\n")
}
