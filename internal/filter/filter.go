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
// Both filters keep what they hold of a text block until the session
// says the block is final (block.stop): the session alone knows where a
// block ends. Close ends every block still held (an interrupted run ends
// without the session closing its blocks).
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
	case streaming.KindBlockStop:
		k = ev.BlockKind
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

// held is the blocks a filter holds something of, T being its state for
// one block, in the order they began. There are few at once (the blocks
// of messages streaming in parallel, as subagents do): a list.
type held[T any] struct {
	keys   []blockKey
	blocks []*T
}

func (h *held[T]) get(k blockKey) *T {
	for i := range h.keys {
		if h.keys[i] == k {
			return h.blocks[i]
		}
	}
	return nil
}

// add holds b for the block k (its message id copied: kept past Handle).
func (h *held[T]) add(k blockKey, b *T) {
	h.keys = append(h.keys, ownKey(k))
	h.blocks = append(h.blocks, b)
}

// take removes and returns the block k, or nil.
func (h *held[T]) take(k blockKey) *T {
	for i := range h.keys {
		if h.keys[i] == k {
			b := h.blocks[i]
			h.keys = append(h.keys[:i], h.keys[i+1:]...)
			h.blocks[i] = nil
			h.blocks = append(h.blocks[:i], h.blocks[i+1:]...)
			return b
		}
	}
	return nil
}

// takeAll removes every block, oldest first.
func (h *held[T]) takeAll() []*T {
	out := h.blocks
	h.keys, h.blocks = nil, nil
	return out
}
