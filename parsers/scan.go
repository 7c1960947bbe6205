package parsers

import (
	"encoding/binary"
	"github.com/agentfmt/agentfmt/internal/jsonvalid"
	"math/bits"
	"strings"

	"github.com/agentfmt/agentfmt/internal/simd"
	"github.com/tidwall/gjson"
)

// The decoder validates every line before anything reads it (gjson returns
// odd values for bad JSON instead of errors). scanJSON does that in one
// pass, with the same grammar as gjson.ValidBytes, and notes on the way
// where the top-level fields of an object are, so the line is indexed
// without being parsed a second time. Strings, most of an agent's bytes,
// are skipped sixteen bytes at a time (see internal/simd). Nesting is
// kept on a stack of its own, so a line of a million '[' is rejected or
// accepted without deep recursion.

// topSpan is where one top-level field of an object line is: its key
// (quotes included) and its value.
type topSpan struct {
	ks, ke int // key
	vs, ve int // value
}

// topSpans are the spans scanJSON found; more is set when the object has
// more than maxTop fields (those after are not noted). longs are the
// strings of the line of longString bytes or more, in order.
type topSpans struct {
	n     int
	more  bool
	s     [maxTop]topSpan
	longs []longSpan
}

// longString is the length from which scanJSON notes where a string value
// ends, so that reading the line skips it without a second scan.
const longString = 64

// longSpan is a long string value: its opening quote and the index after
// its closing quote.
type longSpan struct{ start, end int }

// scanString skips a JSON string whose opening quote is at i-1 and returns
// the index after its closing quote. simd.StringRun (sixteen bytes at a time
// on amd64) skips the text and its two-byte escapes up to the closing quote,
// a \u escape or an error, so a string is read once whatever its length.
func scanString(data []byte, i int) (int, bool) {
	// Most strings are keys and short values: the first words often hold
	// the closing quote.
	for j := i; j+8 <= len(data) && j < i+32; j += 8 {
		if m := simd.Special(binary.LittleEndian.Uint64(data[j:])); m != 0 {
			if k := j + bits.TrailingZeros64(m)>>3; data[k] == '"' {
				return k + 1, true
			}
			break
		}
	}
	for {
		i += simd.StringRun(data[i:])
		if i >= len(data) {
			return i, false
		}
		switch c := data[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		}
		// A backslash, not of a two-byte escape: \uXXXX or an error.
		i++
		if i == len(data) || data[i] != 'u' {
			return i, false
		}
		for range 4 {
			i++
			if i >= len(data) || !ishex(data[i]) {
				return i, false
			}
		}
		i++
	}
}

func ishex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(data []byte, i int) int {
	for i < len(data) && isWS(data[i]) {
		i++
	}
	return i
}

// scanJSON reports whether data is valid JSON, exactly as
// gjson.ValidBytes does. When it is an object and top is not nil, top
// receives the spans of its top-level fields (positions in data).
func scanJSON(data []byte, top *topSpans) bool {
	var stackBuf [64]byte
	stack := stackBuf[:0] // '}' or ']' for each open container
	if top != nil {
		top.n, top.more = 0, false
		top.longs = top.longs[:0]
	}
	var cur topSpan // the top-level field being read
	i := skipWS(data, 0)
value:
	i = skipWS(data, i)
	if i == len(data) {
		return false
	}
	switch c := data[i]; c {
	case '{':
		i = skipWS(data, i+1)
		if i < len(data) && data[i] == '}' {
			i++
			goto after
		}
		stack = append(stack, '}')
		goto key
	case '[':
		i = skipWS(data, i+1)
		if i < len(data) && data[i] == ']' {
			i++
			goto after
		}
		stack = append(stack, ']')
		goto value
	case '"':
		start := i
		var ok bool
		if i, ok = scanString(data, i+1); !ok {
			return false
		}
		if i-start >= longString && top != nil {
			top.longs = append(top.longs, longSpan{start, i})
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var ok bool
		if i, ok = jsonvalid.ScanNumber(data, i); !ok {
			return false
		}
	case 't':
		if i+4 > len(data) || string(data[i+1:i+4]) != "rue" {
			return false
		}
		i += 4
	case 'f':
		if i+5 > len(data) || string(data[i+1:i+5]) != "alse" {
			return false
		}
		i += 5
	case 'n':
		if i+4 > len(data) || string(data[i+1:i+4]) != "ull" {
			return false
		}
		i += 4
	default:
		return false
	}
after:
	// A value ends at i.
	if len(stack) == 0 {
		return skipWS(data, i) == len(data)
	}
	if len(stack) == 1 && top != nil && stack[0] == '}' {
		cur.ve = i
		if top.n < maxTop {
			top.s[top.n] = cur
			top.n++
		} else {
			top.more = true
		}
	}
	i = skipWS(data, i)
	if i == len(data) {
		return false
	}
	switch c, end := data[i], stack[len(stack)-1]; {
	case c == ',':
		i++
		if end == ']' {
			goto value
		}
		i = skipWS(data, i)
		goto key
	case c == end:
		stack = stack[:len(stack)-1]
		i++
		goto after
	}
	return false
key:
	// A key is expected at i, inside an object.
	if i == len(data) || data[i] != '"' {
		return false
	}
	{
		ks := i
		var ok bool
		if i, ok = scanString(data, i+1); !ok {
			return false
		}
		ke := i
		i = skipWS(data, i)
		if i == len(data) || data[i] != ':' {
			return false
		}
		i = skipWS(data, i+1)
		if len(stack) == 1 {
			cur = topSpan{ks: ks, ke: ke, vs: i}
		}
	}
	goto value
}

// resetSpans indexes l for a new line from the spans scanJSON found in
// the bytes json was copied from: nothing is parsed again, and values are
// read when asked for.
func (l *Line) resetSpans(json string, n int, top *topSpans) {
	l.JSON, l.N, l.ntop, l.more, l.built, l.mask = json, n, top.n, top.more, 0, 0
	l.writable, l.decoded = false, l.decoded[:0]
	l.longs = top.longs
	for i := 0; i < top.n; i++ {
		sp := &top.s[i]
		f := field{ks: sp.ks + 1, ke: sp.ke - 1, vs: sp.vs, ve: sp.ve}
		key := json[f.ks:f.ke]
		if strings.IndexByte(key, '\\') >= 0 {
			f.esc = true
			key = gjson.Parse(json[sp.ks:sp.ke]).Str
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
// field's: a long string is decoded as Text decodes it (in place when it
// may be).
func (l *Line) valueAt(s, e int) gjson.Result {
	raw := l.JSON[s:e]
	if len(raw) >= inPlaceMin && raw[0] == '"' && raw[len(raw)-1] == '"' && strings.IndexByte(raw, '\\') >= 0 {
		if str, ok := l.inPlace(raw[1 : len(raw)-1]); ok {
			return gjson.Result{Type: gjson.String, Raw: raw, Str: str, Index: s}
		}
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
