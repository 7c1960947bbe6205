package cline_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/conformance"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// TestCorpus runs the real captures of the cline folder through the
// decoder and session and checks them against the conformance extractor:
// each answer text shown exactly once, the outcome, the final answer. Each
// capture is also run as the ui_messages.json array it came from and
// rewritten as Kilo CLI lines.
func TestCorpus(t *testing.T) {
	files := conformance.Captures("cline")
	if len(files) == 0 {
		t.Skip("no corpus for cline")
	}
	x, ok := conformance.Lookup("cline")
	if !ok {
		t.Fatal("no extractor for cline")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want := x(data, filepath.Base(f))
			if len(want.Texts) == 0 {
				t.Fatal("extractor found no texts")
			}
			for _, d := range []struct{ name, in string }{
				{"lines", string(data)},
				{"array", asArray(data)},
				{"kilo", asKilo(t, data)},
			} {
				t.Run(d.name, func(t *testing.T) {
					if w := x([]byte(d.in), filepath.Base(f)); !equalExpect(w, want) {
						t.Errorf("extractor reads the %s form differently", d.name)
					}
					checkCapture(t, d.in, want)
				})
			}
		})
	}
}

func equalExpect(a, b conformance.Expect) bool {
	return a.Exit == b.Exit && a.Answer == b.Answer && strings.Join(a.Texts, "\x00") == strings.Join(b.Texts, "\x00")
}

// checkCapture runs one capture and checks it against what the extractor
// expects.
func checkCapture(t *testing.T, in string, want conformance.Expect) {
	t.Helper()
	r := parsertest.Run(agents, in).Check(t)
	// Every text.delta, the user's included: an answer must not appear
	// twice even in an echo.
	text := strings.Join(texts(r, streaming.KindTextDelta, ""), "")
	for _, w := range want.Texts {
		if n := strings.Count(text, w); n != 1 {
			t.Errorf("text %q shown %d times", parsers.Clip(w, 60), n)
		}
	}
	if got := exitOf(r.Outcome); got != want.Exit {
		t.Errorf("outcome %s (%s), want exit %d", r.Outcome, r.Reason, want.Exit)
	}
	if want.Answer != "" && r.Answer != want.Answer {
		t.Errorf("answer %q, want %q", parsers.Clip(r.Answer, 60), parsers.Clip(want.Answer, 60))
	}
	if r.Stats.Revisions > 0 || r.Stats.SnapshotAsDelta > 0 {
		t.Errorf("repairs: %+v", r.Stats)
	}
	for _, e := range r.Events {
		if e.Kind == streaming.KindUnknown {
			t.Errorf("unknown line %d: %s", e.Line, e.Type)
		}
	}
}

// asArray turns a capture of one message per line back into the
// ui_messages.json array it came from.
func asArray(data []byte) string {
	var parts []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// asKilo rewrites Cline messages as Kilo CLI 0.x prints them: ts becomes
// timestamp, source is added, and text becomes metadata when it is a JSON
// object or array, content otherwise (docs/formats/cline.md).
func asKilo(t *testing.T, data []byte) string {
	var b strings.Builder
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		m["timestamp"] = m["ts"]
		delete(m, "ts")
		m["source"] = "extension"
		if text, ok := m["text"].(string); ok {
			var v any
			switch err := json.Unmarshal([]byte(text), &v); {
			case err == nil && isContainer(v):
				m["metadata"] = v
			case text != "":
				m["content"] = text
			}
		}
		delete(m, "text")
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(out)
		b.WriteByte('\n')
	}
	return b.String()
}

func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

func exitOf(o streaming.Outcome) int {
	switch o {
	case streaming.Success:
		return 0
	case streaming.Failure:
		return 1
	}
	return 3
}
