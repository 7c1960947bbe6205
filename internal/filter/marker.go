package filter

import (
	"unicode"
	"unicode/utf8"
)

// Marker finds and removes a completion marker (--until) in the text of a
// message: the marker counts only where it stands as a token of its own
// — whitespace or the edge of the text on both sides — at the beginning
// or at the end of the text, compared case-insensitively (loop scripts
// write `!isfinish` or `!ISFINISH`, at either end of the message). A word
// that merely contains it (`abandoned` for `done`, `TOOL_OK_DONE`) and a
// marker in the middle of the text are left alone, byte for byte.
//
// A marker that counts is removed with the whitespace between it and the
// rest of the text: "Done. !isfinish" shows as "Done.", "!isfinish Done"
// as "Done", "All tests pass.\n\n<promise>DONE</promise>\n" as "All tests
// pass.". Only one marker goes at each end.
//
// The text may arrive in pieces that split the marker (feed): whatever
// could still turn out to be a marker at the beginning, or a marker (with
// the whitespace before and after it) at the end, is held back until the
// next piece or the end of the text tells. What is held is the marker and
// the whitespace around it, never the text before it.
type Marker struct {
	runes []rune
}

// NewMarker returns a Marker for s (which must not be empty).
func NewMarker(s string) *Marker {
	return &Marker{runes: []rune(s)}
}

// Strip removes the marker from a whole text where it counts.
func (m *Marker) Strip(s string) string {
	var st markerState
	out, _ := m.feed(&st, s, true)
	return string(out)
}

// In reports whether the marker counts in the text: a token of its own at
// its beginning or end.
func (m *Marker) In(s string) bool {
	var st markerState
	m.feed(&st, s, true)
	return st.found
}

// markerState is what a stream of one block carries between pieces.
type markerState struct {
	begun bool // past the beginning of the text: a leading marker was found or ruled out
	eat   bool // a leading marker was just removed: drop the whitespace after it
	found bool // a marker was removed
	last  byte // the last byte shown so far (0: none)
}

// space is the whitespace that separates a marker from the text.
func space(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// feed scans buf (what was held back, then the new piece). It returns the
// text that can be shown now and the text to hold back. With final (the
// block ends) nothing is held.
func (m *Marker) feed(st *markerState, buf string, final bool) (show []byte, hold string) {
	if !st.begun {
		lead := 0
		for lead < len(buf) && space(buf[lead]) {
			lead++
		}
		rest := buf[lead:]
		if lead > maxSpace {
			rest = "" // no marker after that much whitespace counts as the beginning
		} else if rest == "" && !final {
			return nil, buf // only whitespace so far
		}
		n, res := m.matchAt(rest)
		switch {
		case rest == "":
			st.begun = true
		case res == matchFull && n == len(rest):
			if !final {
				return nil, buf // the marker, or the start of a longer word
			}
			st.begun, st.found = true, true
			return nil, ""
		case res == matchFull && space(rest[n]):
			st.begun, st.found, st.eat = true, true, true
			buf = rest[n:]
		case res == matchPartial && !final:
			return nil, buf
		default:
			st.begun = true
		}
	}
	if st.eat {
		i := 0
		for i < len(buf) && space(buf[i]) {
			i++
		}
		buf = buf[i:]
		if buf == "" && !final {
			return nil, ""
		}
		st.eat = false
	}
	cut := m.tail(st, buf, final)
	if final {
		if cut < len(buf) {
			st.found = true // (tail with final only cuts at a whole marker)
		}
		return st.done([]byte(buf[:cut]), "")
	}
	return st.done([]byte(buf[:cut]), buf[cut:])
}

// tail returns where the part of buf to hold back (not final) or to drop
// (final) begins: the whitespace before a marker at the end of buf, with
// the whitespace after it; when not final, also the whitespace before a
// start of the marker at the end, trailing whitespace, and an incomplete
// last character. It returns len(buf) when there is nothing to hold.
func (m *Marker) tail(st *markerState, buf string, final bool) int {
	end := len(buf)
	for end > 0 && space(buf[end-1]) {
		end--
	}
	if len(buf)-end <= maxSpace {
		if k := m.endsWith(buf[:end], len(m.runes)); k >= 0 && m.boundary(st, buf, k) {
			return spaceBefore(buf, k)
		}
	}
	if final {
		return len(buf)
	}
	// An incomplete last character is held until it is whole; it may
	// continue a start of the marker.
	body := buf
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-utf8.UTFMax; i-- {
		if utf8.RuneStart(buf[i]) {
			if !utf8.FullRuneInString(buf[i:]) {
				body = buf[:i]
			}
			break
		}
	}
	for n := len(m.runes) - 1; n > 0; n-- {
		if k := m.endsWith(body, n); k >= 0 && m.boundary(st, buf, k) {
			return spaceBefore(buf, k)
		}
	}
	return spaceBefore(body, len(body)) // whitespace: a marker may follow
}

// boundary reports whether a marker starting at k in buf stands after
// whitespace or at the beginning of the text.
func (m *Marker) boundary(st *markerState, buf string, k int) bool {
	if k > 0 {
		return space(buf[k-1])
	}
	return st.last == 0 || space(st.last)
}

// maxSpace bounds the whitespace held back (and removed) with a marker,
// so that a stream of nothing but whitespace costs linear time.
const maxSpace = 4096

// spaceBefore returns where the whitespace before k begins (at most
// maxSpace bytes of it).
func spaceBefore(buf string, k int) int {
	for n := 0; k > 0 && space(buf[k-1]) && n < maxSpace; n++ {
		k--
	}
	return k
}

// endsWith returns where s ends with the first n runes of the marker
// (case-insensitively), or -1.
func (m *Marker) endsWith(s string, n int) int {
	p := len(s)
	for i := n - 1; i >= 0; i-- {
		if p == 0 {
			return -1
		}
		r, sz := utf8.DecodeLastRuneInString(s[:p])
		if r == utf8.RuneError && sz <= 1 {
			return -1
		}
		if !foldEq(r, m.runes[i]) {
			return -1
		}
		p -= sz
	}
	return p
}

func (st *markerState) done(show []byte, hold string) ([]byte, string) {
	if n := len(show); n > 0 {
		st.last = show[n-1]
	}
	return show, hold
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
