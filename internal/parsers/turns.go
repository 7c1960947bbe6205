package parsers

import (
	"strings"

	"github.com/agentfmt/agentfmt/streaming"
)

// Turns is the run bookkeeping of a saved conversation that records
// turns but no result line (a Claude transcript, a Gemini CLI saved
// chat): a turn finished when the assistant had the last word with no
// call pending, failed when a record said why, and is still running
// otherwise; a turn after a finished one is a run of its own, so that
// each turn's outcome is its own.
type Turns struct {
	N        int    // turns begun in the current run
	Active   bool   // the current turn has records no result has closed
	Answered bool   // the assistant had the last word, no call pending
	Failed   string // why the current turn failed
	Resulted bool   // a result closed a turn of the current run
}

// Run notes that a run began (its session.start was sent).
func (t *Turns) Run() { t.Resulted, t.N = false, 0 }

// Reset forgets the current turn (a file that starts over).
func (t *Turns) Reset() { t.Active, t.Answered, t.Failed = false, false, "" }

// Begin notes a turn begun at a prompt. The caller has ended the turn
// before it (Due, Result) and, where Resulted says that turn had a
// result, begun a run (a session.start, then Run).
func (t *Turns) Begin() {
	t.N++
	t.Active, t.Answered, t.Failed = true, false, ""
}

// Due reports whether the current turn has an outcome, with open the
// number of its calls still open: finished (ok) or failed.
func (t *Turns) Due(open int) (ok, due bool) {
	if !t.Active {
		return false, false
	}
	ok = t.Failed == "" && t.Answered && open == 0
	return ok, ok || t.Failed != ""
}

// Result sends the current turn's result, as Due said.
func (t *Turns) Result(o *Out, ok bool) error {
	t.Active, t.Resulted = false, true
	ev := o.New(streaming.KindResult)
	ev.OK, ev.Reason, ev.Turns = ok, t.Failed, max(t.N, 1)
	return o.Push()
}

// StartsOver is the rule of a log that starts over (one log twice, `cat
// run.jsonl run.jsonl`, or two logs concatenated): once the run has
// opened its conversation, a record that opens one again begins a run of
// its own, where the session scopes identity. Which records open a
// conversation is the agent's; the zero value has seen none, and a run's
// bookkeeping forgets it with the run.
type StartsOver struct {
	key string // the record that opened the conversation
	any bool   // any record that opens one starts the log over
}

// Opened notes the record, named key, that opened the run's conversation
// (the first with a name): it alone, seen again, starts the log over.
func (s *StartsOver) Opened(key string) {
	if s.key == "" {
		s.key = strings.Clone(key)
	}
}

// OpenedAny notes that the run opened its conversation, where any record
// that opens one starts the log over (a Claude transcript's root).
func (s *StartsOver) OpenedAny() { s.any = true }

// At reports whether the log starts over at a record, named key, that
// opens a conversation.
func (s *StartsOver) At(key string) bool { return s.any || s.key != "" && key == s.key }
