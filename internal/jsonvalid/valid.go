// Package jsonvalid checks that bytes are one JSON value, with the grammar
// of gjson.Valid but without recursion: nesting is kept on a stack of one
// byte per open container, so a line nested millions of levels deep is
// judged in memory linear in its length (a byte a level at most) and never
// overflows the goroutine stack, as gjson.Valid does (it recurses once per
// level: about 6 million levels exhaust Go's 1 GB stack, a fatal error no
// recover can catch). Input is untrusted: every validation of it goes
// through here.
package jsonvalid

import (
	"github.com/agentfmt/agentfmt/internal/simd"
	"github.com/agentfmt/agentfmt/internal/view"
)

// Valid reports whether data is exactly one JSON value, white space around
// it allowed.
func Valid(data []byte) bool {
	_, ok := Depth(data)
	return ok
}

// String is Valid for a string, without a copy.
func String(s string) bool {
	return Valid(view.Bytes(s))
}

// Depth reports whether data is one JSON value and, when it is, the
// deepest nesting of containers in it (0 for a scalar, 1 for [] or {}).
func Depth(data []byte) (depth int, ok bool) {
	var stackBuf [64]byte
	stack := stackBuf[:0] // '}' or ']' for each open container
	i := 0
value:
	i = skipWS(data, i)
	if i == len(data) {
		return 0, false
	}
	switch data[i] {
	case '{', '[':
		open := data[i]
		i = skipWS(data, i+1)
		depth = max(depth, len(stack)+1)
		if open == '{' {
			if i < len(data) && data[i] == '}' {
				i++
				goto after
			}
			stack = append(stack, '}')
			goto key
		}
		if i < len(data) && data[i] == ']' {
			i++
			goto after
		}
		stack = append(stack, ']')
		goto value
	case '"':
		var ok bool
		if i, ok = scanString(data, i+1); !ok {
			return 0, false
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var ok bool
		if i, ok = ScanNumber(data, i); !ok {
			return 0, false
		}
	case 't':
		if i+4 > len(data) || string(data[i+1:i+4]) != "rue" {
			return 0, false
		}
		i += 4
	case 'f':
		if i+5 > len(data) || string(data[i+1:i+5]) != "alse" {
			return 0, false
		}
		i += 5
	case 'n':
		if i+4 > len(data) || string(data[i+1:i+4]) != "ull" {
			return 0, false
		}
		i += 4
	default:
		return 0, false
	}
after:
	// A value ends at i.
	if len(stack) == 0 {
		if skipWS(data, i) != len(data) {
			return 0, false
		}
		return depth, true
	}
	i = skipWS(data, i)
	if i == len(data) {
		return 0, false
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
	return 0, false
key:
	// A key is expected at i, inside an object.
	if i == len(data) || data[i] != '"' {
		return 0, false
	}
	{
		var ok bool
		if i, ok = scanString(data, i+1); !ok {
			return 0, false
		}
		i = skipWS(data, i)
		if i == len(data) || data[i] != ':' {
			return 0, false
		}
		i++
	}
	goto value
}

// scanString skips a JSON string whose opening quote is at i-1 and returns
// the index after its closing quote.
func scanString(data []byte, i int) (int, bool) {
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

func skipWS(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		break
	}
	return i
}

// ScanNumber checks a JSON number that starts at i and returns where it
// ends; the bytes after it are checked by the caller. The parsers' scanner
// uses it too.
func ScanNumber(data []byte, i int) (int, bool) {
	if data[i] == '-' {
		i++
		if i == len(data) || data[i] < '0' || data[i] > '9' {
			return i, false
		}
	}
	if data[i] == '0' {
		i++
	} else {
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i == len(data) || data[i] < '0' || data[i] > '9' {
			return i, false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i == len(data) || data[i] < '0' || data[i] > '9' {
			return i, false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	return i, true
}
