package streaming

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// lender hands out strings from one buffer that is overwritten after each
// "line", as the decoder's line buffers are.
type lender struct {
	buf []byte
	n   int
}

// lend copies s into the buffer, each time at another place in it (a
// text lent again at the same place would hide that the old was kept).
func (l *lender) lend(s string) string {
	l.n++
	at := l.n % 8 * 16
	l.buf = append(l.buf[:at], s...)
	return unsafe.String(&l.buf[at], len(s))
}

func (l *lender) owns(s string) bool {
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(l.buf)))
	return len(s) > 0 && p >= lo && p < lo+uintptr(cap(l.buf))
}

func (l *lender) scribble() {
	for i := range l.buf {
		l.buf[i] = '#'
	}
}

// TestSettleCopiesKeptText: a final text is kept without a copy while its
// line is being handled; Settle copies it when its block stays open, so
// the same text repeated on a later line is a duplicate, not a rewrite.
// Texts whose block closed with the line and tool outputs are not copied.
func TestSettleCopiesKeptText(t *testing.T) {
	l := &lender{buf: make([]byte, 0, 1024)}
	var out []string
	s := NewSession(HandlerFunc(func(ev *Event) error {
		out = append(out, short(ev))
		return nil
	}), Options{Lent: l.owns})
	line := func(evs ...Event) {
		t.Helper()
		for i := range evs {
			if err := s.Push(&evs[i]); err != nil {
				t.Fatal(err)
			}
		}
		s.Settle()
		l.scribble()
	}
	text := strings.Repeat("the answer, ", 4)
	line(msgStart("m"), final("m", 0, l.lend(text)))
	line(final("m", 0, l.lend(text)))        // the same text again: nothing to show
	line(final("m", 0, l.lend(text+"more"))) // more of it: only "more"
	line(msgStop("m"))
	line(msgStart("u"), final("u", 0, l.lend("a prompt")), msgStop("u"))
	want := []string{"start m", `text.delta m/0 "` + text + `"`, `text.delta m/0 "more"`, "stop m",
		"start u", `text.delta u/0 "a prompt"`, "stop u"}
	if strings.Join(out, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(out, "\n"), strings.Join(want, "\n"))
	}
	if st := s.Stats(); st.Revisions != 0 {
		t.Errorf("%d revisions: a kept text was not copied before its buffer was reused", st.Revisions)
	}
}

// TestSettleSkipsClosed: a text that ends with its line (a prompt echo, a
// whole message in one frame) is not copied: Settle costs nothing then.
func TestSettleSkipsClosed(t *testing.T) {
	l := &lender{buf: make([]byte, 0, 200<<10)}
	s := NewSession(HandlerFunc(func(*Event) error { return nil }), Options{Lent: l.owns})
	big := l.lend(strings.Repeat("x", 100<<10))
	const runs = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range runs {
		id := fmt.Sprint("u", i)
		for _, e := range []Event{msgStart(id), final(id, 0, big), msgStop(id)} {
			if err := s.Push(&e); err != nil {
				t.Fatal(err)
			}
		}
		s.Settle()
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > 10<<10 {
		t.Errorf("%d bytes allocated per closed message of 100 KB: its lent text was copied", per)
	}
}
