package parsers

import (
	"strings"

	"github.com/tidwall/gjson"
)

// SubjectOf is the one argument that says what a tool call does: the
// first of keys (an agent's Tools.Subject, most telling first) that the
// input has as a non-empty string or array (an array's words joined); else
// the title; else the first non-empty string of the input; else the input
// itself. An input that is a JSON string is its own subject. The decoder
// fills streaming.Event.Subject with it for every tool call whose parser
// left it empty.
func SubjectOf(title, input string, keys []string) string {
	in := strings.TrimSpace(input)
	if in == "" || in == "{}" || in == "null" {
		return title
	}
	v := gjson.Parse(in)
	if v.IsObject() {
		return subjectObject(title, v, keys)
	}
	if v.Type == gjson.String {
		return v.Str
	}
	return in
}

// subjectObject is SubjectOf for an object input, read in one pass (a Get
// per key would scan the input once for each).
func subjectObject(title string, v gjson.Result, keys []string) string {
	// The most telling key whose first value (as Get finds it) is a
	// non-empty string or array.
	var seen uint64 // the keys met (the first 64)
	best := len(keys)
	var bestVal gjson.Result
	var first string
	v.ForEach(func(k, val gjson.Result) bool {
		if first == "" && val.Type == gjson.String && val.Str != "" {
			first = val.Str
		}
		for i, name := range keys[:min(best, 64)] {
			if k.Str == name {
				if seen&(1<<i) == 0 {
					seen |= 1 << i
					if val.Type == gjson.String && val.Str != "" || nonEmptyArray(val) {
						best, bestVal = i, val
					}
				}
				break
			}
		}
		return best > 0 // nothing can be more telling than the first key
	})
	switch {
	case best == len(keys):
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
