package filter

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/streaming"
)

// A raw line longer than PieceMost is passed on as a notice and pieces of
// at most PieceMost bytes that put the line back together, none cut inside
// a character, an escape sequence or a CRLF; other events and shorter
// lines pass as they are.
func TestLongLines(t *testing.T) {
	t.Parallel()
	for name, line := range map[string]string{
		"nul":     strings.Repeat("\x00", 3*PieceMost+5),
		"utf8":    strings.Repeat("zażółć 🎉", PieceMost/5),
		"escapes": strings.Repeat("ab\x1b[31;1mred\x1b[0m\r\n", PieceMost/8),
		"esc":     strings.Repeat("\x1b", 2*PieceMost),
	} {
		var got []streaming.Event
		l := NewLongLines(streaming.HandlerFunc(func(ev *streaming.Event) error {
			got = append(got, *ev)
			return nil
		}))
		for _, ev := range []streaming.Event{
			{Kind: streaming.KindRaw, Line: 7, Text: line},
			{Kind: streaming.KindRaw, Line: 8, Text: "short"},
			{Kind: streaming.KindTextDelta, Text: line},
		} {
			if err := l.Handle(&ev); err != nil {
				t.Fatal(err)
			}
		}
		if len(got) < 3 || got[0].Kind != streaming.KindNotice || !strings.HasPrefix(got[0].Text, "line 7 is ") {
			t.Fatalf("%s: first event %v %q, want the notice", name, got[0].Kind, got[0].Text)
		}
		var whole strings.Builder
		pieces := got[1 : len(got)-2]
		for _, p := range pieces {
			if p.Kind != streaming.KindRaw || p.Line != 7 || len(p.Text) > PieceMost || p.Text == "" {
				t.Fatalf("%s: piece %v line %d of %d bytes", name, p.Kind, p.Line, len(p.Text))
			}
			if utf8.ValidString(line) && !utf8.ValidString(p.Text) {
				t.Errorf("%s: a piece cut inside a character", name)
			}
			if i := strings.LastIndexByte(p.Text, 0x1b); name == "escapes" && i >= 0 && !strings.Contains(p.Text[i:], "m") {
				t.Errorf("%s: a piece cut inside an escape sequence: %q", name, p.Text[i:])
			}
			if strings.HasSuffix(p.Text, "\r") {
				t.Errorf("%s: a piece cut inside a CRLF", name)
			}
			whole.WriteString(p.Text)
		}
		if whole.String() != line {
			t.Errorf("%s: the pieces make %d bytes, not the line's %d", name, whole.Len(), len(line))
		}
		if n := len(pieces); n < len(line)/PieceMost || n > len(line)/PieceMost+2 {
			t.Errorf("%s: %d pieces of a line of %d bytes", name, n, len(line))
		}
		if last := got[len(got)-1]; last.Kind != streaming.KindTextDelta || last.Text != line || got[len(got)-2].Text != "short" {
			t.Errorf("%s: the short line and the text delta not passed as they are", name)
		}
	}
}
