package filter

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentence boundaries (--sentences).
//
// A sentence ends with a run of terminal marks — . ! ? … and every other
// Unicode sentence terminator (। ؟ ። ‼ …) — and the closing quotes,
// brackets and emphasis marks right after it ( " ' ” ’ » ) ] * _ 」 ）),
// when what follows is whitespace or the end of the block. After a CJK
// full stop, exclamation or question mark (。！？｡) no whitespace is needed.
// The whitespace after a sentence belongs to it, so a block's sentences
// concatenate to its text, every sentence but a whitespace-only block
// starts with a visible character, and a sentence is complete when the
// first character of the next one arrives (or the block ends).
//
// Not a boundary: a full stop inside a word or number (3.14, main.go,
// e.g.,), a full stop after a common abbreviation (e.g. i.e. Dr. Mr. vs.
// np. tzn. m.in. …), after an initial or an acronym (J. R. R. Tolkien,
// U.S.), after a list number at the start of a line ("1. First"), and
// anything inside a fenced code block.

// abbreviations never end a sentence (lower case, with their final dot).
var abbreviations = map[string]bool{
	// English
	"e.g.": true, "i.e.": true, "mr.": true, "mrs.": true, "ms.": true, "dr.": true, "prof.": true,
	"sr.": true, "jr.": true, "st.": true, "vs.": true, "cf.": true, "fig.": true, "approx.": true,
	"incl.": true, "esp.": true, "resp.": true, "viz.": true,
	// Polish
	"np.": true, "tzn.": true, "tj.": true, "m.in.": true, "tzw.": true, "wg.": true, "ww.": true,
	"ul.": true, "im.": true, "płk.": true, "mgr.": true, "inż.": true, "tel.": true, "nr.": true,
	// German, French, Spanish
	"z.b.": true, "d.h.": true, "bzw.": true, "ca.": true, "usw.": true, "mme.": true, "sra.": true, "sr.a": true,
}

func isMark(r rune) bool {
	return r == '…' || r == '\u037e' || r == '.' || r == '!' || r == '?' || (r >= 0x80 && unicode.Is(unicode.Sentence_Terminal, r))
}

// isWideMark reports terminal marks that end a sentence without a space
// after them (CJK text has none).
func isWideMark(r rune) bool {
	return r == '。' || r == '！' || r == '？' || r == '｡'
}

func isCloser(r rune) bool {
	switch r {
	case '"', '\'', '*', '_', '“', '‘':
		return true
	}
	return r >= 0x80 && (unicode.Is(unicode.Pe, r) || unicode.Is(unicode.Pf, r)) || r == ')' || r == ']' || r == '}'
}

// splitter finds the sentences of one block as its text streams in.
type splitter struct {
	buf       []byte // text not yet given out as sentences
	pos       int    // buf[:pos] holds no boundary
	lineStart bool   // buf[0] begins a line
	fence     string // the open code fence ("```", "~~~~"), or ""
	skipLine  bool   // the rest of the current line is a fence line
}

func newSplitter() splitter { return splitter{lineStart: true} }

// add appends text and returns the sentences it completes.
func (s *splitter) add(text string, out []string) []string {
	s.buf = append(s.buf, text...)
	return s.scan(false, out)
}

// end returns the rest of the block as its last sentence. A block of
// only whitespace has no sentence.
func (s *splitter) end(out []string) []string {
	out = s.scan(true, out)
	if len(s.buf) > 0 {
		if strings.TrimSpace(string(s.buf)) != "" {
			out = append(out, string(s.buf))
		}
		s.buf = s.buf[:0]
		s.pos = 0
	}
	return out
}

// take removes the first n bytes of buf (a sentence).
func (s *splitter) take(n int) string {
	sent := string(s.buf[:n])
	s.lineStart = sent[len(sent)-1] == '\n'
	s.buf = append(s.buf[:0], s.buf[n:]...)
	s.pos = 0
	return sent
}

func (s *splitter) atLineStart(p int) bool {
	if p == 0 {
		return s.lineStart
	}
	return s.buf[p-1] == '\n'
}

func decode(b []byte, final bool) (rune, int, bool) {
	if c := b[0]; c < utf8.RuneSelf {
		return rune(c), 1, true
	}
	if !final && !utf8.FullRune(b) {
		return 0, 0, false
	}
	r, n := utf8.DecodeRune(b)
	return r, n, true
}

// scan looks for boundaries from pos. Without final it stops where it
// needs more text to decide.
func (s *splitter) scan(final bool, out []string) []string {
	for s.pos < len(s.buf) {
		p := s.pos
		if !s.skipLine && s.atLineStart(p) {
			fence, ok := s.fenceAt(p, final)
			if !ok {
				return out
			}
			if fence != "" {
				if s.fence == "" {
					s.fence = fence
				} else if strings.HasPrefix(fence, s.fence) && fence[0] == s.fence[0] {
					s.fence = ""
				}
				s.skipLine = true
			}
		}
		r, n, ok := decode(s.buf[p:], final)
		if !ok {
			return out
		}
		if s.skipLine || s.fence != "" {
			if r == '\n' {
				s.skipLine = false
			}
			s.pos += n
			continue
		}
		if !isMark(r) {
			s.pos += n
			continue
		}
		end, state := s.boundary(p, final)
		switch state {
		case needMore:
			return out
		case noBoundary:
			s.pos = end
			continue
		}
		out = append(out, s.take(end))
	}
	return out
}

type boundaryState int

const (
	noBoundary boundaryState = iota
	isBoundary
	needMore
)

// boundary looks at the terminal mark at p: the run of marks, the closers
// after it, and what follows. For a boundary, end is where the next
// sentence begins (after the whitespace); otherwise where to go on
// scanning.
func (s *splitter) boundary(p int, final bool) (end int, st boundaryState) {
	b := s.buf
	q := p
	wide := false
	marks := 0
	for q < len(b) {
		r, n, ok := decode(b[q:], final)
		if !ok {
			return p, needMore
		}
		if !isMark(r) {
			break
		}
		wide = wide || isWideMark(r)
		marks++
		q += n
	}
	for q < len(b) {
		r, n, ok := decode(b[q:], final)
		if !ok {
			return p, needMore
		}
		if !isCloser(r) {
			break
		}
		q += n
	}
	if q == len(b) {
		if !final {
			return p, needMore
		}
		return q, isBoundary
	}
	if !wide {
		r, _, ok := decode(b[q:], final)
		if !ok {
			return p, needMore
		}
		if !unicode.IsSpace(r) {
			return q, noBoundary
		}
		if marks == 1 && b[p] == '.' && s.notAnEnd(p) {
			return q, noBoundary
		}
	}
	// The whitespace after the sentence is part of it.
	for q < len(b) {
		r, n, ok := decode(b[q:], final)
		if !ok {
			return p, needMore
		}
		if !unicode.IsSpace(r) {
			return q, isBoundary
		}
		q += n
	}
	if !final {
		return p, needMore
	}
	return q, isBoundary
}

// notAnEnd reports a full stop at p that ends a word rather than a
// sentence: an abbreviation, an initial, an acronym, a list number.
func (s *splitter) notAnEnd(p int) bool {
	b := s.buf
	w := p
	for w > 0 {
		r, n := utf8.DecodeLastRune(b[:w])
		if unicode.IsSpace(r) {
			break
		}
		w -= n
	}
	word := string(b[w : p+1])
	// Opening brackets and quotes before the word: "(e.g."
	word = strings.TrimLeftFunc(word, func(r rune) bool {
		return unicode.Is(unicode.Ps, r) || unicode.Is(unicode.Pi, r) || r == '"' || r == '\'' || r == '*' || r == '_'
	})
	if word == "." || word == "" {
		return false
	}
	if abbreviations[strings.ToLower(word)] {
		return true
	}
	letters := strings.TrimSuffix(word, ".")
	// An initial: "J." (not the pronoun I)
	if r, n := utf8.DecodeRuneInString(letters); n == len(letters) && unicode.IsUpper(r) && r != 'I' {
		return true
	}
	// An acronym with dots: "U.S.", "a.m."
	if acronym(word) {
		return true
	}
	// A list number at the start of a line: "1. ", "  12. "
	if isDigits(letters) && s.onlySpaceBefore(w) {
		return true
	}
	return false
}

// acronym reports words like "U.S." or "p.m.": single letters, each
// followed by a dot, at least two.
func acronym(w string) bool {
	n := 0
	for w != "" {
		r, sz := utf8.DecodeRuneInString(w)
		if !unicode.IsLetter(r) || len(w) < sz+1 || w[sz] != '.' {
			return false
		}
		w = w[sz+1:]
		n++
	}
	return n >= 2
}

func isDigits(s string) bool {
	if s == "" || len(s) > 4 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// onlySpaceBefore reports whether only spaces and tabs come between the
// start of the line and w.
func (s *splitter) onlySpaceBefore(w int) bool {
	for i := w - 1; i >= 0; i-- {
		switch s.buf[i] {
		case ' ', '\t':
			continue
		case '\n':
			return true
		}
		return false
	}
	return s.lineStart
}

// fenceAt looks at the line starting at p for a code fence: up to three
// spaces, then three or more backticks or tildes. It returns the fence
// ("" when the line is not one) or !ok when the line is too short yet to
// tell.
func (s *splitter) fenceAt(p int, final bool) (string, bool) {
	b := s.buf[p:]
	i := 0
	for i < len(b) && i < 3 && b[i] == ' ' {
		i++
	}
	if i == len(b) {
		return "", final
	}
	c := b[i]
	if c != '`' && c != '~' {
		return "", true
	}
	j := i
	for j < len(b) && b[j] == c {
		j++
	}
	if j == len(b) && !final {
		return "", false // the run may go on
	}
	if j-i < 3 {
		return "", true
	}
	return string(b[i:j]), true
}
