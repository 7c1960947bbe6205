package cursor

import (
	"slices"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// todoPlan emits a plan event when holder (a todo tool's args or result)
// carries a todos list. With "merge": true the list updates the known
// todos by id; otherwise it replaces them.
func (p *parser) todoPlan(l *parsers.Line, holder gjson.Result) error {
	todos := holder.Get("todos")
	if !todos.IsArray() {
		return nil
	}
	merge := holder.Get("merge").Bool()
	if !merge {
		p.todos, p.todoIDs = p.todos[:0], p.todoIDs[:0]
	}
	todos.ForEach(func(_, t gjson.Result) bool {
		e := streaming.PlanEntry{
			Text:     first(t, "content", "text", "title", "description"),
			Status:   todoStatus(t.Get("status")),
			Priority: strings.ToLower(t.Get("priority").Str),
		}
		id := t.Get("id").String()
		if merge && id != "" {
			if i := slices.Index(p.todoIDs, id); i >= 0 {
				if e.Text == "" {
					e.Text = p.todos[i].Text
				}
				p.todos[i] = e
				return true
			}
		}
		p.todos = append(p.todos, e)
		p.todoIDs = append(p.todoIDs, id)
		return true
	})
	if slices.Equal(p.todos, p.lastPlan) {
		return nil
	}
	p.lastPlan = append(p.lastPlan[:0], p.todos...)
	ev := p.out.New(streaming.KindPlan)
	ev.Entries = slices.Clone(p.todos)
	return p.out.Push()
}

// todoStatus normalises a todo status: "TODO_STATUS_IN_PROGRESS",
// "in_progress", 2 → "in_progress".
func todoStatus(v gjson.Result) string {
	if v.Type == gjson.Number {
		switch v.Int() {
		case 2:
			return "in_progress"
		case 3:
			return "completed"
		case 4:
			return "cancelled"
		}
		return "pending"
	}
	s := strings.ToLower(v.Str)
	s = strings.TrimPrefix(s, "todo_status_")
	s = strings.ReplaceAll(s, "-", "_")
	switch s {
	case "", "unspecified", "todo":
		return "pending"
	case "done", "complete":
		return "completed"
	case "inprogress", "active":
		return "in_progress"
	}
	return s
}
