package parsers

import (
	"strings"

	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// subjectFields are the tool input fields that say what a call is about,
// most telling first. Every agent's key names are here, so that no
// renderer has to know them.
var subjectFields = [...]string{
	"command", "cmd", "file_path", "filePath", "path", "notebook_path", "pattern", "url", "query",
	"description", "prompt", "subject", "name", "target_file", "directory", "dir",
}

// Subject is the one argument that says what a tool call does: the
// command, the path, the pattern; else the title; else the first string
// of the input; else the input itself. The decoder fills
// streaming.Event.Subject with it for every tool.start whose parser left
// it empty.
func Subject(title, input string) string {
	in := strings.TrimSpace(input)
	if in == "" || in == "{}" || in == "null" {
		return title
	}
	v := gjson.Parse(in)
	if v.IsObject() {
		return subjectObject(title, v)
	}
	if v.Type == gjson.String {
		return v.Str
	}
	return in
}

// subjectObject is Subject for an object input, read in one pass
// (a Get per candidate field would scan the input sixteen times).
func subjectObject(title string, v gjson.Result) string {
	// The most telling field whose first value (as Get finds) is a
	// non-empty string or array.
	var seen uint32 // the fields met
	best := len(subjectFields)
	var bestVal gjson.Result
	var first string
	v.ForEach(func(k, val gjson.Result) bool {
		if first == "" && val.Type == gjson.String && val.Str != "" {
			first = val.Str
		}
		for i, name := range subjectFields {
			if k.Str == name {
				if seen&(1<<i) == 0 {
					seen |= 1 << i
					if i < best && (val.Type == gjson.String && val.Str != "" || nonEmptyArray(val)) {
						best, bestVal = i, val
					}
				}
				break
			}
		}
		return best > 0 // nothing can be more telling than the first field
	})
	switch {
	case best == len(subjectFields):
	case bestVal.Type == gjson.String:
		return bestVal.Str
	default:
		var parts []string
		for _, p := range bestVal.Array() {
			parts = append(parts, p.String())
		}
		return strings.Join(parts, " ")
	}
	if title != "" {
		return title
	}
	if first != "" {
		return first
	}
	return v.Raw
}

// nonEmptyArray reports whether v is an array with an element.
func nonEmptyArray(v gjson.Result) bool {
	return v.IsArray() && len(v.Array()) > 0
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

// normalise fills the fields the parsers layer owns for every agent: the
// subject of a tool call, the file edits it makes (when edits is set),
// and the closed set of plan statuses.
func normalise(ev *streaming.Event, edits bool) {
	switch ev.Kind {
	case streaming.KindToolStart, streaming.KindToolEnd:
		if ev.Subject == "" && (ev.Input != "" || ev.Kind == streaming.KindToolStart) {
			ev.Subject = Subject(ev.Title, ev.Input)
		}
		if edits && len(ev.Edits) == 0 {
			ev.Edits = Edits(ev.Name, ev.Input, ev.Output)
		}
	case streaming.KindPlan:
		for i := range ev.Entries {
			ev.Entries[i].Status = PlanStatus(ev.Entries[i].Status)
		}
	}
}
