package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// The app-server's tool items: commands, file changes, MCP and dynamic
// tool calls, web searches and collab agent calls, started and ended by
// item/started and item/completed.

// agentNames names the threads of a collab call: their agent paths
// (receiverPaths, in the same order, which are remembered, or known from
// their spawn) where known, else the ends of their ids.
func (a *appServer) agentNames(ids, paths gjson.Result) string {
	var names []string
	ids.ForEach(func(k, t gjson.Result) bool {
		path := paths.Get(k.String()).String()
		switch c := a.children[t.String()]; {
		case path != "" && t.String() != "":
			a.childOf(t.String()).path = strings.Clone(path) // for the lines that name it without it
		case c != nil:
			path = c.path
		}
		names = append(names, agentTitle(t.String(), path))
		return true
	})
	return strings.Join(names, ", ")
}

func (a *appServer) toolStart(id, typ string, it gjson.Result) error {
	ev := a.o.New(streaming.KindToolStart)
	ev.ID = id
	describe(&a.sp, ev, itemKinds[typ], typ, it)
	return a.o.Push()
}

func (a *appServer) toolEnd(id, typ string, it gjson.Result) error {
	if err := a.endEvent(id, typ, it); err != nil {
		return err
	}
	return a.o.Push()
}

// endEvent makes a.o.Ev the tool.end of a completed item, after sending
// the whole output of a command whose output streamed.
func (a *appServer) endEvent(id, typ string, it gjson.Result) error {
	ev := a.o.New(streaming.KindToolEnd)
	ev.ID = id
	k := itemKinds[typ]
	describe(&a.sp, ev, k, typ, it)
	describeEnd(&a.sp, ev, k, it)
	if k == itemCommand && a.streamed[id] && ev.Output != "" {
		// The whole output after its deltas: a final the session
		// compares with what it showed.
		res := a.o.Ev
		o := a.o.New(streaming.KindToolOutputDelta)
		o.ID, o.Text = id, res.Output
		if err := a.o.Final(); err != nil {
			return err
		}
		a.o.Ev = res
	}
	delete(a.streamed, id)
	return nil
}
