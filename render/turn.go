package render

import (
	"time"

	"github.com/agentfmt/agentfmt/streaming"
)

// turnEnd tells, from a stream's events, that the agent's turn is over
// though no result says so: an agent's own session file (a Claude Code
// transcript) has no result line, and its run stays open while the agent
// waits for the next prompt. The turn is taken as over when the main
// thread's last words were an answer (assistant text, not a subagent's)
// with no tool call pending, and nothing has come for answerQuiet since:
// a turn that goes on after its text (the call the text announced) does
// so at once.
type turnEnd struct {
	role     string // of the main thread's message being written
	answered bool
	last     time.Time // when the stream's last event came
}

// answerQuiet is how long an answer must stand before the turn is taken
// as over.
const answerQuiet = 3 * time.Second

// see takes the stream's next event, come at now.
func (t *turnEnd) see(ev *streaming.Event, now time.Time) {
	t.last = now
	switch ev.Kind {
	case streaming.KindMessageStart:
		if ev.Parent == "" {
			t.role = ev.Role
			t.answered = false
		}
	case streaming.KindTextDelta:
		if ev.Parent == "" {
			t.answered = t.role == streaming.RoleAssistant
		}
	case streaming.KindMessageStop, streaming.KindBlockStop, streaming.KindTextSentence, streaming.KindUsage,
		streaming.KindStatus, streaming.KindNotice, streaming.KindTextRevision:
		// (the answer stands)
	default:
		t.answered = false
	}
}

// waiting reports that the turn is over at now, running calls pending.
func (t *turnEnd) waiting(now time.Time, running int) bool {
	return t.answered && running == 0 && now.Sub(t.last) >= answerQuiet
}

// due is when waiting will turn true unless another event comes (ok:
// it may).
func (t *turnEnd) due(running int) (time.Time, bool) {
	return t.last.Add(answerQuiet), t.answered && running == 0
}
