package filter

import (
	"unicode"
	"unicode/utf8"
)

// Marker finds and removes a completion marker (--until) in text, case
// insensitively (seed 001: "!isfinish is case-insensitive"), including
// when the text arrives in pieces that split the marker.
//
// Occurrences are removed left to right, without overlap, in one pass.
// A removed marker takes the horizontal whitespace on one side with it,
// so that "Done. !isfinish" shows as "Done." and "!isfinish Done" as
// "Done": the spaces and tabs just before it when there are any, else
// those just after it.
type Marker struct {
	runes []rune
}

// NewMarker returns a Marker for s (which must not be empty).
func NewMarker(s string) *Marker {
	return &Marker{runes: []rune(s)}
}

// Strip removes every occurrence of the marker from a whole text.
func (m *Marker) Strip(s string) string {
	var st markerState
	out, _ := m.feed(&st, s, true)
	return string(out)
}

// In reports whether the text holds the marker.
func (m *Marker) In(s string) bool {
	var st markerState
	m.feed(&st, s, true)
	return st.found
}

// markerState is what a stream of one block carries between pieces.
type markerState struct {
	eat   bool // a marker at the start of a line was just removed: drop the spaces after it
	found bool // a marker was removed
	last  byte // the last byte shown so far (0: none)
}

func hspace(c byte) bool { return c == ' ' || c == '\t' }

// feed scans held+in. It returns the text that can be shown now and the
// text to hold back: a possible start of the marker at the end, and the
// spaces before it (which go if the marker completes). With final (the
// block ends) nothing is held.
func (m *Marker) feed(st *markerState, buf string, final bool) (show []byte, hold string) {
	var out []byte
	const base = 0
	i := 0
	for i < len(buf) {
		if st.eat {
			if hspace(buf[i]) {
				i++
				continue
			}
			st.eat = false
		}
		n, res := m.matchAt(buf[i:])
		switch res {
		case matchFull:
			st.found = true
			k := len(out)
			for k > base && hspace(out[k-1]) {
				k--
			}
			if k < len(out) {
				out = out[:k] // the spaces before the marker go with it
			} else {
				prev := st.last
				if len(out) > base {
					prev = out[len(out)-1]
				}
				st.eat = prev == 0 || prev == '\n' // at the start of a line: the spaces after it go
			}
			i += n
			continue
		case matchPartial:
			if !final {
				return st.done(holdSpaces(out, base, buf[i:]))
			}
		}
		c := buf[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		if !final && !utf8.FullRuneInString(buf[i:]) {
			return st.done(holdSpaces(out, base, buf[i:]))
		}
		_, sz := utf8.DecodeRuneInString(buf[i:])
		out = append(out, buf[i:i+sz]...)
		i += sz
	}
	if final {
		return st.done(out, "")
	}
	return st.done(holdSpaces(out, base, ""))
}

func (st *markerState) done(show []byte, hold string) ([]byte, string) {
	if n := len(show); n > 0 {
		st.last = show[n-1]
	}
	return show, hold
}

// holdSpaces moves the trailing spaces of out (after base) into the
// held text, before rest.
func holdSpaces(out []byte, base int, rest string) ([]byte, string) {
	k := len(out)
	for k > base && hspace(out[k-1]) {
		k--
	}
	if k == len(out) {
		return out, rest
	}
	return out[:k], string(out[k:]) + rest
}

type matchResult int

const (
	matchNone matchResult = iota
	matchPartial
	matchFull
)

// matchAt reports whether s begins with the marker (matchFull, with its
// length in s), with a proper prefix of it that runs to the end of s
// (matchPartial), or not.
func (m *Marker) matchAt(s string) (int, matchResult) {
	p := 0
	for _, mr := range m.runes {
		if p >= len(s) {
			return 0, matchPartial
		}
		var r rune
		var sz int
		if c := s[p]; c < utf8.RuneSelf {
			r, sz = rune(c), 1
		} else {
			if !utf8.FullRuneInString(s[p:]) {
				return 0, matchPartial
			}
			r, sz = utf8.DecodeRuneInString(s[p:])
		}
		if !foldEq(r, mr) {
			return 0, matchNone
		}
		p += sz
	}
	return p, matchFull
}

// foldEq reports whether a and b are equal under simple Unicode case
// folding.
func foldEq(a, b rune) bool {
	if a == b {
		return true
	}
	if a < utf8.RuneSelf && b < utf8.RuneSelf {
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		return a == b
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}
