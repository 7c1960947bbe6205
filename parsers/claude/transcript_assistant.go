package claude

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// A transcript's assistant records: one content block each (text,
// thinking, a tool call), grouped into messages by message.id.

func (t *transcript) assistant(r gjson.Result, n int, parent string) error {
	m := r.Get("message")
	id := m.Get("id").String()
	if id == "" {
		id = parsers.LineID("msg", n)
	}
	if id != t.msg {
		if err := t.stopMsg(); err != nil {
			return err
		}
		t.msg, t.msgP, t.block = strings.Clone(id), strings.Clone(parent), 0
		if err := t.out.Start(parsers.Msg{ID: t.msg, Role: streaming.RoleAssistant, Parent: t.msgP}); err != nil {
			return err
		}
	}
	apiErr := r.Get("isApiErrorMessage").Bool()
	var err error
	m.Get("content").ForEach(func(_, b gjson.Result) bool {
		err = t.block1(b, parent, apiErr)
		return err == nil
	})
	if err == nil && m.Get("content").Type == gjson.String {
		err = t.text(streaming.KindTextDelta, m.Get("content").Str, parent)
	}
	return err
}

// block1 handles one content block of an assistant record.
func (t *transcript) block1(raw gjson.Result, parent string, apiErr bool) error {
	b := readBlock(nil, raw.Raw)
	switch typ := b.str(b.typ); kindOf(typ) {
	case partText:
		text := b.str(b.text)
		if apiErr {
			ev := t.out.New(streaming.KindError)
			ev.Text = text
			if parent == "" {
				t.turn.Active, t.turn.Answered, t.turn.Failed = true, false, text
			}
			return t.out.Push()
		}
		if strings.TrimSpace(text) == "" {
			return nil
		}
		if parent == "" {
			t.turn.Active, t.turn.Failed = true, ""
			t.turn.Answered = len(t.open) == 0
		}
		return t.text(streaming.KindTextDelta, text, parent)
	case partThinking:
		return t.text(streaming.KindThinkingDelta, b.thinkingText(typ), parent)
	case partToolUse:
		id := b.str(b.id)
		ev := t.out.New(streaming.KindToolStart)
		ev.ID, ev.Parent = id, parent
		ev.Name = parsers.CleanToolName(b.str(b.name))
		ev.Input = inputOf(parsers.Value(b.input))
		ev.Title = callTitle(nil, ev.Name, ev.Input)
		t.open[strings.Clone(id)] = true
		if ev.Name == "Task" || ev.Name == "Agent" {
			t.tasks = append(t.tasks, strings.Clone(id))
		}
		if parent == "" {
			t.turn.Active, t.turn.Answered = true, false
		}
		if err := t.out.Push(); err != nil {
			return err
		}
		return todoPlan(&t.out, id, ev.Name, ev.Input, parent)
	case partServerResult:
		status, out := serverToolResult(nil, parsers.Value(b.content))
		return t.toolEnd(b.str(b.toolUseID), out, parent, status)
	}
	return nil
}

// text sends one block of the current message, whole.
func (t *transcript) text(kind streaming.Kind, text, parent string) error {
	if text == "" {
		return nil
	}
	t.block++
	return t.out.Text(parsers.Msg{ID: t.msg, Role: streaming.RoleAssistant, Parent: parent}, kind, t.block-1, text, streaming.Final)
}
