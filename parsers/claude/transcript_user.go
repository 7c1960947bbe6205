package claude

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// A transcript's user records: prompts, slash and local commands, an
// interruption, a compaction summary, and the tool results they carry.

func (t *transcript) user(r gjson.Result, n int, parent string) error {
	c := r.Get("message.content")
	if c.Type == gjson.String {
		return t.userText(r, n, c.Str, parent)
	}
	var texts []string
	var err error
	c.ForEach(func(_, raw gjson.Result) bool {
		b := readBlock(nil, raw.Raw)
		switch k := kindOf(b.str(b.typ)); k {
		case partToolResult:
			err = t.toolResult(&b, r, parent)
		case partText, partImage, partDocument:
			texts = append(texts, b.partText(k, raw.Raw))
		}
		return err == nil
	})
	if err != nil || len(texts) == 0 {
		return err
	}
	return t.userText(r, n, strings.Join(texts, "\n"), parent)
}

// userText handles the words of a user record: a prompt, a slash command
// and its output, an interruption, a compaction summary.
func (t *transcript) userText(r gjson.Result, n int, text, parent string) error {
	trim := strings.TrimSpace(text)
	switch {
	case r.Get("isMeta").Bool() || trim == "":
		return nil
	case r.Get("isCompactSummary").Bool():
		return t.out.Status("summary of the earlier conversation: "+parsers.Clip(parsers.FirstLine(trim), 120), streaming.LevelInfo)
	case strings.HasPrefix(trim, "[Request interrupted by user"):
		if parent == "" {
			t.turn.Active, t.turn.Answered, t.turn.Failed = true, false, "interrupted by the user"
		}
		return t.out.Status("interrupted by the user", streaming.LevelWarning)
	case strings.HasPrefix(trim, "<command-name>"), strings.HasPrefix(trim, "<command-message>"):
		return t.out.Status(commandLine(trim), streaming.LevelInfo)
	case strings.HasPrefix(trim, "<local-command-stdout>"), strings.HasPrefix(trim, "<local-command-stderr>"),
		strings.HasPrefix(trim, "<bash-input>"), strings.HasPrefix(trim, "<bash-stdout>"), strings.HasPrefix(trim, "<bash-stderr>"):
		return t.out.Status(stripTags(trim), streaming.LevelInfo)
	}
	if parent != "" && r.Get("isSidechain").Bool() {
		return nil // a subagent's task: the Task call's input says it
	}
	if parent == "" {
		if err := t.newTurn(); err != nil {
			return err
		}
	}
	id := r.Get("uuid").String()
	if id == "" {
		id = parsers.LineID("user", n)
	}
	return t.out.Message(parsers.Msg{ID: id, Role: streaming.RoleUser, Parent: parent}, streaming.KindTextDelta, text)
}

// commandLine shows a slash command record: "/model opus".
func commandLine(s string) string {
	name := between(s, "<command-name>", "</command-name>")
	args := between(s, "<command-args>", "</command-args>")
	if name == "" {
		name = "/" + between(s, "<command-message>", "</command-message>")
	}
	return strings.TrimSpace(name + " " + args)
}

func between(s, open, close string) string {
	i := strings.Index(s, open)
	if i < 0 {
		return ""
	}
	s = s[i+len(open):]
	if j := strings.Index(s, close); j >= 0 {
		s = s[:j]
	}
	return strings.TrimSpace(s)
}

// stripTags removes the XML-ish tags of local command records.
func stripTags(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			break
		}
		j := strings.IndexByte(s[i:], '>')
		tag := ""
		if j > 0 {
			tag = s[i+1 : i+j]
		}
		if j < 0 || !isTag(tag) {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		s = s[i+j+1:]
	}
	return strings.TrimSpace(sanitize.StripSGR(b.String()))
}

func isTag(t string) bool {
	t = strings.TrimPrefix(t, "/")
	switch t {
	case "local-command-stdout", "local-command-stderr", "bash-input", "bash-stdout", "bash-stderr", "command-name", "command-message", "command-args":
		return true
	}
	return false
}

func (t *transcript) toolResult(b *block, r gjson.Result, parent string) error {
	id, st, out := b.result()
	if tr := r.Get("toolUseResult"); st == streaming.ToolError && tr.Type == gjson.String && strings.Contains(tr.Str, "rejected") {
		st = streaming.ToolDeclined
	}
	return t.toolEnd(id, out, parent, st)
}

func (t *transcript) toolEnd(id, out, parent string, st streaming.ToolStatus) error {
	if t.msg != "" && t.msgP == id {
		// A subagent's last message ends with its Task call.
		if err := t.stopMsg(); err != nil {
			return err
		}
	}
	ev := t.out.New(streaming.KindToolEnd)
	ev.ID, ev.Output, ev.Parent, ev.Status = id, out, parent, st
	ev.Display = display(out)
	delete(t.open, id)
	for i, k := range t.tasks {
		if k == id {
			t.tasks = append(t.tasks[:i], t.tasks[i+1:]...)
			break
		}
	}
	if parent == "" {
		t.turn.Active, t.turn.Answered = true, false
	}
	return t.out.Push()
}
