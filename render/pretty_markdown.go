package render

import "strings"

// Markdown in assistant text is styled lightly while it streams: headings
// and **bold** bold, `inline code` cyan, code fence lines dim. Only SGR
// sequences are added around the text; not one character of it changes,
// so what the terminal shows is what the agent wrote.

// Kinds of line, decided by how the line starts.
const (
	mdUnsure    uint8 = iota // too little of the line yet
	mdPlain                  // prose
	mdHeading                // # Title
	mdFenceLine              // ``` or ~~~, opening or closing a code block
	mdCodeLine               // inside a code block: left as is
)

// mdState is the styling state at a point of a line.
type mdState struct {
	kind uint8
	code bool // inside `inline code`
	bold bool // inside **bold**
}

// mdLineKind decides the kind of a line from its start. final says the
// line is complete; otherwise a start that could still turn into a fence
// or a heading is mdUnsure.
func mdLineKind(line string, fence, final bool) uint8 {
	t := line
	for i := 0; i < 3 && strings.HasPrefix(t, " "); i++ {
		t = t[1:]
	}
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		return mdFenceLine
	}
	if !final && len(t) < 3 && (strings.Trim(t, "`") == "" || strings.Trim(t, "~") == "") {
		return mdUnsure // "", "`", "``", "~", "~~": may still become a fence
	}
	if fence {
		return mdCodeLine
	}
	if strings.HasPrefix(t, "#") {
		n := len(t) - len(strings.TrimLeft(t, "#"))
		switch {
		case n > 6:
			return mdPlain
		case n == len(t):
			if final {
				return mdHeading
			}
			return mdUnsure
		case t[n] == ' ' || t[n] == '\t':
			return mdHeading
		}
	}
	return mdPlain
}

// styleMD appends seg, a piece of a line, styled from state st, and
// returns the state after it.
func styleMD(dst *strings.Builder, seg string, st mdState, p Palette) mdState {
	switch st.kind {
	case mdFenceLine:
		dst.WriteString(p.Dim(seg))
		return st
	case mdCodeLine:
		dst.WriteString(seg)
		return st
	}
	heading := st.kind == mdHeading
	start := 0
	flush := func(end int) {
		if end <= start {
			return
		}
		s := seg[start:end]
		if st.code {
			s = p.Cyan(s)
		}
		if st.bold || heading {
			s = p.Bold(s)
		}
		dst.WriteString(s)
		start = end
	}
	for i := 0; i < len(seg); {
		switch c := seg[i]; {
		case c == '`':
			j := i
			for j < len(seg) && seg[j] == '`' {
				j++
			}
			if !st.code {
				flush(i)
				st.code = true
			} else {
				flush(j)
				st.code = false
			}
			i = j
		case c == '*' && !st.code && i+1 < len(seg) && seg[i+1] == '*':
			if !st.bold {
				flush(i)
				st.bold = true
			} else {
				flush(i + 2)
				st.bold = false
			}
			i += 2
		default:
			i++
		}
	}
	flush(len(seg))
	return st
}
