package jsonscan

import (
	"encoding/binary"
	"math/bits"

	"github.com/agentfmt/agentfmt/internal/simd"
)

// scanString is the one JSON string scanner: it checks the string whose
// opening quote is at i-1 and returns the index after its closing quote,
// or false at a control character, a bad escape or the end of data.
// simd.StringRun (sixteen bytes at a time on amd64) skips the text and
// its two-byte escapes up to the closing quote, a \u escape or an error,
// so a string is read once whatever its length.
func scanString(data []byte, i int) (int, bool) {
	// Most strings are keys and short values: the first words often hold
	// the closing quote. What they hold before anything else is text.
	for j, end := i, i+32; j+8 <= len(data) && j < end; j += 8 {
		m := simd.Special(binary.LittleEndian.Uint64(data[j:]))
		if m == 0 {
			i = j + 8
			continue
		}
		k := j + bits.TrailingZeros64(m)>>3
		if data[k] == '"' {
			return k + 1, true
		}
		i = k
		break
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

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// scanNumber checks a JSON number that starts at i and returns where it
// ends; the bytes after it are checked by the caller.
func scanNumber(data []byte, i int) (int, bool) {
	if data[i] == '-' {
		i++
		if i == len(data) || data[i] < '0' || data[i] > '9' {
			return i, false
		}
	}
	if data[i] == '0' {
		i++
	} else {
		i = digits(data, i)
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i == len(data) || data[i] < '0' || data[i] > '9' {
			return i, false
		}
		i = digits(data, i)
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i == len(data) || data[i] < '0' || data[i] > '9' {
			return i, false
		}
		i = digits(data, i)
	}
	return i, true
}

func digits(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}

// scanLiteral checks the literal true, false or null whose first letter
// is at i and returns where it ends.
func scanLiteral(data []byte, i int) (int, bool) {
	lit := "null"
	switch data[i] {
	case 't':
		lit = "true"
	case 'f':
		lit = "false"
	}
	if len(data)-i < len(lit) || string(data[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}
