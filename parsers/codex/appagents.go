package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Sub-agents on one app-server connection (docs/formats/codex-app-server.md,
// "Sub-agents"). A child thread's turn/* and item/* notifications come on the
// same stream as its parent's, under its own threadId. The run is the
// root thread's turn: the thread the client started. Everything a child
// thread does is nested (Event.Parent) under the call that spawned it:
//
//   - a subAgentActivity item of kind "started": its id is the model's
//     spawn_agent call id, agentThreadId the new thread (MultiAgentV2);
//   - a collabAgentToolCall spawnAgent: receiverThreadIds names the new
//     thread when the call completes (empty while it runs), so a thread
//     first heard of while a spawn call runs is that call's.
//
// Both complete at once, before the child has done anything. A spawn
// call's end is therefore held until the child's first turn ends, so
// that its work shows under it and its done line after the work, as a
// Claude subagent under its Task call; a child turn that fails makes the
// call fail (a failed sub-task, not a failed run). A later turn of the
// child, or a child no spawn call names, is nested under a call of its
// own, "agent <path>", which its turn/completed ends. A child's
// turn/completed is never the end of the run, and its final answer never
// the run's answer.

// agentCall is a call that child-thread work is nested under.
type agentCall struct {
	id, parent string           // its id, and the call it is itself nested under
	thread     string           // the child thread it covers ("" not known yet)
	synthetic  bool             // made for a child turn no spawn call covers
	completed  bool             // its item completed
	held       *streaming.Event // its end, until its child's turn ends
	childDone  bool             // the child's turn under it ended
	failed     string           // why that turn failed ("" it did not)
	said       bool             // the error that failed it was shown when it came
}

// child is a thread other than the root.
type child struct {
	call    *agentCall // the open call its work nests under (nil: none)
	path    string     // its agent path (/root/count_notes), for titles
	parent  string     // where the call that spawned it was nested
	running bool       // a turn of it started and has not completed
	lastErr string     // its last fatal error, shown when it came
}

// nested hands an event to the line's Emit as mode says, with the
// Parent of the thread being read on every event that has one: a child
// thread's work appears under its call.
func (a *appServer) nested(mode streaming.Mode, ev *streaming.Event) error {
	switch ev.Kind {
	case streaming.KindSessionStart, streaming.KindResult, streaming.KindUsage:
	default:
		if ev.Parent == "" {
			ev.Parent = a.parent
		}
	}
	return parsers.Send(a.emit, mode, ev)
}

// isRoot reports whether thread t is the root thread (or unnamed: the
// notifications of old builds and of tests carry no threadId). The first
// thread heard of is the root when nothing named one.
func (a *appServer) isRoot(t string) bool {
	if t == "" || t == a.root {
		return true
	}
	if a.root == "" && a.children[t] == nil {
		a.root = strings.Clone(t)
		return true
	}
	return false
}

// childOf returns the state of child thread t, making it.
func (a *appServer) childOf(t string) *child {
	c := a.children[t]
	if c == nil {
		c = &child{}
		a.children[strings.Clone(t)] = c
	}
	return c
}

// nestUnder sets the Parent of the events of the notification being read:
// none for the root thread, the call a child thread's work nests under
// (one is opened when it has none).
func (a *appServer) nestUnder(t string) error {
	a.parent = ""
	if a.isRoot(t) {
		return nil
	}
	call, err := a.attach(t)
	if err != nil {
		return err
	}
	a.parent = call.id
	return nil
}

// attach returns the open call child thread t nests under: the one it
// has, a spawn call still waiting for its thread, or a call of its own.
func (a *appServer) attach(t string) (*agentCall, error) {
	c := a.childOf(t)
	if c.call != nil {
		return c.call, nil
	}
	if call := a.waiting(); call != nil {
		a.tie(call, t, "")
		return call, nil
	}
	call := &agentCall{id: parsers.LineID("agent", a.line), parent: c.parent, thread: strings.Clone(t), synthetic: true}
	a.calls = append(a.calls, call)
	c.call = call
	ev := a.o.New(streaming.KindToolStart)
	ev.ID, ev.Name, ev.Title, ev.Parent = call.id, "agent", agentTitle(t, c.path), call.parent
	ev.Input = jsonObject("agent_path", quoted(c.path), "thread_id", parsers.JSONString(t))
	return call, a.o.Push()
}

// agentTitle names a child thread by its agent path, else by the end of
// its id.
func agentTitle(t, path string) string {
	if path != "" {
		return path
	}
	if len(t) > 6 {
		t = "…" + t[len(t)-6:]
	}
	return "thread " + t
}

// callOf returns the open agent call with id.
func (a *appServer) callOf(id string) *agentCall {
	for _, c := range a.calls {
		if c.id == id {
			return c
		}
	}
	return nil
}

// spawned notes a spawn call (id) of the thread being read, for child
// thread t ("" not known yet).
func (a *appServer) spawned(id, t, path string) *agentCall {
	call := &agentCall{id: strings.Clone(id), parent: a.parent, thread: strings.Clone(t)}
	a.calls = append(a.calls, call)
	if t != "" {
		a.tie(call, t, path)
	}
	return call
}

// tie makes call the one child thread t's work nests under.
func (a *appServer) tie(call *agentCall, t, path string) {
	call.thread = strings.Clone(t)
	c := a.childOf(t)
	c.parent = call.parent
	if path != "" {
		c.path = strings.Clone(path)
	}
	if c.call == nil {
		c.call = call
	}
}

// activity handles a subAgentActivity item. Kind "started" is a spawn
// call (started and completed come back to back, identical; some builds
// send only the completed one); the other kinds (interacted, interrupted,
// completed, …) are one line, said at completion.
func (a *appServer) activity(id string, it gjson.Result, completed bool) error {
	t, path := it.Get("agentThreadId").String(), it.Get("agentPath").String()
	kind := it.Get("kind").String()
	if kind != "started" {
		if !completed {
			return nil
		}
		if t != "" && path != "" {
			a.childOf(t).path = strings.Clone(path)
		}
		return a.o.Status(strings.TrimSpace("agent "+agentTitle(t, path)+" "+kind), streaming.LevelInfo)
	}
	call := a.callOf(id)
	if call == nil {
		call = a.spawned(id, t, path)
		ev := a.o.New(streaming.KindToolStart)
		ev.ID, ev.Name, ev.Title = id, "spawn_agent", path
		ev.Input = jsonObject("agent_path", quoted(path), "agent_thread_id", quoted(t))
		if err := a.o.Push(); err != nil {
			return err
		}
	}
	if !completed || call.held != nil {
		return nil
	}
	ev := a.o.New(streaming.KindToolEnd)
	ev.ID, ev.Name, ev.Title, ev.Status = id, "spawn_agent", path, streaming.ToolOK
	return a.hold(call)
}

// hold holds the end of call (a.o.Ev) until its child's turn ends, or
// sends it when that turn has ended (or it spawned none).
func (a *appServer) hold(call *agentCall) error {
	call.completed = true
	if c := a.children[call.thread]; call.childDone || c == nil || c.call != call {
		return a.endCall(call, &a.o.Ev)
	}
	h := a.o.Ev.Clone()
	call.held = &h
	return nil
}

// endCall sends the end of an agent call: failed when its child's turn
// failed.
func (a *appServer) endCall(call *agentCall, ev *streaming.Event) error {
	for i, c := range a.calls {
		if c == call {
			a.calls = append(a.calls[:i], a.calls[i+1:]...)
			break
		}
	}
	if c := a.children[call.thread]; c != nil && c.call == call {
		c.call = nil
	}
	end := *ev
	if call.failed != "" {
		end.Status = streaming.ToolError
		if !call.said {
			end.Output = strings.TrimSpace(end.Output + "\n" + call.failed)
		}
	}
	saved := a.parent
	a.parent = call.parent
	a.o.Ev = end
	err := a.o.Push()
	a.parent = saved
	return err
}

// childTurnCompleted ends the call a child thread's turn was nested
// under; the run goes on.
func (a *appServer) childTurnCompleted(t string, turn gjson.Result) error {
	c := a.children[t]
	why := turnFailure(turn)
	if c == nil || c.call == nil {
		if why == "" {
			return nil
		}
		ev := a.o.New(streaming.KindError)
		ev.Text = "sub-agent " + agentTitle(t, "") + ": " + why
		return a.o.Push()
	}
	c.running = false
	call := c.call
	call.childDone, call.failed = true, why
	call.said = why != "" && why == c.lastErr
	c.lastErr = ""
	switch {
	case call.synthetic:
		ev := streaming.Event{Kind: streaming.KindToolEnd, ID: call.id, Name: "agent",
			Title: agentTitle(t, c.path), Status: streaming.ToolOK, DurationMS: turn.Get("durationMs").Int()}
		return a.endCall(call, &ev)
	case call.held != nil:
		return a.endCall(call, call.held)
	}
	return nil // its end comes with its item/completed
}

// turnFailure says why a turn did not complete ("" when it did).
func turnFailure(turn gjson.Result) string {
	switch st := turn.Get("status").String(); st {
	case "completed", "":
		return ""
	case "interrupted":
		return "interrupted"
	default:
		msg := turn.Get("error.message").String()
		if msg == "" {
			msg = "turn " + st
		}
		if d := turn.Get("error.additionalDetails").String(); d != "" && d != msg {
			msg += ": " + d
		}
		return errorText(msg)
	}
}

// isChildThread reports whether a thread/started names a sub-agent's
// thread: one a spawn call named, one with a parent thread or a
// sub-agent source, or a new thread while a spawn call waits for its
// thread.
func (a *appServer) isChildThread(id string, th gjson.Result) bool {
	if !a.started || id == a.root {
		return false
	}
	if a.children[id] != nil || th.Get("parentThreadId").String() != "" || th.Get("source.subagent").Exists() {
		return true
	}
	return a.waiting() != nil
}

// waiting returns the first spawn call still running without a thread
// (a collabAgentToolCall spawnAgent names its thread only when it
// completes).
func (a *appServer) waiting() *agentCall {
	for _, call := range a.calls {
		if call.thread == "" && !call.synthetic && !call.completed {
			return call
		}
	}
	return nil
}

// spawnCall handles a collabAgentToolCall spawnAgent: a tool call whose
// receiver is the new thread (named once it completes, with its agent
// path in receiverPaths in newer builds), its end held until that
// thread's turn ends.
func (a *appServer) spawnCall(id string, it gjson.Result, completed bool) error {
	recv, path := it.Get("receiverThreadIds.0").String(), it.Get("receiverPaths.0").String()
	call := a.callOf(id)
	if call == nil {
		call = a.spawned(id, recv, path)
		if err := a.toolStart(id, "collabAgentToolCall", it); err != nil {
			return err
		}
	} else if call.thread == "" && recv != "" {
		a.tie(call, recv, path)
	}
	if !completed || call.completed {
		return nil
	}
	if err := a.endEvent(id, "collabAgentToolCall", it); err != nil {
		return err
	}
	return a.hold(call)
}

// childTurnStarted notes a child thread's turn, under its call.
func (a *appServer) childTurnStarted(t string) error {
	if _, err := a.attach(t); err != nil {
		return err
	}
	a.children[t].running = true
	return nil
}

// settle ends, before the run's result, the held calls whose child is
// not running: a child that ran no turn on this connection (its events
// not forwarded) does not leave its spawn call open. A child still at
// work keeps its call open: its events may follow the result.
func (a *appServer) settle() error {
	for i := 0; i < len(a.calls); {
		call := a.calls[i]
		if c := a.children[call.thread]; call.held != nil && (c == nil || !c.running) {
			if err := a.endCall(call, call.held); err != nil {
				return err
			}
			continue // endCall removed it
		}
		i++
	}
	return nil
}
