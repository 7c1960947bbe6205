package sanitize

import (
	"strconv"
	"strings"
)

// pen is the colour of the text and of its background that the SGR
// sequences drawn so far on a line set, as RGB (set: false for the
// terminal's default), so that text drawn in its own background's colour
// (ESC[30;40m, ESC[37;47m, RGB 1;1;1 on 0;0;0), which would hide it as
// conceal does, gets the default background instead.
type pen struct {
	fg, bg       rgb
	fgSet, bgSet bool
}

type rgb struct{ r, g, b int }

// draw folds seq, an SGR sequence drawable made, into the pen and returns
// it, with the background reset (49) added when the background has become
// too close to the text's colour to read it.
func (p *pen) draw(seq string) string {
	ps := strings.Split(seq[2:len(seq)-1], ";")
	for i := 0; i < len(ps); i++ {
		n, _ := strconv.Atoi(ps[i])
		switch {
		case n == 0:
			*p = pen{}
		case n >= 30 && n <= 37, n >= 90 && n <= 97:
			p.fg, p.fgSet = basic(n%10+(n/90)*8), true
		case n == 39:
			p.fgSet = false
		case n >= 40 && n <= 47, n >= 100 && n <= 107:
			p.bg, p.bgSet = basic(n%10+(n/100)*8), true
		case n == 49:
			p.bgSet = false
		case (n == 38 || n == 48) && i+2 < len(ps):
			var c rgb
			if ps[i+1] == "5" {
				c = xterm256(atoi(ps[i+2]))
				i += 2
			} else if i+4 < len(ps) {
				c = rgb{atoi(ps[i+2]), atoi(ps[i+3]), atoi(ps[i+4])}
				i += 4
			}
			if n == 38 {
				p.fg, p.fgSet = c, true
			} else {
				p.bg, p.bgSet = c, true
			}
		}
	}
	if p.fgSet && p.bgSet && tooClose(p.fg, p.bg) {
		p.bgSet = false
		return seq[:len(seq)-1] + ";49m"
	}
	return seq
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// tooClose reports whether text in colour a on background b is too faint to
// read: every channel within 48 of the other's.
func tooClose(a, b rgb) bool {
	d := func(x, y int) bool { return x-y < 48 && y-x < 48 }
	return d(a.r, b.r) && d(a.g, b.g) && d(a.b, b.b)
}

// basic is one of the 16 colours, as xterm draws them by default.
func basic(i int) rgb {
	return [16]rgb{{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
		{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255}}[i&15]
}

// xterm256 is colour n of the 256-colour palette.
func xterm256(n int) rgb {
	switch {
	case n < 16:
		return basic(n)
	case n < 232:
		n -= 16
		level := func(v int) int {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		return rgb{level(n / 36), level(n / 6 % 6), level(n % 6)}
	default:
		v := 8 + 10*(n-232)
		return rgb{v, v, v}
	}
}
