// Package parsers is the kit agentfmt's parsers are built on, and the
// Decoder that runs them: what turns agents' wire formats into streaming
// events. The public package github.com/agentfmt/agentfmt/parsers reads a
// stream with it (parsers.Read); the command and the tests use it
// directly.
//
// Each agent has a package of its own (parsers/claude, parsers/codex, …)
// that provides an Agent: a detector that scores a line, a constructor
// for a stateful Parser, and what its tool inputs mean (Tools). A Decoder
// picks the parser from the first decisive lines, re-detects when a
// concatenated log switches agent, fills every tool call's subject and
// file edits from the agent's Tools, and hands every event to a
// streaming.Session. Parsers never print.
//
// Every parser has one shape. It reads a Line: the top-level fields with
// Str, Get and Has (indexed by the line's validation); an object whose
// fields it reads several of through an Object (one pass over its text:
// Codex items, ACP updates, OpenCode parts), or, on the hottest path, a
// FieldsOf loop into a struct of its own (Claude's content blocks); any
// other nested value as the gjson.Result those give. It builds its events
// with an Out (one scratch event and the line's Emit; Start, Stop, Text,
// Message, Status and Unknown for the shapes every agent sends) and names
// what the wire leaves unnamed with IDs and LineID. It says what an
// event's text is by how it hands it over (Push, Snapshot, Final), under
// the agent's own ids, and keeps no accumulated text and no record of
// what it sent: the session does. What the wire sends again (a completed
// item, a part rewritten, a frame after its message stopped) goes to the
// session again under the same ids, and the session, which scopes identity
// to the run, shows what is new of it. Only message.start resets a message
// (it begins the message afresh): a parser sends it where the wire begins
// one, and lets content under an id open its message otherwise. An
// event's strings may be the line's memory, valid during the call only.
//
// # Adding an agent
//
// An agent is one small package, parsers/<name>; parsers/opencode is a
// good one to copy.
//
//   - agent.go: the package comment (what the agent prints, and its note
//     in docs/formats), the Agent (Name, Detect, New, Tools) and its
//     detector, which scores a line by its top-level fields: Decisive only
//     for what no other agent writes, Maybe for shapes it shares, No
//     otherwise (it runs on every line: no allocation, no nested reads).
//   - parser.go: the parser, a struct holding an Out, IDs and the little
//     state the format needs (which message is open, which calls); Parse
//     switches on the line's type, Finish sends what is still open at the
//     end (the session ends what it leaves open as incomplete). A line it
//     does not understand goes out as Out.Unknown, never dropped.
//   - a few files of one concern as the format asks (messages, tools,
//     results), each well under 500 lines.
//   - tools.go: its Tools, the input keys that name what a call is about
//     and an Edits function for its file tools.
//
// A flat format (one object a line, a field naming its type, whole
// messages or single pieces of text) needs no parser.go of its own: its
// Agent's New returns a parser made by parsers/internal/flat from a
// Format, a rule per type saying what the line becomes and where its
// fields are, with a hook for the odd line (parsers/grok, parsers/droid).
//
// An agent that also writes session files or speaks a server protocol
// lists each family as one of its Readers: the decoder's router gives each
// line to the family that scores it highest, and each family is a parser
// of its own (parsers/claude: stream-json and transcripts).
//
// Then: add the Agent to internal/parsers/all (registry order breaks ties between
// agents as sure of a line); write the format note, docs/formats/<name>.md,
// and its row in docs/formats/README.md; fixtures from the note in
// testdata/<name>/*.jsonl (parsertest.Golden) with their cmd goldens (go
// test ./cmd -update, and read the diff); table tests for what the
// fixtures do not show; a fuzz
// target (parsertest.SeedFixtures, CheckFuzz); a reading of the corpus
// captures in internal/conformance if ../shared/corpus has a folder for
// it (parsertest.Corpus); for a format that can be large, a benchmark
// (parsertest.Bench); and, if `agentfmt run` is to start the agent, its
// flags in cmd/agents.go.
package parsers
