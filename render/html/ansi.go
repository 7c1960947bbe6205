package html

import (
	"html/template"
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/sanitize"
)

// Tool output keeps the colours its tool printed (a test runner's green
// PASS, a compiler's red error): the sanitiser keeps only the SGR
// sequences that set colour, bold, dim, italic or underline, closed at the
// end of each line, and resolves a progress line's carriage returns into
// what a terminal shows; ansiHTML turns them into spans of fixed classes.
// The page's Content-Security-Policy refuses style attributes, so a colour
// is one of the 16 the style sheet names (256-colour and RGB values take
// the nearest of them).

// outputOptions sanitise tool output for the page.
var outputOptions = sanitize.Options{SGR: sanitize.DrawSGR, Overwrite: true}

// cleanOutput sanitises tool output for ansiHTML.
func cleanOutput(s string) string { return sanitize.String(s, outputOptions) }

// sgrStyle is the style SGR sequences set: attributes and the 16-colour
// index of the text and background (-1: the default).
type sgrStyle struct {
	bold, dim, italic, underline bool
	fg, bg                       int
}

// apply folds the parameters of one SGR sequence (as DrawSGR writes
// them: numbers, 38;5;n and 38;2;r;g;b) into the style.
func (st *sgrStyle) apply(params string) {
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		n, err := strconv.Atoi(ps[i])
		if err != nil {
			continue
		}
		switch {
		case n == 0:
			*st = sgrStyle{fg: -1, bg: -1}
		case n == 1:
			st.bold = true
		case n == 2:
			st.dim = true
		case n == 3:
			st.italic = true
		case n == 4:
			st.underline = true
		case n == 22:
			st.bold, st.dim = false, false
		case n == 23:
			st.italic = false
		case n == 24:
			st.underline = false
		case n >= 30 && n <= 37:
			st.fg = n - 30
		case n >= 90 && n <= 97:
			st.fg = n - 90 + 8
		case n == 39:
			st.fg = -1
		case n >= 40 && n <= 47:
			st.bg = n - 40
		case n >= 100 && n <= 107:
			st.bg = n - 100 + 8
		case n == 49:
			st.bg = -1
		case (n == 38 || n == 48) && i+2 < len(ps):
			c := -1
			switch ps[i+1] {
			case "5":
				c = nearest256(atoi(ps[i+2]))
				i += 2
			case "2":
				if i+4 < len(ps) {
					c = nearestRGB(atoi(ps[i+2]), atoi(ps[i+3]), atoi(ps[i+4]))
				}
				i += 4
			}
			if n == 38 {
				st.fg = c
			} else {
				st.bg = c
			}
		}
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// class is the span's class attribute for the style, "" for none.
func (st sgrStyle) class() string {
	var cs []string
	for _, a := range [...]struct {
		on   bool
		name string
	}{{st.bold, "a-b"}, {st.dim, "a-d"}, {st.italic, "a-i"}, {st.underline, "a-u"}} {
		if a.on {
			cs = append(cs, a.name)
		}
	}
	if st.fg >= 0 {
		cs = append(cs, "a-f"+strconv.Itoa(st.fg))
	}
	if st.bg >= 0 && st.bg != st.fg {
		// (A background the text's own colour would hide it: the
		// sanitiser leaves out one too close, and the page draws both
		// in the nearest of its 16 colours, which may be one.)
		cs = append(cs, "a-g"+strconv.Itoa(st.bg))
	}
	return strings.Join(cs, " ")
}

// ansiHTML is tool output sanitised with outputOptions as HTML: its text
// escaped, its SGR sequences (the only escapes left in it) spans.
func ansiHTML(s string) template.HTML {
	if strings.IndexByte(s, 0x1b) < 0 {
		return esc(s)
	}
	var b strings.Builder
	st := sgrStyle{fg: -1, bg: -1}
	open := false
	for {
		i := strings.IndexByte(s, 0x1b)
		if i < 0 {
			b.WriteString(string(esc(s)))
			break
		}
		b.WriteString(string(esc(s[:i])))
		end := strings.IndexByte(s[i:], 'm')
		if end < 0 || s[i+1] != '[' {
			// (Not from the sanitiser.) Shown as it would be.
			b.WriteString("␛")
			s = s[i+1:]
			continue
		}
		st.apply(s[i+2 : i+end])
		s = s[i+end+1:]
		if open {
			b.WriteString("</span>")
			open = false
		}
		if c := st.class(); c != "" {
			b.WriteString(`<span class="` + c + `">`)
			open = true
		}
	}
	if open {
		b.WriteString("</span>")
	}
	return template.HTML(b.String())
}

// palette16 is xterm's default 16 colours, to find the nearest of them.
var palette16 = [16][3]int{
	{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
	{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
}

// nearest256 is the 16-colour index nearest a 256-colour index.
func nearest256(n int) int {
	switch {
	case n < 0 || n > 255:
		return -1
	case n < 16:
		return n
	case n < 232:
		level := [6]int{0, 95, 135, 175, 215, 255}
		n -= 16
		return nearestRGB(level[n/36], level[n/6%6], level[n%6])
	}
	g := 8 + 10*(n-232)
	return nearestRGB(g, g, g)
}

// nearestRGB is the 16-colour index nearest an RGB colour.
func nearestRGB(r, g, b int) int {
	best, bestD := 0, 1<<30
	for i, c := range palette16 {
		d := (c[0]-r)*(c[0]-r) + (c[1]-g)*(c[1]-g) + (c[2]-b)*(c[2]-b)
		if d < bestD {
			best, bestD = i, d
		}
	}
	return best
}
