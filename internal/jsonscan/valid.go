package jsonscan

import "github.com/agentfmt/agentfmt/internal/view"

// Valid reports whether data is exactly one JSON value, white space
// around it allowed, as gjson.Valid does.
func Valid(data []byte) bool { return Index(data, nil) }

// ValidString is Valid for a string, without a copy.
func ValidString(s string) bool { return Index(view.Bytes(s), nil) }

// MaxTop is how many top-level fields Index notes.
const MaxTop = 24

// TopSpan is where one top-level field of an object is: its key (quotes
// included) and its value.
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

// Index reports whether data is exactly one JSON value, as Valid does,
// and, when top is not nil, notes where the top-level fields of an object
// and its long strings are: the decoder validates every line before
// anything reads it (gjson returns odd values for bad JSON instead of
// errors), and indexes it in the same pass, so a line is never parsed a
// second time. Nesting is kept on a stack of its own, one byte a level.
func Index(data []byte, top *TopSpans) bool {
	var stackBuf [64]byte
	stack := stackBuf[:0] // '}' or ']' for each open container
	if top != nil {
		top.N, top.More = 0, false
		top.Longs = top.Longs[:0]
	}
	var cur TopSpan // the top-level field being read
	i := 0
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
		if i, ok = scanNumber(data, i); !ok {
			return false
		}
	case 't', 'f', 'n':
		var ok bool
		if i, ok = scanLiteral(data, i); !ok {
			return false
		}
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
