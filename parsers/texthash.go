package parsers

import (
	"hash/maphash"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TextHash follows a text that streams in pieces in constant memory (a
// run can stream hours of text): its length, and hashes of it whole and
// of it without the white space around it (as strings.TrimSpace trims),
// enough to tell whether a complete message repeats it or extends it. It
// is how a parser recognises an agent restating what it streamed without
// keeping a copy of the text, which only the session keeps.
type TextHash struct {
	seed  maphash.Seed
	n     int          // bytes so far
	all   maphash.Hash // of all of them
	core  maphash.Hash // from the first non-space rune to the last one
	coreN int          // bytes written to core
	lead  bool         // a non-space rune was seen
	pend  []byte       // white space after the last non-space rune
	hold  []byte       // the start of a rune cut at the end of the last chunk
}

// reset forgets the text (a new run).
func (r *TextHash) Reset() {
	if r.seed == (maphash.Seed{}) {
		r.seed = maphash.MakeSeed()
		r.all.SetSeed(r.seed)
		r.core.SetSeed(r.seed)
	}
	r.all.Reset()
	r.core.Reset()
	r.n, r.coreN, r.lead = 0, 0, false
	r.pend, r.hold = r.pend[:0], r.hold[:0]
}

// add appends s to the run's text.
func (r *TextHash) Add(s string) {
	if r.seed == (maphash.Seed{}) {
		r.Reset()
	}
	r.n += len(s)
	r.all.WriteString(s)
	b := s
	if len(r.hold) > 0 {
		// A rune cut between chunks is read whole.
		b = string(r.hold) + s
		r.hold = r.hold[:0]
	}
	// A rune cut at the end waits for the next chunk.
	if k := cutRune(b); k >= 0 {
		r.hold = append(r.hold, b[k:]...)
		b = b[:k]
	}
	if !r.lead {
		b = strings.TrimLeftFunc(b, unicode.IsSpace)
	}
	core := strings.TrimRightFunc(b, unicode.IsSpace)
	if core == "" {
		if r.lead {
			r.pend = append(r.pend, b...)
		}
		return
	}
	if len(r.pend) > 0 {
		r.core.Write(r.pend)
		r.coreN += len(r.pend)
	}
	r.core.WriteString(core)
	r.coreN += len(core)
	r.pend = append(r.pend[:0], b[len(core):]...)
	r.lead = true
}

// cutRune returns where a rune cut off at the end of b starts, or -1.
func cutRune(b string) int {
	i := len(b) - 1
	for i >= 0 && len(b)-i < utf8.UTFMax && !utf8.RuneStart(b[i]) {
		i--
	}
	if i >= 0 && !utf8.FullRuneInString(b[i:]) {
		return i
	}
	return -1
}

// Clone returns a copy of r that goes on independently of it.
func (r *TextHash) Clone() TextHash {
	c := *r
	c.pend = append([]byte(nil), r.pend...)
	c.hold = append([]byte(nil), r.hold...)
	return c
}

// Empty reports that no text was added.
func (r *TextHash) Empty() bool { return r.n == 0 }

// Len is the length of the text.
func (r *TextHash) Len() int { return r.n }

// prefixOf reports whether text starts with the run's text (which is not
// empty).
func (r *TextHash) PrefixOf(text string) bool {
	return r.n > 0 && len(text) >= r.n && maphash.String(r.seed, text[:r.n]) == r.all.Sum64()
}

// trimmedIs reports whether the run's text without the white space around
// it is trimmed (not empty).
func (r *TextHash) TrimmedIs(trimmed string) bool {
	if r.n == 0 {
		return false
	}
	h, n := r.core, r.coreN // a copy: the run goes on
	if len(r.hold) > 0 {
		// The bytes of a rune never completed are not space: the trimmed
		// text ends with them, and the white space before them.
		h.Write(r.pend)
		h.Write(r.hold)
		n += len(r.pend) + len(r.hold)
	}
	return len(trimmed) == n && maphash.String(r.seed, trimmed) == h.Sum64()
}
