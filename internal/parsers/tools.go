package parsers

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/toolcat"

	"github.com/agentfmt/agentfmt/streaming"
)

// Tools is what an agent knows of its tools' inputs (JSON text, by its own
// key names), for the two fields the decoder fills on every tool call, so
// that no renderer reads an agent's keys: what the call is about
// (streaming.Event.Subject) and the file changes it makes (Edits). Each
// agent's package declares its own; an agent whose calls edit nothing
// leaves Edits nil.
type Tools struct {
	// Subject lists the input keys that name what a call is about, most
	// telling first: its command, its path, its pattern (see SubjectOf).
	Subject []string
	// Edits returns the file changes a call makes, from its tool name, its
	// input and its output; nil for none. When it finds none, an output
	// that is a unified diff gives one edit per file of it (DiffEdits).
	Edits func(name, input, output string) []streaming.FileEdit
}

// normalise fills the fields the parsers layer owns for every agent: the
// category of a tool call (from its name, unless the parser gave one),
// its subject and the file edits it makes (when edits is set),
// from the agent's Tools, and the closed set of plan statuses.
func normalise(ev *streaming.Event, t *Tools, edits bool) {
	switch ev.Kind {
	case streaming.KindToolStart, streaming.KindToolEnd:
		if ev.Category == "" && ev.Name != "" {
			ev.Category = toolcat.Of(ev.Name)
		}
		if ev.Subject == "" && (ev.Input != "" || ev.Kind == streaming.KindToolStart) {
			ev.Subject = SubjectOf(ev.Title, ev.Input, t.Subject)
		}
		if edits && len(ev.Edits) == 0 {
			if t.Edits != nil {
				ev.Edits = t.Edits(ev.Name, ev.Input, ev.Output)
			}
			if len(ev.Edits) == 0 && hasDiffHeader(ev.Output) {
				ev.Edits = DiffEdits(ev.Output)
			}
		}
	case streaming.KindPlan:
		for i := range ev.Entries {
			ev.Entries[i].Status = PlanStatus(ev.Entries[i].Status)
		}
	}
}

// hasDiffHeader reports whether s may be a unified diff: it starts with
// "--- " or a line of it starts with "+++ ". It looks for the rare '+'
// first, not for the line ends: most tool outputs have many lines and no
// diff, and this runs on every one of them.
func hasDiffHeader(s string) bool {
	if strings.HasPrefix(s, "--- ") {
		return true
	}
	for i := 1; i < len(s); {
		j := strings.Index(s[i:], "+++ ")
		if j < 0 {
			return false
		}
		if i += j; s[i-1] == '\n' {
			return true
		}
		i += 4
	}
	return false
}

// PlanStatus maps an agent's word for a plan entry's state onto the closed
// set of streaming.Plan* statuses. Unknown words are pending.
func PlanStatus(word string) string {
	switch strings.ToLower(strings.TrimSpace(word)) {
	case "completed", "done", "complete", "finished", "success", "succeeded":
		return streaming.PlanCompleted
	case "in_progress", "in-progress", "inprogress", "active", "running", "started":
		return streaming.PlanInProgress
	case "cancelled", "canceled", "failed", "skipped", "error":
		return streaming.PlanCancelled
	}
	return streaming.PlanPending
}

// DiffEdits splits a unified diff into one edit per file ("--- a/p",
// "+++ b/p" headers); text before the first header is left out.
func DiffEdits(diff string) []streaming.FileEdit {
	var out []streaming.FileEdit
	lines := strings.Split(diff, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "--- ") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
			continue
		}
		from, to := strings.TrimSpace(lines[i][4:]), strings.TrimSpace(lines[i+1][4:])
		e := streaming.FileEdit{Op: streaming.EditModify, Path: strings.TrimPrefix(to, "b/")}
		switch {
		case from == "/dev/null":
			e.Op = streaming.EditCreate
		case to == "/dev/null":
			e.Op, e.Path = streaming.EditDelete, strings.TrimPrefix(from, "a/")
		}
		j := i + 2
		for j < len(lines) && !(strings.HasPrefix(lines[j], "--- ") && j+1 < len(lines) && strings.HasPrefix(lines[j+1], "+++ ")) {
			j++
		}
		e.Diff = strings.TrimRight(strings.Join(lines[i+2:j], "\n"), "\n")
		out = append(out, e)
		i = j - 1
	}
	return out
}
