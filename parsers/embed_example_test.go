package parsers_test

import (
	"fmt"
	"os"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/parsers/all"
	"github.com/agentfmt/agentfmt/streaming"
)

// codexCapture is a Codex `exec --json` run of the repository's fixtures:
// a failing test run, two patches, a passing run and the answer.
const codexCapture = "../testdata/codex/01-current-reasoning-command-filechange-todo.jsonl"

// keep reads the capture at path with every agent's parser and returns
// the events the Session hands on. The Session lends each event only for
// the call to its Handler, so what is kept past it is a Clone.
func keep(path string) ([]streaming.Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var events []streaming.Event
	sess := streaming.NewSession(streaming.HandlerFunc(func(ev *streaming.Event) error {
		events = append(events, ev.Clone())
		return nil
	}), streaming.Options{})
	dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{}, sess)
	if err != nil {
		return nil, err
	}
	if err := dec.ReadAll(f); err != nil {
		return nil, err
	}
	return events, sess.Close()
}

// Example_keep is a program embedding agentfmt: it reads a saved Codex
// run, keeps its events past the reading, and then shows the tool calls
// and the final answer from what it kept.
func Example_keep() {
	events, err := keep(codexCapture)
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
