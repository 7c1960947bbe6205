package jsonscan

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/simd"
	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/tidwall/gjson"
)

// Fast access to the values of a validated line, for the hot paths of
// parsers (package parsers wraps these for its Line). gjson decodes every
// string it passes on the way to a key (and a value's Raw needs the value
// scanned to its end), so reading three fields of a tool result with
// three Gets scans its output three times and unescapes it at least once
// per Get that passes it. These walk a value once, skip strings with
// scanString, and decode only what is asked for, with one allocation. They give the same results as gjson on
// valid JSON (the decoder validates every line before a parser sees it);
// on anything else they stop early.

// Fields iterates over the fields of a JSON object's text:
//
//	for f := jsonscan.FieldsOf(v.Raw); f.Next(); {
//		switch f.Key { case "type": … f.Value() … }
//	}
//
// A key that occurs twice is given twice; gjson's Get returns the first.
type Fields struct {
	s   string
	i   int
	t   Tab
	Key string // the field's name, unescaped
	Raw string // the field's value as JSON text
}

// Tab is where the long strings of the line an iterator reads are (from
// its validation, Index), and where the iterator's text starts in the
// line: such strings are skipped without being scanned again. The zero
// Tab knows none.
type Tab struct {
	longs []LongSpan
	base  int
}

// TabOf is the Tab for s, a part of line (a substring of it, sharing its
// memory), whose long strings are longs; the zero Tab when s is not a
// part of line.
func TabOf(line, s string, longs []LongSpan) Tab {
	if len(longs) == 0 || len(s) == 0 {
		return Tab{}
	}
	off, ok := view.Offset(line, s)
	if !ok {
		return Tab{}
	}
	return Tab{longs: longs, base: off}
}

// end returns the index after the long string whose opening quote is at
// i-1 of the iterator's text, or -1 when it is not a known long string.
func (t *Tab) end(i int) int {
	if len(t.longs) == 0 {
		return -1
	}
	pos := t.base + i - 1
	lo, hi := 0, len(t.longs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.longs[m].Start < pos {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(t.longs) && t.longs[lo].Start == pos {
		return t.longs[lo].End - t.base
	}
	return -1
}

// FieldsIn is FieldsOf with the long strings of t skipped without a scan.
func FieldsIn(obj string, t Tab) Fields {
	f := FieldsOf(obj)
	f.t = t
	return f
}

// ElementsIn is ElementsOf with the long strings of t skipped without a
// scan.
func ElementsIn(arr string, t Tab) Elements {
	e := ElementsOf(arr)
	e.t = t
	return e
}

// FieldsOf returns an iterator over the fields of obj, the text of a valid
// JSON object (anything else has no fields).
func FieldsOf(obj string) Fields {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return Fields{i: len(obj)}
	}
	return Fields{s: obj, i: i + 1}
}

// Next moves to the next field; false at the end.
func (f *Fields) Next() bool {
	s, i := f.s, skipSpace(f.s, f.i)
	if i < len(s) && s[i] == ',' {
		i = skipSpace(s, i+1)
	}
	if i >= len(s) || s[i] != '"' {
		f.i = len(s)
		return false
	}
	ke := skipString(s, i+1, nil)
	if ke > len(s) {
		f.i = len(s)
		return false
	}
	f.Key = s[i+1 : ke-1]
	if strings.IndexByte(f.Key, '\\') >= 0 {
		f.Key = Unescape(f.Key)
	}
	i = skipSpace(s, ke)
	if i >= len(s) || s[i] != ':' {
		f.i = len(s)
		return false
	}
	i = skipSpace(s, i+1)
	e := skipValue(s, i, &f.t)
	if e <= i || e > len(s) {
		f.i = len(s)
		return false
	}
	f.Raw, f.i = s[i:e], e
	return true
}

// Value is the current field's value, as gjson.Get would give it.
func (f *Fields) Value() gjson.Result { return Value(f.Raw) }

// Elements iterates over the values of a JSON array's text.
type Elements struct {
	s   string
	i   int
	t   Tab
	Raw string // the element as JSON text
}

// ElementsOf returns an iterator over the elements of arr, the text of a
// valid JSON array (anything else has none).
func ElementsOf(arr string) Elements {
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return Elements{i: len(arr)}
	}
	return Elements{s: arr, i: i + 1}
}

// Next moves to the next element; false at the end.
func (e *Elements) Next() bool {
	s, i := e.s, skipSpace(e.s, e.i)
	if i < len(s) && s[i] == ',' {
		i = skipSpace(s, i+1)
	}
	if i >= len(s) || s[i] == ']' {
		e.i = len(s)
		return false
	}
	end := skipValue(s, i, &e.t)
	if end <= i || end > len(s) {
		e.i = len(s)
		return false
	}
	e.Raw, e.i = s[i:end], end
	return true
}

// Value is the current element as a gjson result.
func (e *Elements) Value() gjson.Result { return Value(e.Raw) }

// Field returns the value of key in the JSON object text obj, as
// gjson.Get(obj, key) does for a plain key (one without path syntax).
func Field(obj, key string) gjson.Result {
	for f := FieldsOf(obj); f.Next(); {
		if f.Key == key {
			return Value(f.Raw)
		}
	}
	return gjson.Result{}
}

// Value is the gjson result of one valid JSON value's text: its type, and
// for a string its unescaped text (decoded faster than gjson does). Text
// that is not valid JSON gives an unspecified result (never a panic).
func Value(raw string) gjson.Result {
	if raw == "" {
		return gjson.Result{}
	}
	switch raw[0] {
	case '{', '[':
		return gjson.Result{Type: gjson.JSON, Raw: raw}
	case '"':
		if len(raw) < 2 || raw[len(raw)-1] != '"' {
			return gjson.Parse(raw)
		}
		body := raw[1 : len(raw)-1]
		if strings.IndexByte(body, '\\') >= 0 {
			body = Unescape(body)
		}
		return gjson.Result{Type: gjson.String, Raw: raw, Str: body}
	case 't':
		return gjson.Result{Type: gjson.True, Raw: raw}
	case 'f':
		return gjson.Result{Type: gjson.False, Raw: raw}
	case 'n':
		return gjson.Result{Type: gjson.Null, Raw: raw}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return gjson.Result{Type: gjson.Number, Raw: raw, Num: number(raw)}
	}
	return gjson.Parse(raw)
}

// number is the value of a valid JSON number as gjson reads it
// (strconv.ParseFloat), without the float parser for an integer of up to
// 15 digits, which a float64 holds exactly.
func number(raw string) float64 {
	i, neg := 0, raw[0] == '-'
	if neg {
		i = 1
	}
	if len(raw)-i <= 15 {
		var n int64
		for ; i < len(raw); i++ {
			c := raw[i]
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int64(c-'0')
		}
		if i == len(raw) {
			if neg {
				if n == 0 {
					return math.Copysign(0, -1) // "-0", as ParseFloat reads it
				}
				return float64(-n)
			}
			return float64(n)
		}
	}
	f, _ := strconv.ParseFloat(raw, 64)
	return f
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// skipString returns the index after the closing quote of the string
// whose opening quote is at i-1 (len(s)+1 when it is not a valid string):
// a long string the line's validation noted (t) without a scan, any other
// with scanString.
func skipString(s string, i int, t *Tab) int {
	if t != nil {
		if e := t.end(i); e >= 0 {
			return e
		}
	}
	if e, ok := scanString(view.Bytes(s), i); ok {
		return e
	}
	return len(s) + 1
}

// skipValue returns the index after the valid JSON value that starts at i.
func skipValue(s string, i int, t *Tab) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '"':
		return skipString(s, i+1, t)
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				i = skipString(s, i+1, t)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(s) + 1
	}
	// A number or a literal.
	j := i
	for j < len(s) {
		switch s[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j
		}
		j++
	}
	return j
}

// Unescape decodes the body of a valid JSON string (without its
// quotes) as gjson does, in one allocation.
func Unescape(s string) string {
	// (+16: see AppendUnescaped; b is not written again.)
	b := AppendUnescaped(make([]byte, 0, len(s)+16), s)
	return view.String(b)
}

// AppendUnescaped appends the decoded body of a valid JSON string to dst.
// simd.UnescapeRun copies the text and its two-byte escapes (sixteen bytes at
// a time on amd64); \u escapes are decoded here. The decoded text is
// never longer than s: dst grows once.
func AppendUnescaped(b []byte, s string) []byte {
	w := len(b)
	b = slices.Grow(b, len(s)+16)
	b = b[:w+len(s)+16] // (UnescapeRun may write 16 bytes ahead)
	for {
		n, m := simd.UnescapeRun(b[w:], s)
		w += n
		s = s[m:]
		// At the end, or at a backslash that is not a two-byte escape.
		// (gjson stops at a control character or a bad escape; valid
		// JSON has neither, and only validated text is read here.)
		if len(s) < 6 || s[1] != 'u' {
			return b[:w]
		}
		r := hexRune(s[2:6])
		s = s[6:]
		if r >= 0xD800 && r < 0xDC00 && len(s) >= 6 && s[0] == '\\' && s[1] == 'u' {
			if r2 := hexRune(s[2:6]); r2 >= 0xDC00 && r2 < 0xE000 {
				r = utf16.DecodeRune(r, r2)
				s = s[6:]
			}
		}
		w += utf8.EncodeRune(b[w:], r)
	}
}

// UnescapeInPlace decodes the body of a valid JSON string in b over
// itself, as appendUnescaped does, and returns the decoded length. The
// text decoded is never longer than what it is decoded from, so it is
// written only over bytes already read (UnescapeRunGo copies with
// memmove, which allows the overlap; the assembly may write ahead).
func UnescapeInPlace(b []byte) int {
	s := view.String(b)
	w := 0
	for {
		n, m := simd.UnescapeRunGo(b[w:], s)
		w += n
		s = s[m:]
		if len(s) < 6 || s[1] != 'u' {
			return w
		}
		r := hexRune(s[2:6])
		s = s[6:]
		if r >= 0xD800 && r < 0xDC00 && len(s) >= 6 && s[0] == '\\' && s[1] == 'u' {
			if r2 := hexRune(s[2:6]); r2 >= 0xDC00 && r2 < 0xE000 {
				r = utf16.DecodeRune(r, r2)
				s = s[6:]
			}
		}
		w += utf8.EncodeRune(b[w:], r)
	}
}

// hexRune reads four hex digits (gjson reads what ParseUint accepts; a
// valid line has four hex digits there).
func hexRune(h string) rune {
	var r rune
	for i := 0; i < 4; i++ {
		c := h[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0
		}
		r = r<<4 | rune(c)
	}
	return r
}
