package render

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// colourRun is a test run whose output is coloured, with a progress line
// that overwrites itself, a screen clear and a title change.
func colourRun() []streaming.Event {
	return []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "s"},
		{Kind: streaming.KindToolStart, ID: "b1", Name: "Bash", Subject: "go test"},
		{Kind: streaming.KindToolEnd, ID: "b1", Name: "Bash", Subject: "go test", Status: streaming.ToolOK,
			Output: "\x1b[32mPASS\x1b[0m TestA\n\x1b[1;5;31mFAIL\x1b[0m TestB\ndl 50%\rdl 100%\n\x1b[2J\x1b]0;t\x07end"},
		{Kind: streaming.KindResult, OK: true},
	}
}

// SGR colour in tool output (issue 24 item 9): pretty draws colour, bold,
// dim, italic and underline (not blink), each line closed, and a progress
// line as the terminal leaves it; plain and markdown leave colour out;
// --allow-color lets it through plain; every other control stays visible.
func TestToolOutputColour(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		format string
		cfg    Config
		want   []string
		not    []string
	}{
		{"pretty colour", "pretty", Config{Color: true, Tools: ToolsFull},
			[]string{"\x1b[32mPASS\x1b[0m TestA", "\x1b[1;31mFAIL\x1b[0m TestB", "dl 100%", "␛[2J␛]0;t␇end"},
			[]string{"␛[32m", "\x1b[1;5;31m", "␍", "dl 50%"}},
		{"pretty no colour", "pretty", Config{Color: false, Tools: ToolsFull},
			[]string{"PASS TestA", "FAIL TestB", "dl 100%", "␛[2J␛]0;t␇end"},
			[]string{"\x1b[", "␛[32m", "␍"}},
		{"plain", "plain", Config{Color: false, Tools: ToolsFull},
			[]string{"│ PASS TestA\n", "│ FAIL TestB\n", "│ dl 50%␍dl 100%\n", "␛[2J␛]0;t␇end"},
			[]string{"\x1b[", "␛[32m", "␛[0m"}},
		{"plain allow-color", "plain", Config{Color: false, Tools: ToolsFull, AllowColor: true},
			[]string{"\x1b[32mPASS\x1b[0m TestA", "\x1b[1;5;31mFAIL\x1b[0m TestB", "␛[2J"},
			[]string{"\x1b[2J", "\x1b]"}},
		{"markdown", "markdown", Config{Tools: ToolsFull},
			[]string{"  PASS TestA\n", "  FAIL TestB\n", "␛[2J␛]0;t␇end"},
			[]string{"\x1b[", "␛[32m"}},
		{"json", "json", Config{},
			[]string{`\u001b[32mPASS\u001b[0m TestA`, `dl 50%\rdl 100%`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Width = 100
			got := renderEvents(t, tc.format, tc.cfg, colourRun())
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%q", w, got)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("has %q:\n%q", n, got)
				}
			}
		})
	}
}

// -o text on a terminal leaves the answer's colour out and shows every
// other control sequence.
func TestTextAnswerColour(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	r := &textRenderer{w: &b, cfg: Config{Terminal: true}}
	if err := r.Finish(Summary{Answer: "\x1b[32mok\x1b[0m \x1b[2J"}); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "ok ␛[2J\n" {
		t.Errorf("text on a terminal wrote %q", got)
	}
}
