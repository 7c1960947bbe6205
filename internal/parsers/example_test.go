package parsers_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes a headless Claude Code stream (stream-json with partial
// messages) into agentfmt's events: the Decoder detects the agent, its
// parser hands each event to the Session, which passes on deltas.
func Example() {
	const stream = `{"type":"system","subtype":"init","session_id":"s1","model":"claude-sonnet-4-5","cwd":"/work","tools":["Bash"]}
{"type":"stream_event","event":{"type":"message_start","message":{"id":"msg_1","role":"assistant","content":[]}},"session_id":"s1"}
{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}},"session_id":"s1"}
{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"The tests "}},"session_id":"s1"}
{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"pass."}},"session_id":"s1"}
{"type":"stream_event","event":{"type":"content_block_stop","index":0},"session_id":"s1"}
{"type":"stream_event","event":{"type":"message_stop"},"session_id":"s1"}
{"type":"result","subtype":"success","is_error":false,"result":"The tests pass.","session_id":"s1","num_turns":1}`

	sess := streaming.NewSession(streaming.HandlerFunc(func(ev *streaming.Event) error {
		switch ev.Kind {
		case streaming.KindSessionStart:
			fmt.Println(ev.Kind, ev.Agent, ev.Model)
		case streaming.KindTextDelta:
			fmt.Printf("%s %q\n", ev.Kind, ev.Text)
		case streaming.KindResult:
			fmt.Println(ev.Kind, ev.OK)
		}
		return nil
	}), streaming.Options{})
	dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{}, sess)
	if err != nil {
		panic(err)
	}
	if err := dec.ReadAll(strings.NewReader(stream)); err != nil {
		panic(err)
	}
	if err := sess.Close(); err != nil {
		panic(err)
	}
	outcome, _ := sess.Outcome()
	fmt.Println(outcome, sess.FinalAnswer())
	// Output:
	// session.start claude claude-sonnet-4-5
	// text.delta "The tests "
	// text.delta "pass."
	// result true
	// success The tests pass.
}

// Example_render is agentfmt's pipeline as the command runs it: a
// Decoder over every agent (internal/parsers/all) reads a Codex stream, a
// Session keeps the streaming contract, and a renderer (render) writes
// what a person reads.
func Example_render() {
	const stream = `{"type":"thread.started","thread_id":"t1"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"I'll run the tests."}}
{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"go test ./...","aggregated_output":"","exit_code":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"go test ./...","aggregated_output":"ok  example.com/calc 0.01s\n","exit_code":0,"status":"completed"}}
{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"The tests pass."}}
{"type":"turn.completed","usage":{"input_tokens":2400,"cached_input_tokens":1800,"output_tokens":120}}`

	r, err := render.New("plain", os.Stdout, render.Config{Width: 80})
	if err != nil {
		panic(err)
	}
	sess := streaming.NewSession(r, streaming.Options{})
	dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{}, sess)
	if err != nil {
		panic(err)
	}
	if err := dec.ReadAll(strings.NewReader(stream)); err != nil {
		panic(err)
	}
	if err := sess.Close(); err != nil {
		panic(err)
	}
	outcome, reason := sess.Outcome()
	if err := r.Finish(render.Summary{Outcome: outcome, Reason: reason, Answer: sess.FinalAnswer(), Stats: sess.Stats()}); err != nil {
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
