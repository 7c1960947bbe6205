package parsers_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/golden"
	"github.com/agentfmt/agentfmt/render"
)

// TestKeptEventsAreJSON: the events an embedder keeps (Example_keep), once
// the reading is over, are the events `agentfmt -o json` shows for the
// same capture: written by the json renderer after the loop, they are
// the fixture's json golden (what cmd's TestGolden checks the command
// writes) line for line.
func TestKeptEventsAreJSON(t *testing.T) {
	t.Parallel()
	events, err := keep(codexCapture)
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
	enc, err := os.ReadFile(strings.TrimSuffix(codexCapture, ".jsonl") + ".json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := golden.Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	got, wantLines := strings.Split(out.String(), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(got), len(wantLines)) {
		g, w := line(got, i), line(wantLines, i)
		if g != w {
			t.Fatalf("line %d of the kept events differs from -o json:\nkept:    %s\n-o json: %s", i+1, g, w)
		}
	}
}

func line(l []string, i int) string {
	if i < len(l) {
		return l[i]
	}
	return "(no line)"
}
