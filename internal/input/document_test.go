package input

import (
	"io"
	"strings"
	"testing"
	"time"
)

// nextWithin reads a line from r in a goroutine and fails when none comes
// within a few seconds (the reader waits for more input).
func nextWithin(t *testing.T, r *Reader) Line {
	t.Helper()
	ch := make(chan Line, 1)
	go func() {
		l, err := r.Next()
		if err != nil {
			t.Error(err)
		}
		l.Bytes = append([]byte(nil), l.Bytes...)
		ch <- l
	}()
	select {
	case l := <-ch:
		return l
	case <-time.After(5 * time.Second):
		t.Fatal("no line while the writer is still open: the reader holds the stream")
	}
	return Line{}
}

// A lone "{" or "[" first line is judged as the lines come, not at the
// end of the stream: NDJSON after it and the elements of a pretty-printed
// array are served while the writer is still writing.
func TestDocumentJudgedLive(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"lone { then NDJSON", "{\n{\"type\":\"a\"}\n", []string{"{", `{"type":"a"}`}},
		{"pretty-printed array", "[\n  {\n    \"a\": 1\n  },\n  {\"b\": 2},\n", []string{"{\n    \"a\": 1\n  }", `{"b": 2}`}},
		{"pretty-printed object", "{\n \"response\": \"hi\"\n}\n", []string{"{\n \"response\": \"hi\"\n}"}},
	} {
		pr, pw := io.Pipe()
		go pw.Write([]byte(tc.in)) // and the writer stays open
		r := NewReader(pr, 0)
		for _, w := range tc.want {
			if l := nextWithin(t, r); string(l.Bytes) != w {
				t.Errorf("%s: %q, want %q", tc.name, l.Bytes, w)
			}
		}
		pw.Close()
	}
}

// A document longer than the look-ahead is not held: its lines come as
// they came.
func TestDocumentLookAheadBounded(t *testing.T) {
	t.Parallel()
	in := "{\n" + strings.Repeat("\"k\": 1,\n", 1000) + "\"z\": 2\n}\n"
	r := NewReader(strings.NewReader(in), 0)
	r.LookAhead = 1 << 10
	l, err := r.Next()
	if err != nil || string(l.Bytes) != "{" || l.Element {
		t.Fatalf("first: %+v %v, want the line {", l, err)
	}
	n := 1
	for {
		if _, err := r.Next(); err != nil {
			break
		}
		n++
	}
	if n != 1003 {
		t.Errorf("%d lines, want 1003", n)
	}
}
