package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// renderText renders text as one message through Plain: in one delta, or
// one byte per delta (every line then goes through the partial line).
func renderText(t *testing.T, text, role string, sub, bytewise bool) string {
	t.Helper()
	var out bytes.Buffer
	r, err := New("plain", &out, Config{Width: 80})
	if err != nil {
		t.Fatal(err)
	}
	h := func(ev streaming.Event) {
		if err := r.Handle(&ev); err != nil {
			t.Fatal(err)
		}
	}
	parent := ""
	if sub {
		h(streaming.Event{Kind: streaming.KindToolStart, ID: "task1", Name: "Task"})
		parent = "task1"
	}
	h(streaming.Event{Kind: streaming.KindMessageStart, Message: "m", Role: role, Parent: parent})
	if bytewise {
		for i := 0; i < len(text); i++ {
			h(streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Role: role, Parent: parent, Text: text[i : i+1]})
		}
	} else {
		h(streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Role: role, Parent: parent, Text: text})
	}
	h(streaming.Event{Kind: streaming.KindMessageStop, Message: "m", Role: role, Parent: parent})
	if err := r.Finish(Summary{}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// The fast path for whole lines prints what the line by line path prints.
func checkPlainText(t *testing.T, text string) {
	t.Helper()
	for _, role := range []string{streaming.RoleAssistant, streaming.RoleUser} {
		for _, sub := range []bool{false, true} {
			whole := renderText(t, text, role, sub, false)
			bytewise := renderText(t, text, role, sub, true)
			if whole != bytewise {
				t.Fatalf("%s (subagent %v) %q:\nin one delta:\n%q\nbyte by byte:\n%q", role, sub, text, whole, bytewise)
			}
		}
	}
}

var plainTextSeeds = []string{"", "one line", "two\nlines\n", "\n\nblank first\n\n", "ends without newline\nlast",
	"tab\there\n", "ctrl \x1b[31m red\nnext\n", "cr\r\nlf\n", "zażółć 🎉\n\u202eevil\n", "bad \xff utf8\nok\n",
	strings.Repeat("a long line of text that goes on and on\n", 50)}

func TestPlainTextFastPath(t *testing.T) {
	t.Parallel()
	for _, s := range plainTextSeeds {
		checkPlainText(t, s)
	}
}

func FuzzPlainTextFastPath(f *testing.F) {
	for _, s := range plainTextSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 2000 {
			return
		}
		checkPlainText(t, s)
	})
}

// The blank lines that begin a block are not shown (OpenCode's "\n\nHello"),
// whether they come in one delta or byte by byte; blank lines after the
// block's first line are.
func TestPlainLeadingBlankLines(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ text, want string }{
		{"\n\nHello", "Hello\n"},
		{" \r\n\t\nHello\n", "Hello\n"},
		{"Hello\n\nworld\n", "Hello\n\nworld\n"},
		{"  indented\n", "  indented\n"},
	} {
		for _, bytewise := range []bool{false, true} {
			if got := renderText(t, c.text, streaming.RoleAssistant, false, bytewise); got != c.want {
				t.Errorf("%q (byte by byte %v): got %q, want %q", c.text, bytewise, got, c.want)
			}
		}
	}
}
