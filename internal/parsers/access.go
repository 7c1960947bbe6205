package parsers

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/tidwall/gjson"
)

// Fast access to the values of a validated line, for the hot paths of
// parsers: the scanning itself is internal/jsonscan's (the package that
// holds agentfmt's hand-written JSON machinery; its views of memory are
// internal/view's, where all of agentfmt's unsafe code is); Line
// adds what it knows of its line (the long strings its validation found,
// scratch space for decoded strings).

// Fields iterates over the fields of a JSON object's text:
//
//	for f := parsers.FieldsOf(v.Raw); f.Next(); {
//		switch f.Key { case "type": … f.Value() … }
//	}
//
// A key that occurs twice is given twice; gjson's Get returns the first.
type Fields = jsonscan.Fields

// Elements iterates over the values of a JSON array's text.
type Elements = jsonscan.Elements

// FieldsOf returns an iterator over the fields of obj, the text of a valid
// JSON object (anything else has no fields).
func FieldsOf(obj string) Fields { return jsonscan.FieldsOf(obj) }

// ElementsOf returns an iterator over the elements of arr, the text of a
// valid JSON array (anything else has none).
func ElementsOf(arr string) Elements { return jsonscan.ElementsOf(arr) }

// Field returns the value of key in the JSON object text obj, as
// gjson.Get(obj, key) does for a plain key (one without path syntax).
func Field(obj, key string) gjson.Result { return jsonscan.Field(obj, key) }

// Value is the gjson result of one valid JSON value's text: its type, and
// for a string its unescaped text (decoded faster than gjson does). Text
// that is not valid JSON gives an unspecified result (never a panic).
func Value(raw string) gjson.Result { return jsonscan.Value(raw) }

// tab returns the table of long strings for s, a part of the line's text
// (none when s is not).
func (l *Line) tab(s string) jsonscan.Tab { return jsonscan.TabOf(l.JSON, s, l.longs) }

// FieldsOf is parsers.FieldsOf for obj, a part of the line's text: the
// long strings the line's validation found are skipped without a scan.
func (l *Line) FieldsOf(obj string) Fields { return jsonscan.FieldsIn(obj, l.tab(obj)) }

// ElementsOf is parsers.ElementsOf for arr, a part of the line's text.
func (l *Line) ElementsOf(arr string) Elements { return jsonscan.ElementsIn(arr, l.tab(arr)) }

// Field is parsers.Field for obj, a part of the line's text.
func (l *Line) Field(obj, key string) gjson.Result { return Value(l.FieldRaw(obj, key)) }

// FieldRaw is the JSON text of the first field key of obj, a part of the
// line's text ("" when there is none): read with Text, a string is not
// copied.
func (l *Line) FieldRaw(obj, key string) string {
	for f := l.FieldsOf(obj); f.Next(); {
		if f.Key == key {
			return f.Raw
		}
	}
	return ""
}

// lendMin is the length from which Line.Text decodes a string with
// escapes into the line's scratch space instead of a new allocation.
const lendMin = 256

// inPlaceMin is the length from which a string with escapes is decoded in
// place, over its own escaped text, when the line's text is memory the
// decoder lends and may write (see Line.inPlace): an answer of tens of
// megabytes is then held once, as the line, not once more decoded.
const inPlaceMin = 1 << 20

// Text is the value raw (a JSON value in the line's text) as gjson's
// String gives it, like Value(raw).String(). For a parser that borrows
// lines (Agent.Borrow), a long string with escapes is decoded into the
// line's scratch space, which the next line reuses, or, when it is very
// long and the line is the reader's buffer, over its own escaped text
// (after which raw no longer reads as JSON: Text and Get give the decoded
// text again, other readers of raw do not): such a string, like the
// line's own text, is only valid while the line is handled. The decoder
// copies it into every event field but the payload of text-like events
// and results (see Decoder), which is valid during Emit only.
func (l *Line) Text(raw string) string {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return Value(raw).String()
	}
	body := raw[1 : len(raw)-1]
	if strings.IndexByte(body, '\\') < 0 {
		return body
	}
	if s, ok := l.inPlace(body); ok {
		return s
	}
	if !l.lend || len(raw) < lendMin {
		return jsonscan.Unescape(body)
	}
	start := len(l.arena)
	l.arena = jsonscan.AppendUnescaped(l.arena, body)
	return view.String(l.arena[start:])
}

// decodedSpan is a string of the line decoded in place: its body starts
// at offset at of the line's text, and its decoded text is n bytes there.
type decodedSpan struct{ at, n int }

// inPlace decodes body, the body of a string with escapes in the line's
// text, over itself, when it is long (inPlaceMin) and the line is memory
// the decoder lends and allows to be written (Line.writable, for a parser
// that borrows lines). A body decoded before gives the same text again.
func (l *Line) inPlace(body string) (string, bool) {
	if !l.lend || !l.writable || len(body) < inPlaceMin {
		return "", false
	}
	at, ok := view.Offset(l.JSON, body)
	if !ok {
		return "", false
	}
	for _, d := range l.decoded {
		if d.at == at {
			return l.JSON[at : at+d.n], true
		}
	}
	n := jsonscan.UnescapeInPlace(view.Bytes(body))
	l.decoded = append(l.decoded, decodedSpan{at: at, n: n})
	return l.JSON[at : at+n], true
}
