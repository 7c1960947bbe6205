package termwrap

import (
	"strconv"
	"strings"
)

// Reset switches every SGR attribute off.
const Reset = "\x1b[0m"

// State is the set of SGR attributes in effect, enough to reopen them on
// the next row or after moving the cursor into the middle of a row.
type State struct {
	attrs  uint16 // bit i: SGR attribute i+1 (bold … strike) is on
	fg, bg string // colour parameters ("31", "38;5;208"), "" for default
}

// Zero reports that no attribute is on.
func (s State) Zero() bool { return s.attrs == 0 && s.fg == "" && s.bg == "" }

// Open is the sequence that switches the state on from the default.
func (s State) Open() string {
	if s.Zero() {
		return ""
	}
	var b strings.Builder
	b.WriteString("\x1b[")
	sep := ""
	for i := 0; i < 9; i++ {
		if s.attrs&(1<<i) != 0 {
			b.WriteString(sep)
			b.WriteString(strconv.Itoa(i + 1))
			sep = ";"
		}
	}
	for _, c := range []string{s.fg, s.bg} {
		if c != "" {
			b.WriteString(sep)
			b.WriteString(c)
			sep = ";"
		}
	}
	b.WriteByte('m')
	return b.String()
}

// Apply folds one SGR sequence (ESC [ params m) into the state.
func (s *State) Apply(seq string) {
	if len(seq) < 3 || seq[len(seq)-1] != 'm' {
		return
	}
	params := seq[2 : len(seq)-1]
	if params == "" {
		*s = State{}
		return
	}
	ps := strings.FieldsFunc(params, func(r rune) bool { return r == ';' })
	for i := 0; i < len(ps); i++ {
		p := ps[i]
		if strings.ContainsRune(p, ':') { // 38:5:n, 4:3 — kept whole
			switch {
			case strings.HasPrefix(p, "38"):
				s.fg = p
			case strings.HasPrefix(p, "48"):
				s.bg = p
			}
			continue
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			continue
		}
		switch {
		case n == 0:
			*s = State{}
		case n >= 1 && n <= 9:
			s.attrs |= 1 << (n - 1)
		case n == 21 || n == 22:
			s.attrs &^= 1<<0 | 1<<1
		case n >= 23 && n <= 29:
			s.attrs &^= 1 << (n - 21) // 23 italic off … 29 strike off
		case n >= 30 && n <= 37, n >= 90 && n <= 97:
			s.fg = p
		case n == 39:
			s.fg = ""
		case n >= 40 && n <= 47, n >= 100 && n <= 107:
			s.bg = p
		case n == 49:
			s.bg = ""
		case n == 38 || n == 48:
			// 38;5;n or 38;2;r;g;b
			k := i + 1
			if k < len(ps) && ps[k] == "5" {
				k += 2
			} else if k < len(ps) && ps[k] == "2" {
				k += 4
			}
			k = min(k, len(ps))
			c := strings.Join(ps[i:k], ";")
			if n == 38 {
				s.fg = c
			} else {
				s.bg = c
			}
			i = k - 1
		}
	}
}

// Strip removes SGR sequences from s.
func Strip(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	EachCluster(s, func(c string, _ int, sgr bool) bool {
		if !sgr {
			b.WriteString(c)
		}
		return true
	})
	return b.String()
}
