package cline

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// toolKind says which messages belong to an open tool call.
type toolKind uint8

const (
	toolFile    toolKind = iota // say/ask tool: file reads, edits, searches
	toolCommand                 // say/ask command, then command_output
	toolMCP                     // use_mcp_server, then mcp_server_response
	toolBrowser                 // browser_action(_launch), then browser_action_result
)

// commandTool is the name of a shell command call (Cline's tool name).
const commandTool = "execute_command"

// openTool is the tool call in progress. Cline runs one tool at a time and
// prints no end for it: a call ends when the agent moves on (the next
// message that is not its output), or at the result.
type openTool struct {
	id     string
	kind   toolKind
	outID  string // identity of the output message being streamed
	out    string // its text so far (Kilo re-prints it as it grows)
	hasOut bool
	nl     bool // the output shown so far ends with a newline
}

// continues reports a new message that belongs to the open call (its
// output) or that does not show the agent moving on (bookkeeping).
func (t *openTool) continues(m *msg) bool {
	switch m.sub {
	case "checkpoint_saved", "checkpoint_created", "task_progress":
		return true
	}
	switch t.kind {
	case toolCommand:
		return m.sub == "command_output" || m.sub == "shell_integration_warning"
	case toolMCP:
		return m.sub == "mcp_server_request_started" || m.sub == "mcp_server_response"
	case toolBrowser:
		return m.sub == "browser_action_result" || m.sub == "browser_session_status"
	case toolFile:
		return m.sub == "codebase_search_result"
	}
	return false
}

// startTool opens a tool call for a message, once.
func (p *parser) startTool(m *msg, st *entry, kind toolKind, name, title, input string) error {
	if st.started {
		return nil // an update of a call already shown (answered, re-printed)
	}
	st.started = true
	if p.tool != nil {
		if err := p.endTool(streaming.ToolOK); err != nil {
			return err
		}
	}
	p.sawAgent = true
	p.out.Ev = streaming.Event{Kind: streaming.KindToolStart, ID: m.id, Name: name, Title: title, Input: input}
	if err := p.out.Push(); err != nil {
		return err
	}
	p.tool = &openTool{id: m.id, kind: kind}
	return nil
}

// endTool ends the open call.
func (p *parser) endTool(status streaming.ToolStatus) error {
	t := p.tool
	p.tool = nil
	p.out.Ev = streaming.Event{Kind: streaming.KindToolEnd, ID: t.id, Status: status}
	return p.out.Push()
}

// output shows new output of the open call.
func (p *parser) output(text string) error {
	if text == "" {
		return nil
	}
	t := p.tool
	t.hasOut = true
	t.nl = strings.HasSuffix(text, "\n")
	p.out.Ev = streaming.Event{Kind: streaming.KindToolOutputDelta, ID: t.id, Text: text}
	return p.out.Push()
}

// fileTool is say/ask tool: JSON naming the tool with its path and diff or
// content. Asks wait for approval; in --auto/--yolo runs they are approved
// at once, so both are shown as a call, started when complete.
func (p *parser) fileTool(m *msg, st *entry) error {
	if m.partial {
		return nil
	}
	d := m.data
	name := d.Get("tool").String()
	if name == "" {
		name = "tool"
	}
	var input string
	if d.IsObject() {
		input = d.Raw
	} else {
		input = parsers.JSONString(m.text)
	}
	fresh := !st.started
	if err := p.startTool(m, st, toolFile, name, toolTitle(d), input); err != nil {
		return err
	}
	if fresh && listsResults(name) {
		// Search and listing tools carry their result as content.
		if err := p.output(d.Get("content").String()); err != nil {
			return err
		}
	}
	if todos := d.Get("todos"); todos.IsArray() {
		if entries := planEntries(m); len(entries) > 0 {
			return p.emitPlan(entries)
		}
	}
	return nil
}

// listsResults reports the tools whose content is their result (search
// hits, directory listings, code definitions) rather than their input.
func listsResults(name string) bool {
	return strings.HasPrefix(name, "search") || strings.HasPrefix(name, "list") ||
		name == "codebaseSearch" || name == "fetchInstructions"
}

// toolTitle is a one-line description of a file tool call.
func toolTitle(d gjson.Result) string {
	path := d.Get("path").String()
	if re := d.Get("regex").String(); re != "" {
		if path != "" {
			return re + " in " + path
		}
		return re
	}
	if path != "" {
		return path
	}
	if n := len(d.Get("batchFiles").Array()); n > 0 {
		return plural(n, "file")
	}
	for _, k := range []string{"command", "query", "url", "mode", "question"} {
		if s := d.Get(k).String(); s != "" {
			return parsers.Clip(parsers.FirstLine(s), 200)
		}
	}
	return ""
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// command is ask command (or Cline's say command when auto-approved): a
// shell command line, followed by its command_output messages.
func (p *parser) command(m *msg, st *entry) error {
	if m.partial {
		return nil
	}
	cmd := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m.text), commandApprovalFlag))
	return p.startTool(m, st, toolCommand, commandTool, cmd, `{"command":`+parsers.JSONString(cmd)+`}`)
}

// commandOutput is say/ask command_output. Kilo re-prints one message as
// the output grows (a snapshot of that message: same identity); Cline
// prints each chunk as a message of its own, sometimes several with the
// same timestamp. A text that extends the message's last one is growth;
// any other text is a new chunk, shown as it came, whatever it repeats (a
// command prints the same line as often as it likes).
func (p *parser) commandOutput(m *msg, st *entry) error {
	t := p.tool
	if t == nil || t.kind != toolCommand {
		if m.text == "" {
			return nil
		}
		// Output with no command before it (a stream joined mid-way).
		if err := p.startTool(m, st, toolCommand, commandTool, "", ""); err != nil {
			return err
		}
		t = p.tool
		if t == nil || t.id != m.id {
			return nil
		}
	}
	text := m.text
	var delta string
	switch {
	case t.outID == m.id && strings.HasPrefix(text, t.out):
		delta = text[len(t.out):]
	case t.outID == m.id && strings.HasPrefix(t.out, text):
		return nil // an older, shorter snapshot
	default:
		delta = text
		if delta != "" && t.hasOut && !t.nl && !strings.HasPrefix(delta, "\n") {
			delta = "\n" + delta
		}
		t.outID = m.id
	}
	t.out = text
	return p.output(delta)
}

// mcpRequest is use_mcp_server: an MCP tool call or resource read.
func (p *parser) mcpRequest(m *msg, st *entry) error {
	if m.partial {
		return nil
	}
	d := m.data
	server := d.Get("serverName").String()
	name := d.Get("toolName").String()
	title := ""
	if name == "" {
		name = "access_mcp_resource"
		title = d.Get("uri").String()
	}
	if server != "" {
		name = server + "." + name
	}
	input := d.Raw
	if args := d.Get("arguments").String(); args != "" && jsonscan.ValidString(args) {
		input = args
	}
	if input == "" {
		input = parsers.JSONString(m.text)
	}
	return p.startTool(m, st, toolMCP, parsers.CleanToolName(name), title, input)
}

// mcpResponse is say mcp_server_response: the MCP call's result.
func (p *parser) mcpResponse(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	if p.tool == nil || p.tool.kind != toolMCP {
		st.started = false
		if err := p.startTool(m, st, toolMCP, "mcp", "", ""); err != nil {
			return err
		}
	}
	if err := p.output(m.text); err != nil {
		return err
	}
	return p.endTool(streaming.ToolOK)
}

// browserLaunch is browser_action_launch: the URL to open.
func (p *parser) browserLaunch(m *msg, st *entry) error {
	if m.partial {
		return nil
	}
	url := strings.TrimSpace(m.text)
	input := `{"action":"launch","url":` + parsers.JSONString(url) + `}`
	return p.startTool(m, st, toolBrowser, "browser_action", "launch "+url, input)
}

// browserAction is say browser_action: a click, key press or scroll.
func (p *parser) browserAction(m *msg, st *entry) error {
	if m.partial {
		return nil
	}
	d := m.data
	title := d.Get("action").String()
	for _, k := range []string{"coordinate", "text"} {
		if s := d.Get(k).String(); s != "" {
			title += " " + parsers.Clip(parsers.FirstLine(s), 120)
			break
		}
	}
	input := d.Raw
	if input == "" {
		input = parsers.JSONString(m.text)
	}
	return p.startTool(m, st, toolBrowser, "browser_action", title, input)
}

// browserResult is say browser_action_result: console logs, the URL and a
// screenshot, which is summarised, never printed.
func (p *parser) browserResult(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	if p.tool == nil || p.tool.kind != toolBrowser {
		st.started = false
		if err := p.startTool(m, st, toolBrowser, "browser_action", "", ""); err != nil {
			return err
		}
	}
	d := m.data
	var parts []string
	if logs := strings.TrimSpace(d.Get("logs").String()); logs != "" {
		parts = append(parts, logs)
	}
	if u := d.Get("currentUrl").String(); u != "" {
		parts = append(parts, "URL: "+u)
	}
	if s := d.Get("screenshot").String(); s != "" {
		parts = append(parts, "screenshot "+dataURLSummary(s))
	}
	if !d.Exists() && m.text != "" {
		parts = append(parts, m.text)
	}
	if err := p.output(strings.Join(parts, "\n")); err != nil {
		return err
	}
	return p.endTool(streaming.ToolOK)
}

// searchResult is Kilo's codebase_search_result: the output of the
// codebaseSearch call before it.
func (p *parser) searchResult(m *msg, st *entry) error {
	if !once(m, st) || p.tool == nil {
		return nil
	}
	return p.output(parsers.Clip(m.text, 4000))
}
