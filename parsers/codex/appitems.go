package codex

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// An app-server item (item/started, item/completed) is a message of its
// own (user and agent messages, plans, reasoning) or a tool call (see
// apptools.go).

// item handles item/started and item/completed.
func (a *appServer) item(it gjson.Result, completed bool) error {
	id := it.Get("id").String()
	typ := it.Get("type").String()
	switch kind := itemKinds[typ]; {
	case kind == itemUserMessage:
		if !completed {
			return nil
		}
		return a.o.Message(parsers.Msg{ID: id, Role: streaming.RoleUser}, streaming.KindTextDelta, userText(it.Get("content")))
	case kind == itemAgentMessage || kind == itemPlan:
		if !completed {
			return a.o.Start(parsers.Msg{ID: id, Role: streaming.RoleAssistant})
		}
		if err := a.o.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindTextDelta, 0, it.Get("text").String(), streaming.Final); err != nil {
			return err
		}
		return a.o.Stop(parsers.Msg{ID: id, Role: streaming.RoleAssistant})
	case kind == itemReasoning:
		if !completed {
			return a.o.Start(parsers.Msg{ID: id, Role: streaming.RoleAssistant})
		}
		var err error
		it.Get("summary").ForEach(func(k, s gjson.Result) bool {
			err = a.o.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindThinkingDelta, int(k.Int()), s.String(), streaming.Final)
			return err == nil
		})
		if err != nil {
			return err
		}
		it.Get("content").ForEach(func(k, s gjson.Result) bool {
			err = a.o.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindThinkingDelta, 1000+int(k.Int()), s.String(), streaming.Final)
			return err == nil
		})
		if err != nil {
			return err
		}
		return a.o.Stop(parsers.Msg{ID: id, Role: streaming.RoleAssistant})
	case typ == "subAgentActivity":
		return a.activity(id, it, completed)
	case kind == itemCollabCall && it.Get("tool").String() == "spawnAgent":
		return a.spawnCall(id, it, completed)
	case kind.isTool():
		if !completed {
			return a.toolStart(id, typ, it)
		}
		return a.toolEnd(id, typ, it)
	case typ == "contextCompaction":
		if completed {
			return a.o.Status("context compacted", streaming.LevelInfo)
		}
		return nil
	case typ == "exitedReviewMode":
		if completed {
			return a.o.Message(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindTextDelta, it.Get("review").String())
		}
		return nil
	case typ == "":
		return nil
	default:
		if completed {
			return a.o.Status(typ+itemNote(it), streaming.LevelInfo)
		}
		return nil
	}
}

// itemNote is the one-line detail of a minor item (imageView, sleep, …).
func itemNote(it gjson.Result) string {
	for _, k := range [...]string{"path", "savedPath", "kind", "agentPath"} {
		if s := it.Get(k).String(); s != "" {
			return ": " + s
		}
	}
	if ms := it.Get("durationMs").Int(); ms > 0 {
		return ": " + strconv.FormatInt(ms, 10) + " ms"
	}
	return ""
}

// userText joins the text parts of a user message.
func userText(content gjson.Result) string {
	var parts []string
	content.ForEach(func(_, c gjson.Result) bool {
		switch c.Get("type").String() {
		case "text":
			parts = append(parts, c.Get("text").String())
		case "image", "localImage":
			parts = append(parts, "‹image "+c.Get("url").String()+c.Get("path").String()+"›")
		}
		return true
	})
	return strings.Join(parts, "\n")
}
