package parsers_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/golden"
	"github.com/agentfmt/agentfmt/render"
)

// TestKeptEventsAreJSON: the events an embedder keeps (keep, the program
// of Example_keep), once the reading is over, are the events `agentfmt -o
// json` shows for the same capture: written by the json renderer after
// the loop, they are the capture's json golden (what cmd's TestGolden
// checks the command writes) line for line, for every capture that has
// one. The captures are read as from a pipe, whose lines the reader
// keeps in one buffer reused from line to line: an event that still
// borrowed that memory (or the session's) would have changed by then.
func TestKeptEventsAreJSON(t *testing.T) {
	t.Parallel()
	captures, err := filepath.Glob("../testdata/*/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, capture := range captures {
		enc, err := os.ReadFile(strings.TrimSuffix(capture, ".jsonl") + ".json")
		if os.IsNotExist(err) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		n++
		want, err := golden.Decode(enc)
		if err != nil {
			t.Fatal(err)
		}
		got := keptJSON(t, capture)
		gotLines, wantLines := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gotLines), len(wantLines)) {
			if g, w := line(gotLines, i), line(wantLines, i); g != w {
				t.Errorf("%s: line %d of the kept events differs from -o json:\nkept:    %s\n-o json: %s", capture, i+1, g, w)
				break
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d captures with a json golden", n)
	}
}

// keptJSON reads capture through keep, as from a pipe, and writes what
// it kept with the json renderer.
func keptJSON(t *testing.T, capture string) string {
	f, err := os.Open(capture)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events, err := keep(struct{ io.Reader }{f}) // not an *os.File: no mapped file
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r, err := render.New("json", &out, render.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range events {
		if err := r.Handle(&events[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Finish(render.Summary{}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func line(l []string, i int) string {
	if i < len(l) {
		return l[i]
	}
	return "(no line)"
}
