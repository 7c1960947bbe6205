package parsers

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
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
// per key would scan the input once for each) that decodes no value but
// the one it gives (a Write's content, an Edit's strings are passed over).
func subjectObject(title string, v gjson.Result, keys []string) string {
	// The most telling key whose first value is a non-empty string or
	// array.
	var seen uint64 // the keys met (the first 64)
	best := len(keys)
	var bestRaw, firstRaw string
	for f := jsonscan.FieldsOf(v.Raw); f.Next(); {
		str := f.Raw[0] == '"' && f.Raw != `""` // (an escape decodes to something)
		if firstRaw == "" && str {
			firstRaw = f.Raw
		}
		for i, name := range keys[:min(best, 64)] {
			if f.Key == name {
				if seen&(1<<i) == 0 {
					seen |= 1 << i
					if str || nonEmptyArray(f.Raw) {
						best, bestRaw = i, f.Raw
					}
				}
				break
			}
		}
		if best == 0 {
			break // nothing is more telling than the first key
		}
	}
	switch {
	case best == len(keys):
	case bestRaw[0] == '"':
		return jsonscan.Value(bestRaw).Str
	default:
		var parts []string
		for _, p := range jsonscan.Value(bestRaw).Array() {
			parts = append(parts, p.String())
		}
		return strings.Join(parts, " ")
	}
	if title != "" {
		return title
	}
	if firstRaw != "" {
		return jsonscan.Value(firstRaw).Str
	}
	return v.Raw
}

// nonEmptyArray reports whether raw is the text of an array with an
// element.
func nonEmptyArray(raw string) bool {
	e := jsonscan.ElementsOf(raw)
	return raw[0] == '[' && e.Next()
}
