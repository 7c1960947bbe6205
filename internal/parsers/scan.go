package parsers

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/tidwall/gjson"
)

// A line is indexed by jsonscan.Index, which validates it and notes where
// the top-level fields of an object are in one pass: the decoder does it
// for every line before anything reads it (gjson returns odd values for
// bad JSON instead of errors), and the line is indexed here from what it
// found, without being parsed a second time.

// Reset re-indexes l for a new line, reusing its storage: json must be
// valid JSON (anything else indexes no field).
func (l *Line) Reset(json string, n int) {
	var top jsonscan.TopSpans
	if !jsonscan.Index(view.Bytes(json), &top) {
		top = jsonscan.TopSpans{}
	}
	l.resetSpans(json, n, &top)
}

// resetSpans indexes l for a new line from the spans jsonscan.Index found in
// the bytes json was copied from: nothing is parsed again, and values are
// read when asked for.
func (l *Line) resetSpans(json string, n int, top *jsonscan.TopSpans) {
	l.JSON, l.N, l.ntop, l.more, l.built, l.mask = json, n, top.N, top.More, 0, 0
	l.writable, l.decoded = false, l.decoded[:0]
	l.nscores = 0
	l.longs = top.Longs
	for i := 0; i < top.N; i++ {
		sp := &top.S[i]
		f := field{ks: sp.KS + 1, ke: sp.KE - 1, vs: sp.VS, ve: sp.VE}
		key := json[f.ks:f.ke]
		if strings.IndexByte(key, '\\') >= 0 {
			f.esc = true
			key = jsonscan.Unescape(key)
			l.keys[i] = key
		}
		l.mask |= keyBit(key)
		l.top[i] = f
	}
}

// rebase makes json, a copy of the line's text, the line's text: the
// index is kept (positions), values read from the old text are dropped.
func (l *Line) rebase(json string) {
	l.JSON, l.built = json, 0
	l.writable, l.decoded = false, l.decoded[:0]
	for i := 0; i < l.ntop; i++ {
		if l.top[i].esc {
			l.keys[i] = strings.Clone(l.keys[i])
		}
	}
}

// valueAt is the gjson result of the valid JSON value json[s:e].
func valueAt(json string, s, e int) gjson.Result {
	v := Value(json[s:e])
	v.Index = s
	return v
}

// valueAt is the gjson result of the value l.JSON[s:e], a top-level
// field's: a string with escapes is decoded as Text decodes it (into the
// line's scratch space for a parser that borrows lines, in place when it
// is very long and may be), not into a string of its own.
func (l *Line) valueAt(s, e int) gjson.Result {
	raw := l.JSON[s:e]
	if l.lend && len(raw) >= lendMin && raw[0] == '"' && strings.IndexByte(raw, '\\') >= 0 {
		return gjson.Result{Type: gjson.String, Raw: raw, Str: l.Text(raw), Index: s}
	}
	return valueAt(l.JSON, s, e)
}

// copyString copies b into a new string without first zeroing the memory
// (a line can be megabytes).
func copyString(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	sb.Write(b)
	return sb.String()
}
