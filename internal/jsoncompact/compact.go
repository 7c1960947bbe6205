// Package jsoncompact validates JSON text and compacts it to one line, in
// one pass, without recursion: nesting is kept on a stack of its own, so a
// value nested a million deep costs a million bytes of stack, not a
// million stack frames.
package jsoncompact

import "unicode/utf8"

// Append appends the compact form of the JSON value s to dst (the
// white space between tokens dropped: the text holds no newline) and
// reports whether s is exactly one valid JSON value of valid UTF-8. When
// it is not, dst is returned as it was.
func Append(dst []byte, s string) ([]byte, bool) {
	start := len(dst)
	out, ok := compact(dst, s)
	if !ok {
		return dst[:start], false
	}
	return out, true
}

// Valid reports whether s is exactly one valid JSON value of valid UTF-8.
func Valid(s string) bool {
	_, ok := compact(nil, s)
	return ok
}

// What the scanner expects next.
const (
	wantValue      = iota // a value (at the top, after ':' or ',' in an array, after '[')
	wantKey               // a key or '}' (after '{')
	wantKeyOnly           // a key (after ',' in an object)
	wantColon             // ':' after a key
	wantCommaOrEnd        // ',' or the container's end, after a value
)

func compact(b []byte, s string) ([]byte, bool) {
	var stack []byte // '{' or '[' per open container
	state := wantValue
	done := false // the top-level value is complete
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			i++
		}
		if i == len(s) {
			return b, done && len(stack) == 0
		}
		if done {
			return b, false // text after the value
		}
		c := s[i]
		switch state {
		case wantValue, wantKey, wantKeyOnly:
			if state != wantValue {
				if c == '}' && state == wantKey {
					b = append(b, c)
					i++
					stack = stack[:len(stack)-1]
					state, done = afterValue(stack)
					continue
				}
				if c != '"' {
					return b, false
				}
				e, ok := scanString(s, i)
				if !ok {
					return b, false
				}
				b = append(b, s[i:e]...)
				i = e
				state = wantColon
				continue
			}
			switch {
			case c == '{' || c == '[':
				b = append(b, c)
				stack = append(stack, c)
				i++
				state = wantKey
				if c == '[' {
					// An empty array, or a first value.
					j := i
					for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r') {
						j++
					}
					if j < len(s) && s[j] == ']' {
						b = append(b, ']')
						i = j + 1
						stack = stack[:len(stack)-1]
						state, done = afterValue(stack)
						continue
					}
					state = wantValue
				}
				continue
			case c == '"':
				e, ok := scanString(s, i)
				if !ok {
					return b, false
				}
				b = append(b, s[i:e]...)
				i = e
			case c == '-' || (c >= '0' && c <= '9'):
				e, ok := scanNumber(s, i)
				if !ok {
					return b, false
				}
				b = append(b, s[i:e]...)
				i = e
			case c == 't' || c == 'f' || c == 'n':
				lit := "null"
				if c == 't' {
					lit = "true"
				} else if c == 'f' {
					lit = "false"
				}
				if len(s)-i < len(lit) || s[i:i+len(lit)] != lit {
					return b, false
				}
				b = append(b, lit...)
				i += len(lit)
			default:
				return b, false
			}
			state, done = afterValue(stack)
		case wantColon:
			if c != ':' {
				return b, false
			}
			b = append(b, ':')
			i++
			state = wantValue
		case wantCommaOrEnd:
			top := stack[len(stack)-1]
			switch {
			case c == ',':
				b = append(b, ',')
				i++
				state = wantValue
				if top == '{' {
					state = wantKeyOnly
				}
			case (c == '}' && top == '{') || (c == ']' && top == '['):
				b = append(b, c)
				i++
				stack = stack[:len(stack)-1]
				state, done = afterValue(stack)
			default:
				return b, false
			}
		}
	}
}

// afterValue is the state after a complete value inside stack.
func afterValue(stack []byte) (state int, done bool) {
	if len(stack) == 0 {
		return wantValue, true
	}
	return wantCommaOrEnd, false
}

// scanString returns the index after the string whose opening quote is
// at i, checking its escapes, that it has no control characters, and
// that it is valid UTF-8.
func scanString(s string, i int) (int, bool) {
	i++
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i+1 >= len(s) {
				return 0, false
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s) {
					return 0, false
				}
				for _, h := range []byte(s[i+2 : i+6]) {
					if !isHex(h) {
						return 0, false
					}
				}
				i += 6
			default:
				return 0, false
			}
		case c < 0x20:
			return 0, false
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				return 0, false
			}
			i += n
		}
	}
	return 0, false
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// scanNumber returns the index after the number at i (RFC 8259 grammar).
func scanNumber(s string, i int) (int, bool) {
	if s[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return 0, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return 0, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, false
		}
	}
	return i, true
}
