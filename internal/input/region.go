package input

// region is where a line longer than OwnedMin is gathered, when the
// system lends memory outside the Go heap (see reserve): a span of
// address space as long as the longest line kept, of which only the
// pages written take memory. A line grows in place there, so it is never
// joined from pieces into a second copy (which held a long line twice,
// for a moment, at its end), and the next long line reuses it. The pages
// of a line are given back to the system when the next line is read.
type region struct {
	mem  []byte // the reserved span (nil: none yet, or none to be had)
	n    int    // bytes of the current line in it
	used int    // bytes written since the pages were last given back
	none bool   // the system lent none: lines are joined from pieces
}

// start begins a line in the region with head (the line so far), and
// reports false when there is no region (size is the most it will hold).
func (g *region) start(head []byte, size int) bool {
	if g.none {
		return false
	}
	if g.mem == nil {
		mem, err := reserve(size)
		if err != nil || len(mem) < size {
			g.none = true
			return false
		}
		g.mem = mem
	}
	g.n = copy(g.mem, head)
	g.used = max(g.used, g.n)
	return true
}

// add appends chunk to the line in the region. The region holds the
// longest line kept and its line ending: chunk always fits.
func (g *region) add(chunk []byte) {
	g.n += copy(g.mem[g.n:], chunk)
	g.used = max(g.used, g.n)
}

// line is the line gathered.
func (g *region) line() []byte { return g.mem[:g.n:g.n] }

// release gives the pages the last lines wrote back to the system: the
// region holds no line (what was handed out from it is no longer valid).
func (g *region) release() {
	if g.used > 0 {
		free(g.mem[:g.used])
	}
	g.n, g.used = 0, 0
}
