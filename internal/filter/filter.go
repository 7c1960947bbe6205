// Package filter holds the event filters that sit between the streaming
// session and a renderer: Until strips a completion marker (--until),
// Sentences adds text.sentence events (--sentences) and Chatter leaves out
// the agent's chatter (unless --verbose).
//
// A filter is a streaming.Handler that passes events on to the next
// handler, changed or with more events, and Close flushes what it holds
// back. Filters see the session's output, so text-like events are true
// deltas.
//
// Both filters keep one open text block per nesting level (the Parent of
// an event: "" for the main agent, the spawning tool call's id for a
// subagent). Parallel subagents interleave line by line, so a block is
// over only when something else happens at its own level: another block,
// a tool call, the end of its message, a status line. A result, a new
// session and Close end every block.
package filter

import (
	"strings"

	"github.com/agentfmt/agentfmt/streaming"
)

// blockKey identifies a text block.
type blockKey struct {
	msg   string
	kind  streaming.Kind
	index int
}

func keyOf(ev *streaming.Event) blockKey {
	k := ev.Kind
	switch k {
	case streaming.KindTextRevision, streaming.KindTextSentence:
		k = streaming.KindTextDelta
	case streaming.KindThinkingRevision:
		k = streaming.KindThinkingDelta
	}
	return blockKey{msg: ev.Message, kind: k, index: ev.Block}
}

// ownKey is k with its message id copied, for a block kept past Handle.
func ownKey(k blockKey) blockKey {
	k.msg = strings.Clone(k.msg)
	return k
}

// template is what a filter keeps of a block's event to make events of
// its own later: the block's identity, copied (an event's strings are
// valid during Handle only).
func template(ev *streaming.Event, kind streaming.Kind) streaming.Event {
	return streaming.Event{Kind: kind, Agent: strings.Clone(ev.Agent), Line: ev.Line, Time: ev.Time,
		Message: strings.Clone(ev.Message), Role: strings.Clone(ev.Role), Block: ev.Block, Part: strings.Clone(ev.Part),
		Parent: strings.Clone(ev.Parent)}
}

// endsAll reports events after which no block of any level goes on.
func endsAll(k streaming.Kind) bool {
	return k == streaming.KindResult || k == streaming.KindSessionStart
}

// levels tracks the open block of each nesting level for a filter: T is
// the filter's state for one block.
type levels[T any] struct {
	open  map[string]*T // parent → its open block
	order []string      // parents with an open block, oldest first
}

func (l *levels[T]) get(parent string) *T {
	if l.open == nil {
		return nil
	}
	return l.open[parent]
}

func (l *levels[T]) set(parent string, b *T) {
	if l.open == nil {
		l.open = map[string]*T{}
	}
	if _, ok := l.open[parent]; !ok {
		parent = strings.Clone(parent) // kept past Handle
		l.order = append(l.order, parent)
	}
	l.open[parent] = b
}

// take removes and returns the open block of a level.
func (l *levels[T]) take(parent string) *T {
	b, ok := l.open[parent]
	if !ok {
		return nil
	}
	delete(l.open, parent)
	for i, p := range l.order {
		if p == parent {
			l.order = append(l.order[:i], l.order[i+1:]...)
			break
		}
	}
	return b
}

// takeAll removes every open block, oldest first.
func (l *levels[T]) takeAll() []*T {
	var out []*T
	for _, p := range l.order {
		out = append(out, l.open[p])
	}
	l.order = l.order[:0]
	clear(l.open)
	return out
}
