package html

import (
	"bytes"
	"io"
)

// Tool calls are shown in the order they started, not the order they
// ended (a Bash that runs three seconds and a Grep started after it):
// each scope (the page, or the work under an open call) keeps a queue
// with a place for every call still running and the items written
// after it, which wait until the calls before them are written. What
// waits is bounded (orderMax): past it, the items are written and the
// calls still running take the place they end in.
type order struct {
	slots []*slot
}

// slot is a running call's place (call), filled when it ends, or items
// written after a running call.
type slot struct {
	buf   bytes.Buffer
	call  bool
	done  bool
	owner *openTool // the call's, for a call's place
}

// orderMax bounds what a scope holds back behind running calls.
const orderMax = 1 << 20

// queue is the order of the scope parent and the writer its items go to
// once nothing holds them back.
func (r *Renderer) queue(parent string) (*order, io.Writer) {
	if t := r.open(parent); t != nil {
		return &t.order, &t.nested
	}
	return &r.order, r.w
}

// place keeps the place of the call t, just started under parent.
func (r *Renderer) place(parent string, t *openTool) {
	q, _ := r.queue(parent)
	t.slot = &slot{call: true, owner: t}
	q.slots = append(q.slots, t.slot)
}

// sink is where an item of the scope parent goes: after the calls still
// running in its scope, else into the nested work of the call that
// started it while that call is open, else the page.
func (r *Renderer) sink(parent string) io.Writer {
	q, w := r.queue(parent)
	if len(q.slots) == 0 {
		return w
	}
	held := 0
	for _, s := range q.slots {
		held += s.buf.Len()
	}
	if held > orderMax {
		r.release(q, w, true)
		return w
	}
	last := q.slots[len(q.slots)-1]
	if last.call {
		last = &slot{}
		q.slots = append(q.slots, last)
	}
	return &last.buf
}

// release writes the items at the head of q that nothing holds back
// any more; all, with force, the calls still running then written where
// they end.
func (r *Renderer) release(q *order, w io.Writer, force bool) {
	for len(q.slots) > 0 {
		s := q.slots[0]
		if s.call && !s.done {
			if !force {
				return
			}
			s.owner.slot = nil
		} else {
			_, _ = w.Write(s.buf.Bytes())
		}
		q.slots[0] = nil
		q.slots = q.slots[1:]
	}
	q.slots = nil
}

// placed writes what a call shows (write) into its place, if it has one,
// and lets what waited behind it go; else where its scope's items go.
func (r *Renderer) placed(parent string, t *openTool, write func(io.Writer)) {
	if t == nil || t.slot == nil {
		write(r.sink(parent))
		return
	}
	s := t.slot
	t.slot = nil
	write(&s.buf)
	s.done = true
	q, w := r.queue(parent)
	r.release(q, w, false)
}
