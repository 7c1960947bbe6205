package streaming

import "strings"

// maxChunk is the largest piece a text is kept in. A text grows by new
// pieces, never by copying what it holds into a larger buffer: one long
// answer costs its own size, not the chain of buffers a growing slice
// leaves behind.
const maxChunk = 1 << 20

// text is the text of a block or of a tool call's output, kept once: a
// whole part (head, made by String) followed by pieces of up to maxChunk
// bytes (more only for a single larger append).
type text struct {
	head   string // the text String last returned (joined once, see String)
	chunks [][]byte
	n      int
}

// Len is the length of the text.
func (t *text) Len() int { return t.n }

// Append adds s (copied) to the text. Small appends to a text with room
// allocate nothing.
func (t *text) Append(s string) {
	if s == "" {
		return
	}
	t.n += len(s)
	if k := len(t.chunks) - 1; k >= 0 && cap(t.chunks[k]) > len(t.chunks[k]) {
		c := t.chunks[k]
		if room := cap(c) - len(c); room > 0 {
			m := min(room, len(s))
			t.chunks[k] = append(c, s[:m]...)
			s = s[m:]
		}
	}
	for s != "" {
		size := 32 // a short text costs little more than itself
		if k := len(t.chunks) - 1; k >= 0 {
			size = min(2*cap(t.chunks[k]), maxChunk)
		}
		size = max(size, min(len(s), maxChunk))
		if len(s) > maxChunk && t.n == len(s) {
			size = len(s) // a whole block at once: one piece
		}
		m := min(size, len(s))
		c := make([]byte, m, size)
		copy(c, s[:m])
		t.chunks = append(t.chunks, c)
		s = s[m:]
	}
}

// Reset empties the text.
func (t *text) Reset() { *t = text{} }

// String returns the text. The pieces are joined once, into one buffer
// that replaces them: asking again costs nothing until more is appended.
func (t *text) String() string {
	if len(t.chunks) == 0 {
		return t.head
	}
	// A Builder's String is its buffer without a copy. The Builder itself
	// must not be copied into t: it holds a pointer to where it was made
	// (a stack frame, here), which the garbage collector later finds
	// dangling ("found bad pointer in Go heap").
	var b strings.Builder
	b.Grow(t.n)
	b.WriteString(t.head)
	for _, c := range t.chunks {
		b.Write(c)
	}
	t.head, t.chunks = b.String(), nil
	return t.head
}

// PrefixOf reports whether s begins with the text.
func (t *text) PrefixOf(s string) bool {
	if len(s) < t.n {
		return false
	}
	h := t.head
	if s[:len(h)] != h {
		return false
	}
	s = s[len(h):]
	for _, c := range t.chunks {
		if string(c) != s[:len(c)] {
			return false
		}
		s = s[len(c):]
	}
	return true
}

// Equal reports whether the text is s.
func (t *text) Equal(s string) bool { return len(s) == t.n && t.PrefixOf(s) }

// HasPrefix reports whether the text begins with s.
func (t *text) HasPrefix(s string) bool {
	if len(s) > t.n {
		return false
	}
	h := t.head
	if len(s) <= len(h) {
		return h[:len(s)] == s
	}
	if s[:len(h)] != h {
		return false
	}
	s = s[len(h):]
	for _, c := range t.chunks {
		if len(s) <= len(c) {
			return string(c[:len(s)]) == s
		}
		if string(c) != s[:len(c)] {
			return false
		}
		s = s[len(c):]
	}
	return s == ""
}
