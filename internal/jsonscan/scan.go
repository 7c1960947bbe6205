package jsonscan

import (
	"encoding/binary"
	"math/bits"

	"github.com/agentfmt/agentfmt/internal/jsonvalid"
	"github.com/agentfmt/agentfmt/internal/simd"
)

// The decoder validates every line before anything reads it (gjson returns
// odd values for bad JSON instead of errors). Index does that in one
// pass, with the same grammar as gjson.ValidBytes, and notes on the way
// where the top-level fields of an object are, so the line is indexed
// without being parsed a second time. Strings, most of an agent's bytes,
// are skipped sixteen bytes at a time (see internal/simd). Nesting is
// kept on a stack of its own, so a line of a million '[' is rejected or
// accepted without deep recursion.

// MaxTop is how many top-level fields Index notes.
const MaxTop = 24

// TopSpan is where one top-level field of an object line is: its key
// (quotes included) and its value.
type TopSpan struct {
	KS, KE int // key
	VS, VE int // value
}

// TopSpans are the spans Index found; More is set when the object has
// more than MaxTop fields (those after are not noted). Longs are the
// strings of the line of LongString bytes or more, in order.
type TopSpans struct {
	N     int
	More  bool
	S     [MaxTop]TopSpan
	Longs []LongSpan
}

// LongString is the length from which Index notes where a string value
// ends, so that reading the line skips it without a second scan.
const LongString = 64

// LongSpan is a long string value: its opening quote and the index after
// its closing quote.
type LongSpan struct{ Start, End int }

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
// Index validates data as JSON (the grammar of gjson.ValidBytes) and, when
// top is not nil, notes where the top-level fields of an object and its
// long strings are.
func Index(data []byte, top *TopSpans) bool {
	var stackBuf [64]byte
	stack := stackBuf[:0] // '}' or ']' for each open container
	if top != nil {
		top.N, top.More = 0, false
		top.Longs = top.Longs[:0]
	}
	var cur TopSpan // the top-level field being read
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
		if i-start >= LongString && top != nil {
			top.Longs = append(top.Longs, LongSpan{start, i})
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
		cur.VE = i
		if top.N < MaxTop {
			top.S[top.N] = cur
			top.N++
		} else {
			top.More = true
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
			cur = TopSpan{KS: ks, KE: ke, VS: i}
		}
	}
	goto value
}
