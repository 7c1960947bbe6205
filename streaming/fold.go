package streaming

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// fold is s as the session compares a restated text with the one it
// holds: CRLF line ends as LF, and in Unicode's composed form (NFC). An
// agent that restates an answer with CRLF line ends or decomposed accents
// ("e" and U+0301 for "é") says the same thing, not a revision.
func fold(s string) string {
	if strings.Contains(s, "\r\n") {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	if !norm.NFC.IsNormalString(s) {
		s = norm.NFC.String(s)
	}
	return s
}

// startsFolded reports whether rest, one character at the end of a piece
// of a restatement, may be the start of what the held text has at off
// once the next piece comes: a CR before the held text's LF, or a letter
// whose accent (a combining mark) is still to come.
func startsFolded(t *text, off int, rest string) bool {
	if r, n := utf8.DecodeRuneInString(rest); n != len(rest) || r == utf8.RuneError {
		return false
	}
	next := t.slice(off, min(off+16, t.Len()))
	if rest == "\r" {
		return strings.HasPrefix(next, "\n")
	}
	_, n := utf8.DecodeRuneInString(next)
	return n > 0 && next[:n] != rest && strings.HasPrefix(norm.NFD.String(next[:n]), norm.NFD.String(rest))
}
