package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// item handles item.started, item.updated and item.completed. An item's
// id is its message or tool call id; the session, which scopes ids to
// their run, drops a completed item sent again.
func (p *parser) item(l *parsers.Line, phase string) error {
	it := p.it.Reset(l.Get("item").Raw) // its fields, read once
	if !it.IsObject() {
		return p.unknown(l, phase)
	}
	p.active = true
	typ := it.Get("type").String()
	if typ == "" {
		typ = it.Get("item_type").String() // 0.42 experimental
	}
	// gjson returns the first "id": the outer item id even in web_search
	// items, which repeat the key with the inner call id.
	id := it.Get("id").String()
	if id == "" {
		id = "item@" + itoa(l.N)
	}
	k := p.key(id)
	switch kind := itemKinds[typ]; kind {
	case itemAgentMessage, itemPlan:
		return p.textItem(k, streaming.KindTextDelta, itemText(it), phase)
	case itemReasoning:
		return p.textItem(k, streaming.KindThinkingDelta, itemText(it), phase)
	case itemTodoList:
		return p.todoList(it)
	case itemError:
		return p.errorItem(it)
	default:
		if kind.isTool() && kind != itemDynamicCall {
			return p.toolItem(k, kind, typ, it, phase)
		}
	}
	return p.unknown(l, phase+"/"+typ)
}

// itemText is an item's text; reasoning items of some builds give
// summary parts instead.
func itemText(it *parsers.Object) string {
	if t := it.Get("text"); t.Exists() {
		return t.String()
	}
	s := it.Get("summary")
	if s.Type == gjson.String {
		return s.Str
	}
	var parts []string
	s.ForEach(func(_, v gjson.Result) bool {
		if v.Type == gjson.String {
			parts = append(parts, v.Str)
		} else if t := v.Get("text"); t.Exists() {
			parts = append(parts, t.String())
		}
		return true
	})
	return strings.Join(parts, "\n")
}

// textItem shows an agent_message, reasoning or plan item as a message of
// its own: updates are snapshots, the completed item is the final text.
// Only item.started sends a message.start (which resets a
// message): an item that arrives updated or completed opens its message
// in the session, and the same item completed again is a final for a
// message that stopped, which the session drops.
func (p *parser) textItem(k string, kind streaming.Kind, text, phase string) error {
	if phase == "item.started" && !p.msgs[k] {
		if err := p.messageStart(k, streaming.RoleAssistant); err != nil {
			return err
		}
	}
	completed := phase == "item.completed"
	if text != "" {
		p.msgs[k] = true
		mode := streaming.Snapshot
		if completed {
			mode = streaming.Final
		}
		if err := p.out.Text(parsers.Msg{ID: k, Role: streaming.RoleAssistant}, kind, 0, text, mode); err != nil {
			return err
		}
	}
	if !completed || !p.msgs[k] {
		return nil // an empty reasoning summary, never started: nothing to show
	}
	return p.messageStop(k, streaming.RoleAssistant)
}

func (p *parser) messageStart(k, role string) error {
	p.msgs[k] = true
	return p.out.Start(parsers.Msg{ID: k, Role: role})
}

func (p *parser) messageStop(k, role string) error {
	delete(p.msgs, k)
	return p.out.Stop(parsers.Msg{ID: k, Role: role})
}

// planDelta handles item.plan.delta: plan-mode text streamed before its
// plan item completes.
func (p *parser) planDelta(l *parsers.Line) error {
	id := l.Str("item_id")
	if id == "" {
		id = "plan"
	}
	k := p.key(id)
	p.active = true
	d := l.Get("delta").String()
	if d == "" {
		return nil
	}
	if !p.msgs[k] {
		if err := p.messageStart(k, streaming.RoleAssistant); err != nil {
			return err
		}
	}
	return p.out.Text(parsers.Msg{ID: k, Role: streaming.RoleAssistant}, streaming.KindTextDelta, 0, d, streaming.Delta)
}

// todoList sends the todo list as a plan, each time it changes.
func (p *parser) todoList(it *parsers.Object) error {
	items := it.Get("items")
	if items.Raw == p.lastPlan {
		return nil
	}
	p.lastPlan = items.Raw
	var entries []streaming.PlanEntry
	items.ForEach(func(_, v gjson.Result) bool {
		st := v.Get("status").String()
		if st == "" {
			st = "pending"
			if v.Get("completed").Bool() {
				st = "completed"
			}
		}
		text := v.Get("text").String()
		if text == "" {
			text = v.Get("step").String()
		}
		entries = append(entries, streaming.PlanEntry{Text: text, Status: st})
		return true
	})
	ev := p.out.New(streaming.KindPlan)
	ev.Entries = entries
	return p.out.Push()
}

// errorItem: a non-fatal warning (config, deprecation, model reroute,
// dropped events).
func (p *parser) errorItem(it *parsers.Object) error {
	ev := p.out.New(streaming.KindError)
	ev.Text = errorText(it.Get("message").String())
	ev.Level = streaming.LevelWarning
	return p.out.Push()
}

// topError handles a top-level error line. It is not fatal by itself:
// retries and reconnects become warnings, other errors non-fatal errors;
// only turn.failed fails the run.
func (p *parser) topError(l *parsers.Line) error {
	msg := l.Str("message")
	if msg == "" {
		msg = l.Path("error.message").String()
	}
	p.lastErr = msg
	if isRetry(msg) {
		return p.out.Status(msg, streaming.LevelWarning)
	}
	ev := p.out.New(streaming.KindError)
	ev.Text = errorText(msg)
	return p.out.Push()
}

// requestUserInput shows each question of a request_user_input line as a
// permission request with its options.
func (p *parser) requestUserInput(l *parsers.Line) error {
	id := l.Str("call_id")
	if id == "" {
		id = l.Get("id").String()
	}
	qs := l.Get("questions").Array()
	if len(qs) == 0 {
		ev := p.out.New(streaming.KindPermissionRequest)
		ev.ID = p.key(id)
		ev.Name = "request_user_input"
		return p.out.Push()
	}
	for i, q := range qs {
		ev := p.out.New(streaming.KindPermissionRequest)
		ev.ID = p.key(id)
		if len(qs) > 1 {
			qid := q.Get("id").String()
			if qid == "" {
				qid = itoa(i + 1)
			}
			ev.ID += "/" + qid
		}
		ev.Name = "request_user_input"
		text := q.Get("question").String()
		if h := q.Get("header").String(); h != "" && h != text {
			text = h + ": " + text
		}
		ev.Title = text
		ev.Text = text
		q.Get("options").ForEach(func(_, o gjson.Result) bool {
			label := o.Get("label").String()
			name := label
			if d := o.Get("description").String(); d != "" {
				name += " — " + d
			}
			ev.Options = append(ev.Options, streaming.PermissionOption{ID: label, Name: name})
			return true
		})
		if err := p.out.Push(); err != nil {
			return err
		}
	}
	return nil
}
