package sanitize

import (
	"strconv"
	"strings"
)

// SGR says what becomes of an SGR sequence (ESC [ params m: colours and
// text attributes) in untrusted text. Every other control sequence is
// shown visibly whatever it says.
type SGR uint8

const (
	// ShowSGR shows it visibly, as any control sequence ("␛[31m").
	ShowSGR SGR = iota
	// DropSGR leaves it out: the text without its colours (plain,
	// markdown, text).
	DropSGR
	// DrawSGR keeps what it says of colour (the 16 colours, 256 colours,
	// RGB, for text and background), bold, dim, italic, underline, and
	// their resets, rewritten as one SGR sequence of those alone; other
	// attributes (blink, reverse, conceal, strike…) are left out. A line
	// that set any ends with a reset (pretty, html).
	DrawSGR
	// PassSGR lets it through as it came (--allow-color), unless it
	// conceals text (8), which is shown visibly. A line that set any ends
	// with a reset.
	PassSGR
)

// drawable is the SGR sequence that keeps the drawable attributes of
// params (the text between ESC [ and m), or "" when none is left. A
// sequence without parameters is a reset.
func drawable(params string) string {
	if params == "" {
		return "\x1b[0m"
	}
	var kept []string
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		p := ps[i]
		if strings.IndexByte(p, ':') >= 0 {
			// 38:5:n, 38:2:r:g:b, 38:2::r:g:b (the colon forms).
			if c := colour(strings.Split(p, ":")); c != "" {
				kept = append(kept, c)
			} else if q, _, _ := strings.Cut(p, ":"); trimZeros(q) == "4" {
				kept = append(kept, "4") // 4:3, a curly underline: underlined
			}
			continue
		}
		n, err := strconv.Atoi(trimZeros(p))
		if err != nil || p == "" {
			if p == "" {
				kept = append(kept, "0")
			}
			continue
		}
		switch {
		case n == 0, n >= 1 && n <= 4, n >= 22 && n <= 24,
			n >= 30 && n <= 37, n == 39, n >= 40 && n <= 47, n == 49,
			n >= 90 && n <= 97, n >= 100 && n <= 107:
			kept = append(kept, strconv.Itoa(n))
		case n == 38 || n == 48:
			// 38;5;n or 38;2;r;g;b: the arguments are part of it.
			end := i + 1
			if end < len(ps) {
				switch trimZeros(ps[end]) {
				case "5":
					end += 2
				case "2":
					end += 4
				}
			}
			end = min(end, len(ps))
			if c := colour(ps[i:end]); c != "" {
				kept = append(kept, c)
			}
			i = end - 1
		case n == 58:
			// An underline colour: left out, with its arguments.
			if i+1 < len(ps) {
				switch trimZeros(ps[i+1]) {
				case "5":
					i += 2
				case "2":
					i += 4
				}
			}
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return "\x1b[" + strings.Join(kept, ";") + "m"
}

// colour is an extended colour (38 or 48, then 5;n or 2;r;g;b, split) as
// "38;5;n" or "38;2;r;g;b", or "" if it is not one, or a value is over 255.
func colour(f []string) string {
	if len(f) < 3 {
		return ""
	}
	which := trimZeros(f[0])
	if which != "38" && which != "48" {
		return ""
	}
	var vals []string
	switch trimZeros(f[1]) {
	case "5":
		vals = f[2:]
		if len(vals) != 1 {
			return ""
		}
	case "2":
		vals = f[2:]
		if len(vals) == 4 && vals[0] == "" { // 38:2::r:g:b (an empty colour space id)
			vals = vals[1:]
		}
		if len(vals) != 3 {
			return ""
		}
	default:
		return ""
	}
	out := which + ";" + trimZeros(f[1])
	for _, v := range vals {
		n, err := strconv.Atoi(trimZeros(v))
		if err != nil || v == "" || n > 255 {
			return ""
		}
		out += ";" + strconv.Itoa(n)
	}
	return out
}

// isReset reports whether an SGR sequence made by drawable switches every
// attribute off (its last parameter a 0; anything before it is undone).
func isReset(seq string) bool {
	ps := strings.Split(seq[2:len(seq)-1], ";")
	last := ""
	for i := 0; i < len(ps); i++ {
		last = ps[i]
		if (last == "38" || last == "48") && i+1 < len(ps) {
			// 38;5;n and 38;2;r;g;b: their 0s are colours, not resets.
			if ps[i+1] == "5" {
				i += 2
			} else {
				i += 4
			}
		}
	}
	return last == "0"
}

// StripSGR returns s without its SGR sequences (ESC [ parameters m, the
// parameters digits, ';' and ':'); every other byte stays as it is. It
// makes nothing safe: it is for text that is sanitised when it is shown
// (a Claude local command's output) or that is only compared (tests).
func StripSGR(s string) string {
	if !strings.Contains(s, "\x1b[") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
