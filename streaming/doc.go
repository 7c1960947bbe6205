// Package streaming is the contract between agentfmt's parsers and its
// renderers, kept by one Session.
//
// A parser hands events to the Session and says, by the method it calls,
// what the Text of a text, thinking or tool output event is: Push for new
// text (a delta; and for every other event), Snapshot for the whole block
// so far, Final for the complete block, Restate for a piece of the agent
// repeating a block it sent (PushAs takes the Mode as a value).
// The Event a Handler receives has no such distinction: it is always a
// delta. The Session hands its Handler only deltas, and:
//
//   - turns snapshots and finals into deltas by comparing them with the
//     block it holds: equal (or equal but for the white space around it,
//     CRLF line ends or the Unicode form: NFC against NFD) gives nothing,
//     an extension gives the new suffix, a rewrite gives a text.revision
//     (or thinking.revision);
//   - judges restatements (an agent re-sending a message it streamed,
//     under a new id on the wire; an echo of the prompt it was sent): what
//     repeats the message's current block shows nothing, the rest is new
//     text (see Restate). Parsers keep no copy or hash of text to tell;
//   - announces each text or thinking block that showed text as final,
//     once (block.stop): when its message shows another block, before the
//     message stops, at a run's end and at Close. Renderers and filters
//     end blocks there and nowhere else;
//   - repairs one contract violation, and only this one: a text or
//     thinking delta that begins with the block's whole text (at least
//     SnapshotMinBytes of it) and is longer than it is a snapshot sent as
//     a delta, and only its new suffix is passed on (counted, reported,
//     fatal under Options.Strict). Every other delta is genuine and passed
//     on exactly as it came: an exact repeat is new text, and tool output
//     is never repaired;
//   - decides what is the same thing by identity (message ids, block
//     indexes scoped to their message or the agent's own block ids in
//     Event.Part, tool call ids), within a run: a session.start begins a
//     new run and forgets the ids of the last one, so a log that holds the
//     same run twice is shown twice. A snapshot or final for a message that
//     stopped in the run is dropped for a block the message showed, and
//     shown, in the message reopened for it, for a block it did not; a
//     start, output or end of a tool call that ended is dropped. A start
//     of a call that is open updates it (its title, input, subject and
//     edits; see Call): a parser sends each state of a call the wire
//     sends as a tool.start until its end. So a parser sends what the
//     wire repeats under its ids and keeps no record of what it sent;
//   - opens messages and tool calls that arrive without a start, closes
//     what is left open at a new run and at Close (as incomplete), and
//     keeps the run's outcome and final answer.
//
// The Session keeps each block's text once, and is the only place that
// does: parsers keep no accumulated text of their own.
//
// Memory: the strings of a pushed event are only valid during Push (as
// bufio.Scanner.Bytes is until the next Scan); the Session copies what it
// keeps. Likewise the event a Handler receives, and its strings, are only
// valid during Handle: a handler that keeps one copies it.
package streaming
