package parsers_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/render"
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

// Example_render shows a Codex stream as `agentfmt -o plain` does: a
// renderer copies what it keeps of an event, so the loop may take the
// events lent (Options.Lend), without a copy of each.
func Example_render() {
	const stream = `{"type":"thread.started","thread_id":"t1"}
{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"I'll run the tests."}}
{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"go test ./...","aggregated_output":"ok  example.com/calc 0.01s\n","exit_code":0,"status":"completed"}}
{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"The tests pass."}}
{"type":"turn.completed","usage":{"input_tokens":2400,"cached_input_tokens":1800,"output_tokens":120}}`

	r, err := render.New("plain", os.Stdout, render.Config{Width: 80})
	if err != nil {
		panic(err)
	}
	for ev, err := range parsers.Read(strings.NewReader(stream), parsers.Options{Lend: true}) {
		if err != nil {
			panic(err)
		}
		if err := r.Handle(&ev); err != nil {
			panic(err)
		}
	}
	if err := r.Finish(render.Summary{}); err != nil {
		panic(err)
	}
	// Output:
	// ● session t1 · codex
	// I'll run the tests.
	// ▸ shell go test ./...
	// ✓ shell go test ./... · exit 0
	//   │ ok  example.com/calc 0.01s
	// The tests pass.
	// ── ✓ done · 1 turn · 2.4k + 1.8k cached in, 120 out
}
