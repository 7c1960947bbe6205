package claude

import (
	"strings"
	"unicode/utf16"

	"github.com/agentfmt/agentfmt/internal/parsers"
)

// deltaText is the text of a text or thinking delta whose JSON string is
// raw. The API cuts deltas anywhere in the UTF-16 text, so a character
// outside the BMP may come as the high half of its surrogate pair at the
// end of one delta ("\ud83c") and the low half at the start of the next
// ("\udf89"): decoded alone, each half is U+FFFD, and the deltas no longer
// add up to the block's text. The high half is held in *hi and joined with
// the low half that starts the next delta (a half that finds no partner
// is U+FFFD, as before).
func deltaText(l *parsers.Line, raw string, hi *rune) string {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return textOf(l, raw)
	}
	body := raw[1 : len(raw)-1]
	held := *hi
	end := highAtEnd(body)
	if held == 0 && end == 0 {
		return textOf(l, raw)
	}
	*hi = 0
	var prefix string
	if held != 0 {
		prefix = "\uFFFD"
		if len(body) >= 6 && body[0] == '\\' && body[1] == 'u' {
			if lo := hex4(body[2:6]); lo >= 0xDC00 && lo < 0xE000 {
				prefix = string(utf16.DecodeRune(held, lo))
				body = body[6:]
			}
		}
	}
	if end != 0 && len(body) >= 6 {
		*hi = end
		body = body[:len(body)-6]
	}
	if body == "" {
		return prefix
	}
	return prefix + textOf(l, `"`+body+`"`)
}

// highAtEnd returns the high surrogate that body (a JSON string's text)
// ends with as a \u escape, or 0.
func highAtEnd(body string) rune {
	n := len(body)
	if n < 6 || body[n-6] != '\\' || body[n-5] != 'u' || (body[n-4] != 'd' && body[n-4] != 'D') {
		return 0
	}
	// The backslash must begin an escape: an even run of backslashes
	// before it.
	k := strings.LastIndexFunc(body[:n-6], func(r rune) bool { return r != '\\' })
	if (n-6-(k+1))%2 != 0 {
		return 0
	}
	if r := hex4(body[n-4:]); r >= 0xD800 && r < 0xDC00 {
		return r
	}
	return 0
}

func hex4(h string) rune {
	var r rune
	for i := 0; i < 4; i++ {
		c := h[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}
