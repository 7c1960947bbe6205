package parsers_test

import (
	"fmt"
	"io"
	"os"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// codexCapture is a Codex `exec --json` run of the repository's fixtures:
// a failing test run, two patches, a passing run and the answer.
const codexCapture = "../testdata/codex/01-current-reasoning-command-filechange-todo.jsonl"

// keep is the whole of a program embedding agentfmt that keeps a
// stream's events: Read keeps nothing of an event it yielded, so what it
// yields is the program's to keep.
func keep(r io.Reader) ([]streaming.Event, error) {
	var events []streaming.Event
	for ev, err := range parsers.Read(r, parsers.Options{}) {
		if err != nil {
			return nil, err
		}
		events = append(events, ev)
	}
	return events, nil
}

// Example_keep is a program embedding agentfmt: it reads a saved Codex
// run, keeps its events past the reading, and then shows the tool calls
// and the final answer from what it kept.
func Example_keep() {
	f, err := os.Open(codexCapture)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	events, err := keep(f)
	if err != nil {
		panic(err)
	}
	for _, ev := range events {
		switch ev.Kind {
		case streaming.KindToolEnd:
			fmt.Printf("%s %s: %s\n", ev.Name, ev.ID, ev.Status)
		case streaming.KindResult:
			fmt.Printf("answer (ok %v): %s\n", ev.OK, ev.Text)
		}
	}
	// Output:
	// shell item_3: error
	// apply_patch item_4: ok
	// apply_patch item_5: error
	// shell item_6: ok
	// answer (ok true): Fixed `Add` in add.go; the tests pass now.
}
