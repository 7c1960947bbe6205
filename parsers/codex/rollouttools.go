package codex

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// A rollout's tool calls (function_call, custom_tool_call,
// local_shell_call, web searches) and their outputs, matched by call_id.

// call starts a tool call.
func (r *rollout) call(l *parsers.Line, typ string, p gjson.Result) error {
	id := p.Get("call_id").String()
	if id == "" {
		id = lineID("call", p, l.N)
	}
	name := p.Get("name").String()
	ev := r.o.New(streaming.KindToolStart)
	ev.ID = id
	var args gjson.Result
	switch typ {
	case "function_call":
		a := p.Get("arguments")
		if a.Type == gjson.String {
			args = gjson.Parse(a.Str)
		} else {
			args = a
		}
	case "custom_tool_call":
		args = p.Get("input")
	case "local_shell_call":
		name = "shell"
		args = p.Get("action")
	}
	switch name {
	case "shell", "container.exec", "exec_command", "local_shell":
		ev.Name = nameShell
		cmd := args.Get("command")
		if !cmd.Exists() {
			cmd = args.Get("cmd")
		}
		ev.Title = cmd.String()
		if cmd.IsArray() {
			ev.Title = commandLine(cmd.Array())
		}
		wd := args.Get("workdir").String()
		if wd == "" {
			wd = args.Get("working_directory").String()
		}
		if ev.Title == "" {
			ev.Title = parsers.Clip(p.Get("arguments").String(), 80) // not JSON (a redacted copy)
		}
		ev.Input = jsonObject("command", parsers.JSONString(ev.Title), "cwd", quoted(wd))
	case "apply_patch":
		ev.Name = namePatch
		patch := args.String()
		if args.IsObject() {
			patch = args.Get("input").String()
		}
		ev.Edits = patchEdits(patch)
		if len(ev.Edits) > 0 {
			ev.Title = ev.Edits[0].Op + " " + ev.Edits[0].Path
			if n := len(ev.Edits); n > 1 {
				ev.Title += " (+" + itoa(n-1) + " more)"
			}
		}
		ev.Input = jsonObject("patch", parsers.JSONString(patch))
	default:
		ev.Name = parsers.CleanToolName(name)
		if ev.Name == "" {
			ev.Name = typ
		}
		if args.IsObject() || args.IsArray() {
			ev.Input = args.Raw
		} else if args.Exists() {
			ev.Input = parsers.JSONString(args.String())
		}
	}
	r.turnActive()
	if name == "update_plan" {
		// The plan is the call's whole point: shown as a plan, not a call.
		r.planCalls[strings.Clone(id)] = true
		pl := r.o.New(streaming.KindPlan)
		args.Get("plan").ForEach(func(_, s gjson.Result) bool {
			pl.Entries = append(pl.Entries, streaming.PlanEntry{Text: s.Get("step").String(), Status: parsers.PlanStatus(s.Get("status").String())})
			return true
		})
		return r.o.Push()
	}
	r.open = append(r.open, strings.Clone(id))
	return r.o.Push()
}

// commandLine shows an argv: the script of `bash -lc SCRIPT`, else the
// words joined as a shell would read them.
func commandLine(argv []gjson.Result) string {
	if len(argv) == 3 && (argv[1].String() == "-lc" || argv[1].String() == "-c") {
		return argv[2].String()
	}
	return shellJoin(argv)
}

// callOutput ends a tool call with its output.
func (r *rollout) callOutput(p gjson.Result) error {
	id := p.Get("call_id").String()
	if r.planCalls[id] {
		delete(r.planCalls, id)
		return nil
	}
	ev := r.o.New(streaming.KindToolEnd)
	ev.ID = id
	ev.Status = streaming.ToolOK
	o := p.Get("output")
	text := o.String()
	if o.IsObject() {
		text = contentText(o.Get("content"))
		if text == "" {
			text = contentText(o.Get("content_items"))
		}
	} else if strings.HasPrefix(strings.TrimSpace(text), "{") {
		// {"output":"…","metadata":{"exit_code":0,"duration_seconds":0.1}}
		if j := gjson.Parse(text); j.Get("output").Exists() {
			text = j.Get("output").String()
			ev.ExitCode = parsers.IntOrNil(j.Get("metadata.exit_code"))
			ev.DurationMS = int64(j.Get("metadata.duration_seconds").Float() * 1000)
		}
	}
	if ev.ExitCode == nil {
		ev.ExitCode = exitLine(text)
	}
	if ev.ExitCode != nil && *ev.ExitCode != 0 {
		ev.Status = streaming.ToolError
	}
	ev.Output = cleanOutput(execBody(text))
	for i, o := range r.open {
		if o == id {
			r.open = append(r.open[:i], r.open[i+1:]...)
			break
		}
	}
	r.turn.Answered, r.turn.Active = false, true
	return r.o.Push()
}

// execBody is the output of an exec_command result without the header
// Codex puts before it (Chunk ID, Wall time, exit code, token count).
func execBody(text string) string {
	if !strings.HasPrefix(text, "Chunk ID:") && !strings.HasPrefix(text, "Wall time:") {
		return text
	}
	if i := strings.Index(text, "\nOutput:\n"); i >= 0 && i < 512 {
		return text[i+len("\nOutput:\n"):]
	}
	return text
}

// exitLine reads "Process exited with code N" from an exec_command
// output (0.104 and later).
func exitLine(text string) *int {
	const mark = "Process exited with code "
	i := strings.Index(text, mark)
	if i < 0 || i > 512 {
		return nil
	}
	rest := text[i+len(mark):]
	j := 0
	for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || j == 0 && rest[j] == '-') {
		j++
	}
	n, err := strconv.Atoi(rest[:j])
	if err != nil {
		return nil
	}
	return &n
}
