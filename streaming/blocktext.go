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
	pool   *pieces // where new pieces come from and go back to (nil: none)
}

// pieces keeps the pieces of texts the session let go (messages that
// stopped, blocks rewritten), for the texts that come next: a session that
// shows short messages for hours reuses a little memory instead of
// allocating all of their text, which would have the collector run for
// it. It holds at most piecesMax bytes. Pieces are 32 << k bytes, up to
// maxChunk.
type pieces struct {
	free [pieceClasses][][]byte
	n    int
}

const (
	pieceClasses = 16 // 32 B to 1 MiB (maxChunk)
	piecesMax    = 1 << 20
)

// pieceClass is the class of a piece of size bytes, and whether size is
// a class size.
func pieceClass(size int) (int, bool) {
	k := 0
	for c := 32; c < size; c <<= 1 {
		k++
	}
	return k, k < pieceClasses && 32<<k == size
}

// get returns an empty piece of size bytes (a class size).
func (p *pieces) get(size int) []byte {
	if p != nil {
		if k, ok := pieceClass(size); ok {
			if f := p.free[k]; len(f) > 0 {
				c := f[len(f)-1]
				f[len(f)-1] = nil
				p.free[k] = f[:len(f)-1]
				p.n -= cap(c)
				return c
			}
		}
	}
	return make([]byte, 0, size)
}

// put keeps a piece for later, if it is of a class size and there is room.
func (p *pieces) put(c []byte) {
	if k, ok := pieceClass(cap(c)); ok && p.n+cap(c) <= piecesMax {
		p.free[k] = append(p.free[k], c[:0])
		p.n += cap(c)
	}
}

// release empties the text and gives its pieces back to its pool: nothing
// may use them after (String's result does not: it is a string of its
// own).
func (t *text) release() {
	if t.pool != nil {
		for _, c := range t.chunks {
			t.pool.put(c)
		}
	}
	*t = text{pool: t.pool}
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
		for size < min(len(s), maxChunk) {
			size <<= 1 // a class size: pieces are reused (see pieces)
		}
		var c []byte
		if len(s) > maxChunk && t.n == len(s) {
			c = make([]byte, 0, len(s)) // a whole block at once: one piece
		} else {
			c = t.pool.get(size)
		}
		m := min(cap(c), len(s))
		c = append(c, s[:m]...)
		t.chunks = append(t.chunks, c)
		s = s[m:]
	}
}

// Reset empties the text (its pieces go back to its pool).
func (t *text) Reset() { t.release() }

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

// matchAt returns how many bytes at the start of s are the text's from
// off on.
func (t *text) matchAt(off int, s string) int {
	n, pos := 0, 0
	if off < len(t.head) {
		seg := t.head[off:]
		k := 0
		for k < len(seg) && k < len(s) && seg[k] == s[k] {
			k++
		}
		if n += k; k < len(seg) || k == len(s) {
			return n
		}
		s, off = s[k:], len(t.head)
	}
	pos = len(t.head)
	for _, c := range t.chunks {
		if off >= pos+len(c) {
			pos += len(c)
			continue
		}
		seg := c[off-pos:]
		k := 0
		for k < len(seg) && k < len(s) && seg[k] == s[k] {
			k++
		}
		if n += k; k < len(seg) || k == len(s) {
			return n
		}
		s = s[k:]
		pos += len(c)
		off = pos
	}
	return n
}

// slice returns a copy of the text's bytes from..to.
func (t *text) slice(from, to int) string {
	var b strings.Builder
	b.Grow(to - from)
	pos := 0
	add := func(seg []byte, s string) {
		n := len(seg) + len(s)
		lo, hi := max(from-pos, 0), min(to-pos, n)
		if lo < hi {
			if seg != nil {
				b.Write(seg[lo:hi])
			} else {
				b.WriteString(s[lo:hi])
			}
		}
		pos += n
	}
	add(nil, t.head)
	for _, c := range t.chunks {
		add(c, "")
	}
	return b.String()
}

// isSpace is the white space a restatement may differ in around a text.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// trimSpace is s without the white space around it.
func trimSpace(s string) string {
	a, b := 0, len(s)
	for a < b && isSpace(s[a]) {
		a++
	}
	for b > a && isSpace(s[b-1]) {
		b--
	}
	return s[a:b]
}

// span returns where the text without the white space around it begins
// and ends.
func (t *text) span() (from, to int) {
	from, to = t.n, 0
	pos := 0
	seg := func(b []byte, s string) {
		n := len(b) + len(s)
		at := func(i int) byte {
			if b != nil {
				return b[i]
			}
			return s[i]
		}
		for i := 0; i < n; i++ {
			if !isSpace(at(i)) {
				from = min(from, pos+i)
				to = max(to, pos+i+1)
			}
		}
		pos += n
	}
	seg(nil, t.head)
	for _, c := range t.chunks {
		seg(c, "")
	}
	if from > to {
		return 0, 0
	}
	return from, to
}

// EqualTrimmed reports whether the text and s are the same but for the
// white space around them.
func (t *text) EqualTrimmed(s string) bool {
	s = trimSpace(s)
	from, to := t.span()
	return to-from == len(s) && t.matchAt(from, s) == len(s)
}
