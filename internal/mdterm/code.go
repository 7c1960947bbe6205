package mdterm

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/highlight"
	"github.com/agentfmt/agentfmt/internal/termwrap"
	"github.com/alecthomas/chroma/v2"
)

// tokenSGR is the colour of a token: a few ANSI colours by category, so
// the terminal's own theme decides the shades (light or dark alike);
// punctuation, operators and plain names stay in the default colour.
func tokenSGR(t chroma.TokenType) string {
	switch {
	case t.InCategory(chroma.Comment):
		return "2" // faint
	case t == chroma.KeywordType || t == chroma.NameBuiltin:
		return "36"
	case t.InCategory(chroma.Keyword):
		return "35"
	case t.InSubCategory(chroma.LiteralString):
		return "32"
	case t.InSubCategory(chroma.LiteralNumber):
		return "33"
	case t == chroma.NameFunction || t == chroma.NameClass || t == chroma.NameDecorator:
		return "34"
	}
	return ""
}

// highlighted runs chroma over code; ok is false for an unknown language.
// Every line it returns opens and closes its own styles.
func highlighted(code, lang string) (string, bool) {
	toks, ok := highlight.Tokens(lang, code+"\n")
	if !ok {
		return "", false
	}
	var b strings.Builder
	cur := ""
	set := func(sgr string) {
		if sgr == cur {
			return
		}
		if cur != "" {
			b.WriteString(termwrap.Reset)
		}
		if sgr != "" {
			b.WriteString("\x1b[" + sgr + "m")
		}
		cur = sgr
	}
	for _, tok := range toks {
		sgr := tokenSGR(tok.Type)
		for i, part := range strings.Split(tok.Value, "\n") {
			if i > 0 {
				set("")
				b.WriteByte('\n')
			}
			if part == "" {
				continue
			}
			if strings.TrimSpace(part) == "" {
				set("")
			} else {
				set(sgr)
			}
			b.WriteString(part)
		}
	}
	set("")
	return b.String(), true
}

// expandTabs turns tabs into spaces to the next multiple of 4 cells.
func expandTabs(s string) string {
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case '\n':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col += termwrap.RuneWidth(r)
		}
	}
	return b.String()
}

// Code renders the lines of a code block, highlighted as lang when colour
// is on and chroma knows the language. Tabs become spaces to the next
// multiple of 4 cells; each line is wrapped to width.
func Code(code, lang string, width int, color bool) []termwrap.Line {
	code = strings.TrimSuffix(expandTabs(code), "\n")
	lines := strings.Split(code, "\n")
	if color {
		if hl, ok := highlighted(code, lang); ok {
			lines = strings.Split(strings.TrimSuffix(hl, "\n"), "\n")
		}
	}
	var out []termwrap.Line
	for _, l := range lines {
		// A wrapped line of code goes on under its own indent.
		ind := len(termwrap.Strip(l)) - len(strings.TrimLeft(termwrap.Strip(l), " "))
		if ind >= width/2 {
			ind = 0
		}
		for i, w := range termwrap.WrapHanging(l, width, width-ind) {
			if i > 0 && ind > 0 {
				w = termwrap.Line{S: strings.Repeat(" ", ind) + w.S, W: ind + w.W}
			}
			out = append(out, w)
		}
	}
	return out
}
