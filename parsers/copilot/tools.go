package copilot

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// toolStart is tool.execution_start: the call, with its arguments (an
// object; "[REDACTED]" in some captures, then left out).
func (p *parser) toolStart(l *parsers.Line, d *data) error {
	if err := p.closeThinking(); err != nil {
		return err
	}
	e := p.out.New(streaming.KindToolStart)
	e.ID = l.Text(d.toolCallID)
	e.Name = toolName(l, d)
	if strings.HasPrefix(d.arguments, "{") {
		e.Input = d.arguments
	}
	e.Title = l.Text(d.toolTitle)
	if strings.HasPrefix(d.shellToolInfo, "{") {
		// The shell command as the CLI displays it: the subject even when
		// the arguments are redacted. (A copy: the decoder copies no
		// Subject out of a borrowed line.)
		e.Subject = strings.Clone(l.Field(d.shellToolInfo, "displayCommand").String())
	}
	e.Parent = l.Text(d.parentToolCallID)
	return p.out.Push()
}

// toolName is the call's name; an MCP call is server.tool.
func toolName(l *parsers.Line, d *data) string {
	if s, t := l.Text(d.mcpServerName), l.Text(d.mcpToolName); s != "" && t != "" {
		return s + "." + t
	}
	if n := l.Text(d.toolName); n != "" {
		return parsers.CleanToolName(n)
	}
	return "tool"
}

// toolEnd is tool.execution_complete. success:false is a failed call (not
// a failed run). The output is the UI's detailedContent when present,
// else the content the model saw; a shell's exit status is the
// "<shellId: N completed with exit code X>" trailer of the content (or a
// shell_exit block), and the trailer is not shown as output. An edit's
// detailedContent is its diff.
func (p *parser) toolEnd(l *parsers.Line, d *data) error {
	e := p.out.New(streaming.KindToolEnd)
	e.ID = l.Text(d.toolCallID)
	if n := l.Text(d.toolName); n != "" {
		e.Name = toolName(l, d)
	}
	e.Status = streaming.ToolOK
	if d.success == "false" {
		e.Status = streaming.ToolError
	}
	var content, detailed string
	if strings.HasPrefix(d.result, "{") {
		content = redacted(l.Field(d.result, "content").String())
		detailed = redacted(l.Field(d.result, "detailedContent").String())
		if code, ok := shellExit(l, d.result); ok {
			e.ExitCode = streaming.IntPtr(code)
		}
	}
	if out, code, ok := cutExitTrailer(content); ok {
		content = out
		if e.ExitCode == nil {
			e.ExitCode = streaming.IntPtr(code)
		}
	}
	e.Output = content
	if detailed != "" {
		if looksDiff(detailed) {
			// Edits are not among the strings the decoder copies out
			// of a borrowed line.
			e.Edits = []streaming.FileEdit{diffEdit(strings.Clone(detailed))}
		} else {
			e.Output = detailed
		}
	}
	if e.Status == streaming.ToolError {
		msg := errString(l, d.errorText)
		if msg != "" && !strings.Contains(e.Output, msg) {
			if e.Output != "" && !strings.HasSuffix(e.Output, "\n") {
				e.Output += "\n"
			}
			e.Output += msg
		}
	}
	return p.out.Push()
}

// errString is an error field's text: a string, or an object's message.
func errString(l *parsers.Line, raw string) string {
	if strings.HasPrefix(raw, "{") {
		return l.Field(raw, "message").String()
	}
	return l.Text(raw)
}

// shellExit reads the exit code of a shell_exit (or terminal) block of
// result.contents.
func shellExit(l *parsers.Line, result string) (int, bool) {
	contents := l.FieldRaw(result, "contents")
	if !strings.HasPrefix(contents, "[") {
		return 0, false
	}
	for it := l.ElementsOf(contents); it.Next(); {
		v := it.Value()
		switch v.Get("type").Str {
		case "shell_exit", "terminal":
			if c := v.Get("exitCode"); c.Exists() {
				return int(c.Int()), true
			}
		}
	}
	return 0, false
}

const trailerHead, trailerMid = "<shellId: ", " completed with exit code "

// cutExitTrailer splits "…\n<shellId: 0 completed with exit code 2>" into
// the output before it and the code.
func cutExitTrailer(s string) (string, int, bool) {
	t := strings.TrimRight(s, " \r\n")
	if !strings.HasSuffix(t, ">") {
		return s, 0, false
	}
	i := strings.LastIndex(t, trailerHead)
	if i < 0 {
		return s, 0, false
	}
	body := t[i+len(trailerHead) : len(t)-1]
	_, num, ok := strings.Cut(body, trailerMid)
	if !ok {
		return s, 0, false
	}
	code, err := strconv.Atoi(strings.TrimSpace(num))
	if err != nil {
		return s, 0, false
	}
	return t[:i], code, true
}

// looksDiff reports a unified diff: a hunk header, or diff file headers.
func looksDiff(s string) bool {
	return strings.HasPrefix(s, "diff --git ") || strings.HasPrefix(s, "--- ") ||
		strings.HasPrefix(s, "@@ ") || strings.Contains(s, "\n@@ ")
}

// diffEdit is the edit a diff describes: its path from the +++ (or ---)
// header, created when the old side is /dev/null, deleted when the new
// side is.
func diffEdit(diff string) streaming.FileEdit {
	ed := streaming.FileEdit{Op: streaming.EditModify, Diff: diff}
	var oldPath, newPath string
	for line := range strings.Lines(diff) {
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasPrefix(line, "--- "):
			oldPath = diffPath(line[4:])
		case strings.HasPrefix(line, "+++ "):
			newPath = diffPath(line[4:])
		case strings.HasPrefix(line, "@@"):
			goto done
		}
	}
done:
	switch {
	case oldPath == "/dev/null":
		ed.Op, ed.Path = streaming.EditCreate, newPath
	case newPath == "/dev/null":
		ed.Op, ed.Path = streaming.EditDelete, oldPath
	case newPath != "":
		ed.Path = newPath
	default:
		ed.Path = oldPath
	}
	return ed
}

// diffPath is the path of a diff header: without a/ or b/, and without a
// tab-separated timestamp.
func diffPath(s string) string {
	s, _, _ = strings.Cut(s, "\t")
	s = strings.TrimSpace(s)
	if s == "/dev/null" {
		return s
	}
	for _, pre := range []string{"a/", "b/"} {
		if r, ok := strings.CutPrefix(s, pre); ok {
			return r
		}
	}
	return s
}

// tools is what Copilot's tool arguments mean: the keys that name a call's
// subject (bash command, view/edit/create path, grep and glob pattern,
// web_fetch url, task description and prompt). Edits are read by the
// parser itself, from the edit tool's result.
var tools = parsers.Tools{
	Subject: []string{"command", "path", "pattern", "url", "query", "description", "prompt", "name"},
}
