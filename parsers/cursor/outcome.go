package cursor

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// outcome is how a tool call ended.
type outcome struct {
	status streaming.ToolStatus
	output string
	exit   *int
	ms     int64
}

// outcomeOf reads tool_call.<variant>.result. Captures only ever show
// {"success":{…}}; Cursor's protocol also has error, failure (shell),
// rejected and timeout cases. Any key other than success and isBackground
// is a failure, shown with what it says.
func outcomeOf(c *call) outcome {
	res := c.v.Get("result")
	if !res.Exists() || res.Type == gjson.Null {
		return outcome{status: streaming.ToolOK}
	}
	if res.Type != gjson.JSON {
		return outcome{status: streaming.ToolOK, output: res.String()}
	}
	if s := res.Get("success"); s.Exists() {
		return success(c, s, res)
	}
	var o outcome
	found := false
	res.ForEach(func(k, v gjson.Result) bool {
		if k.Str == "isBackground" {
			return true
		}
		found = true
		o = failure(k.Str, v)
		return false
	})
	if !found {
		return outcome{status: streaming.ToolOK}
	}
	return o
}

// failure renders a result that is not success.
func failure(kind string, v gjson.Result) outcome {
	o := outcome{status: streaming.ToolError}
	switch kind {
	case "rejected", "permissionDenied", "denied", "userRejected":
		o.status = streaming.ToolDeclined
	}
	if v.Type == gjson.String {
		o.output = v.Str
	} else {
		var b strings.Builder
		for _, k := range [...]string{"error", "reason", "message", "errorMessage", "stderr", "stdout", "output"} {
			if s := v.Get(k); s.Type == gjson.String && s.Str != "" {
				if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
					b.WriteByte('\n')
				}
				b.WriteString(s.Str)
			}
		}
		o.output = b.String()
		if o.output == "" {
			o.output = parsers.JSONText(v)
		}
		o.exit = parsers.IntOrNil(v.Get("exitCode"))
		o.ms = v.Get("executionTime").Int()
	}
	if o.output == "" || o.output == "{}" {
		o.output = kind
	} else if kind != "error" && kind != "failure" {
		o.output = kind + ": " + o.output
	}
	return o
}

// success renders a successful result per tool variant.
func success(c *call, s, res gjson.Result) outcome {
	o := outcome{status: streaming.ToolOK}
	switch c.variant {
	case "shellToolCall":
		o.output = s.Get("interleavedOutput").Str
		if o.output == "" {
			o.output = joinOut(s.Get("stdout").Str, s.Get("stderr").Str)
		}
		o.exit = parsers.IntOrNil(s.Get("exitCode"))
		o.ms = s.Get("executionTime").Int()
		if (o.exit != nil && *o.exit != 0) || s.Get("signal").Str != "" {
			o.status = streaming.ToolError
		}
		if o.output == "" && res.Get("isBackground").Bool() {
			o.output = "(running in the background)"
		}
		return o
	case "readToolCall":
		o.output = first(s, "content", "output")
	case "writeToolCall":
		o.output = first(s, "message")
		if o.output == "" {
			o.output = "wrote " + first(s, "path") + counts(s, "linesCreated", "lines", "fileSize", "bytes")
		}
	case "editToolCall":
		o.output = first(s, "diffString", "message")
	case "deleteToolCall":
		o.output = first(s, "message")
		if o.output == "" {
			o.output = "deleted " + first(s, "deletedFile", "path")
		}
	case "lsToolCall":
		if t := s.Get("directoryTreeRoot"); t.IsObject() {
			var b strings.Builder
			tree(&b, t, 0)
			o.output = strings.TrimSuffix(b.String(), "\n")
		}
	case "grepToolCall":
		o.output = grepOutput(s)
	case "mcpToolCall":
		o.output = contentText(s.Get("content"))
		if s.Get("isError").Bool() {
			o.status = streaming.ToolError
		}
	case "todoToolCall", "updateTodosToolCall", "todoWriteToolCall":
		if todos := s.Get("todos"); todos.IsArray() {
			o.output = strconv.Itoa(len(todos.Array())) + " todos"
		}
	}
	if o.output == "" {
		o.output = genericText(s)
	}
	return o
}

func joinOut(stdout, stderr string) string {
	switch {
	case stderr == "":
		return stdout
	case stdout == "":
		return stderr
	case strings.HasSuffix(stdout, "\n"):
		return stdout + stderr
	}
	return stdout + "\n" + stderr
}

// counts renders " (12 lines, 340 bytes)" from pairs of key and unit.
func counts(s gjson.Result, kv ...string) string {
	var parts []string
	for i := 0; i+1 < len(kv); i += 2 {
		if v := s.Get(kv[i]); v.Exists() && v.Type != gjson.Null {
			parts = append(parts, v.String()+" "+kv[i+1])
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// genericText is the output of a success of a variant without its own
// rendering: a string field that looks like output, else the JSON.
func genericText(s gjson.Result) string {
	if s.Type == gjson.String {
		return s.Str
	}
	if t := first(s, "output", "content", "stdout", "text", "message", "result", "markdown", "results"); t != "" {
		return t
	}
	if c := s.Get("content"); c.IsArray() {
		if t := contentText(c); t != "" {
			return t
		}
	}
	if s.IsObject() && len(s.Map()) == 0 {
		return ""
	}
	return parsers.JSONText(s)
}

// contentText joins the text of MCP-style content items: {"type":"text",
// "text":…}, {"text":{"text":…}}, images as a summary.
func contentText(c gjson.Result) string {
	var b strings.Builder
	c.ForEach(func(_, it gjson.Result) bool {
		var t string
		switch {
		case it.Type == gjson.String:
			t = it.Str
		case it.Get("text").Type == gjson.String:
			t = it.Get("text").Str
		case it.Get("text.text").Type == gjson.String:
			t = it.Get("text.text").Str
		case it.Get("image").Exists() || it.Get("type").Str == "image":
			img := it.Get("image")
			if !img.Exists() {
				img = it
			}
			t = parsers.ImageSummary(first(img, "mimeType", "mediaType"), len(img.Get("data").Str))
		default:
			t = parsers.JSONText(it)
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(t)
		return true
	})
	return b.String()
}

// tree renders an ls directoryTreeRoot, indented, at most 4 levels deep.
func tree(b *strings.Builder, n gjson.Result, depth int) {
	name := n.Get("absPath").Str
	if depth > 0 {
		if i := strings.LastIndexByte(strings.TrimSuffix(name, "/"), '/'); i >= 0 {
			name = name[i+1:]
		}
	}
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteString(strings.TrimSuffix(name, "/"))
	b.WriteString("/\n")
	if depth >= 4 {
		return
	}
	n.Get("childrenDirs").ForEach(func(_, d gjson.Result) bool {
		tree(b, d, depth+1)
		return true
	})
	n.Get("childrenFiles").ForEach(func(_, f gjson.Result) bool {
		b.WriteString(strings.Repeat("  ", depth+1))
		if f.Type == gjson.String {
			b.WriteString(f.Str)
		} else {
			b.WriteString(f.Get("name").Str)
		}
		b.WriteByte('\n')
		return true
	})
}

// grepOutput renders workspaceResults: content matches as file:line:text,
// file lists, or counts.
func grepOutput(s gjson.Result) string {
	ws := s.Get("workspaceResults")
	if !ws.IsObject() {
		return ""
	}
	var b strings.Builder
	line := func(s string) {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	ws.ForEach(func(_, r gjson.Result) bool {
		switch {
		case r.Get("content.matches").IsArray():
			r.Get("content.matches").ForEach(func(_, fm gjson.Result) bool {
				file := fm.Get("file").Str
				fm.Get("matches").ForEach(func(_, m gjson.Result) bool {
					sep := ":"
					if m.Get("isContextLine").Bool() {
						sep = "-"
					}
					line(file + sep + m.Get("lineNumber").String() + sep + m.Get("content").Str)
					return true
				})
				return true
			})
		case r.Get("files.files").IsArray():
			r.Get("files.files").ForEach(func(_, f gjson.Result) bool {
				line(f.String())
				return true
			})
		case r.Get("count.counts").IsArray():
			r.Get("count.counts").ForEach(func(_, c gjson.Result) bool {
				line(c.Get("file").Str + ":" + c.Get("count").String())
				return true
			})
		default:
			line(parsers.JSONText(r))
		}
		return true
	})
	return strings.TrimSuffix(b.String(), "\n")
}
