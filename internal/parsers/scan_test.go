package parsers

import (
	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

var scanSeeds = []string{
	``, ` `, `{}`, `[]`, `{"a":1}`, ` {"a" : [1, 2.5e-3, -0, true, false, null, "x\"y"] } `,
	`{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"hi\n\u00e9"}]},"n":-1.5E+10}`,
	`{"a":1,}`, `{"a":1 "b":2}`, `{"a"}`, `{"a":}`, `{,}`, `[1,]`, `[,1]`, `[1 2]`, `{"a":[}`, `{"a":{]}`,
	`"abc`, `"a\qb"`, `"a\u12g4"`, `"a\u12"`, "\"a\x01b\"", "\"tab\there\"", "\"del\x7f\"", `"é"`, "\"\xff\xfe\"",
	`01`, `-`, `-a`, `1.`, `1.e5`, `1e`, `1e+`, `1E-5`, `0.5`, `-0.0e0`, `+1`, `.5`, `1.5.5`,
	`tru`, `true`, `truex`, `nul`, `null `, `fals`, `false`, `{"a":tru}`, `[true,false,null]`,
	`{"a":1}x`, `{"a":1} {"b":2}`, `[[[[[[]]]]]]`, `[[[[[[]]]]]`, `{"k\"ey":"v","k\\":1}`,
	`{"a":"` + strings.Repeat("x", 100) + `\"` + strings.Repeat("y", 17) + `"}`,
	`{"a":"` + strings.Repeat("\\n", 40) + `"}`, `{"a":"1234567\"`, `{"a":"12345678\\"}`,
	"{\"a\":\"1234567\n90\"}", `{"a":"` + strings.Repeat("ü", 30) + `"}`,
	strings.Repeat("[", 200) + strings.Repeat("]", 200), strings.Repeat("[", 200) + strings.Repeat("]", 199),
	"\t\r\n{\"a\"\t:\r\n1\n}\n",
}

func TestScanMatchesGJSON(t *testing.T) {
	for _, s := range scanSeeds {
		checkScan(t, s)
		// Every cut of it too: a line cut off anywhere.
		for i := range len(s) {
			checkScan(t, s[:i])
		}
	}
}

func checkScan(t *testing.T, s string) {
	t.Helper()
	var top jsonscan.TopSpans
	got := jsonscan.Index([]byte(s), &top)
	if want := gjson.Valid(s); got != want {
		t.Fatalf("jsonscan.Index(%q) = %v, gjson says %v", s, got, want)
	}
	if !got || !gjson.Parse(s).IsObject() {
		return
	}
	var a, b Line
	a.Reset(s, 1)
	b.resetSpans(s, 1, &top)
	if a.ntop != b.ntop || a.more != b.more || a.mask != b.mask {
		t.Fatalf("%q: %d fields (more %v), want %d (more %v)", s, b.ntop, b.more, a.ntop, a.more)
	}
	for i := 0; i < a.ntop; i++ {
		if a.key(i) != b.key(i) || a.top[i] != b.top[i] {
			t.Fatalf("%q: field %d key %q %v, want %q %v", s, i, b.key(i), b.top[i], a.key(i), a.top[i])
		}
		av, bv := a.Get(a.key(i)), b.Get(b.key(i))
		if av.Type != bv.Type || av.Raw != bv.Raw || av.Str != bv.Str || av.Num != bv.Num || av.Index != bv.Index {
			t.Fatalf("%q: field %q = %#v, want %#v", s, a.key(i), bv, av)
		}
	}
}

func TestScanManyFields(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range maxTop + 5 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strings.Repeat("x", i) + `":{"n":[` + strings.Repeat("1,", i) + `0]}`)
	}
	b.WriteString(`,"last":"v"}`)
	checkScan(t, b.String())
	var top jsonscan.TopSpans
	jsonscan.Index([]byte(b.String()), &top)
	var l Line
	l.resetSpans(b.String(), 1, &top)
	if l.Str("last") != "v" {
		t.Errorf("a field after the indexed ones: %q", l.Str("last"))
	}
}

// The validator is a hot path: no allocation for an ordinary line.
func TestScanAllocs(t *testing.T) {
	line := []byte(`{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hello \"world\"\n"}},"session_id":"s","parent_tool_use_id":null}`)
	var top jsonscan.TopSpans
	if n := testing.AllocsPerRun(100, func() { jsonscan.Index(line, &top) }); n != 0 {
		t.Errorf("scanJSON allocates %.0f times per line", n)
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkScan(t, s)
	})
}

func BenchmarkScan(b *testing.B) {
	line := []byte(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"` +
		strings.Repeat(`src/pkg/file.go:12: the function returns an error when the input is empty\n`, 200) +
		`","is_error":false}]},"session_id":"5f1c2a9e","parent_tool_use_id":null}`)
	b.Run("scanJSON", func(b *testing.B) {
		var top jsonscan.TopSpans
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			jsonscan.Index(line, &top)
		}
	})
	b.Run("gjson.ValidBytes", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			gjson.ValidBytes(line)
		}
	})
}

func TestResetLeadingSpace(t *testing.T) {
	l := NewLine(`  {"type":"x","n":2}`, 1)
	if l.Str("type") != "x" || l.Get("n").Int() != 2 {
		t.Errorf("type %q n %d", l.Str("type"), l.Get("n").Int())
	}
}
