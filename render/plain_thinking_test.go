package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// The thinking summary counts characters, not bytes: 47 characters of
// which many are three-byte runes are "(47 chars)", as pretty says.
func TestPlainThinkingSummaryCountsCharacters(t *testing.T) {
	var out bytes.Buffer
	r, err := New("plain", &out, Config{Width: 100, Palette: NewPalette(false), Thinking: ThinkingSummary})
	if err != nil {
		t.Fatal(err)
	}
	text := "思考中：先读取文件，再运行测试。" + strings.Repeat("x", 31) // 16 + 31 characters, 79 bytes
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
	if !strings.Contains(out.String(), "(47 chars)") {
		t.Errorf("summary does not count 47 characters:\n%s", out.String())
	}
}
