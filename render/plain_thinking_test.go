package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// plainThinking is the plain output of one thought sent in two pieces,
// at width 100.
func plainThinking(t *testing.T, text string) string {
	t.Helper()
	var out bytes.Buffer
	r, err := New("plain", &out, Config{Width: 100, Color: false, Thinking: ThinkingSummary})
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{text[:24], text[24:]} {
		if err := r.Handle(&streaming.Event{Kind: streaming.KindThinkingDelta, Message: "m", Text: part}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Handle(&streaming.Event{Kind: streaming.KindMessageStop, Message: "m"}); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(Summary{}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// The thinking summary of a thought too long for its line counts
// characters, not bytes: 147 characters of which many are three-byte
// runes are "(147 chars)", as pretty says. A thought shown whole gets no
// count.
func TestPlainThinkingSummaryCountsCharacters(t *testing.T) {
	t.Parallel()
	text := "思考中：先读取文件，再运行测试。" + strings.Repeat("x", 131) // 16 + 131 characters
	if got := plainThinking(t, text); !strings.Contains(got, "(147 chars)") {
		t.Errorf("summary does not count 147 characters:\n%s", got)
	}
	whole := "思考中：先读取文件，再运行测试。" + strings.Repeat("x", 31)
	if got := plainThinking(t, whole); strings.Contains(got, "chars)") || !strings.Contains(got, "thinking: "+whole+"\n") {
		t.Errorf("a thought shown whole is counted or cut:\n%s", got)
	}
}
