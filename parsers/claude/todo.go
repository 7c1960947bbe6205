package claude

import (
	"strconv"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// todoTool is Claude's todo list tool: its input is the whole list.
const todoTool = "TodoWrite"

// todoPlan emits the plan event of a TodoWrite call, after its
// tool.start: one entry per todo (content, status, priority), the status
// mapped onto streaming's closed set by the decoder. Its ID is the call's,
// so that a renderer can show the list with the call.
func todoPlan(o *parsers.Out, id, name, input, parent string) error {
	if name != todoTool {
		return nil
	}
	todos := gjson.Get(input, "todos")
	if !todos.IsArray() {
		return nil
	}
	var entries []streaming.PlanEntry
	todos.ForEach(func(_, t gjson.Result) bool {
		text := t.Get("content").String()
		if text == "" {
			text = t.Get("activeForm").String()
		}
		entries = append(entries, streaming.PlanEntry{Text: text, Status: t.Get("status").String(), Priority: t.Get("priority").String()})
		return true
	})
	o.Ev = streaming.Event{Kind: streaming.KindPlan, ID: id, Entries: entries, Parent: parent}
	return o.Push()
}

// todoTitle is the title of a TodoWrite call: how many todos, how many
// done ("4 todos, 1 done"), so that the call's line says something.
func todoTitle(name, input string) string {
	if name != todoTool {
		return ""
	}
	todos := gjson.Get(input, "todos")
	if !todos.IsArray() {
		return ""
	}
	n, done := 0, 0
	todos.ForEach(func(_, t gjson.Result) bool {
		n++
		if t.Get("status").String() == "completed" {
			done++
		}
		return true
	})
	s := strconv.Itoa(n) + " todo"
	if n != 1 {
		s += "s"
	}
	return s + ", " + strconv.Itoa(done) + " done"
}
