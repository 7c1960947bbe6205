package parsers

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/tidwall/gjson"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

var accessSeeds = []string{
	`{}`, `[]`, `{"a":1,"b":"x","a":2}`, ` { "a" : [ 1 , "2" , {"c":null} ] , "d" : true } `,
	`{"type":"tool_result","tool_use_id":"t1","content":"line\n\"q\"\\ \/ \b\f\r\t \u00e9 \ud83c\udf89 \ud800 \udc00x \u0000","is_error":false}`,
	`{"k\"ey":1,"k\u00e9":2,"":3}`, `[1,-2.5e3,true,false,null,"s",[],{},[[1]],{"a":{"b":[]}}]`,
	`{"text":"` + strings.Repeat(`abcdefg\"`, 20) + `"}`, `{"n":1e400,"m":-0,"o":12345678901234567890}`,
	`"just a string"`, `42`, `{"a":"\\\\\"}"}`,
	`[0,-0,7,-7,123456789012345,-123456789012345,1234567890123456,9007199254740993,-0.0,1.5,1e2,-1E-2,0.1]`,
}

// compareValue walks v with the fast iterators and with gjson, and fails on
// any difference.
func compareValue(t *testing.T, raw string) {
	t.Helper()
	want := gjson.Parse(raw)
	got := Value(raw)
	if got.Type != want.Type || got.Str != want.Str || math.Float64bits(got.Num) != math.Float64bits(want.Num) || (got.Type != gjson.JSON && got.Raw != strings.TrimSpace(want.Raw)) {
		t.Fatalf("Value(%q) = %#v, gjson %#v", raw, got, want)
	}
	switch {
	case want.IsObject():
		type kv struct{ k, raw string }
		var ws []kv
		want.ForEach(func(k, v gjson.Result) bool {
			ws = append(ws, kv{k.Str, v.Raw})
			return true
		})
		i := 0
		for f := FieldsOf(raw); f.Next(); i++ {
			if i >= len(ws) || f.Key != ws[i].k || f.Raw != ws[i].raw {
				t.Fatalf("%q: field %d = %q:%q, gjson %v", raw, i, f.Key, f.Raw, ws)
			}
			compareValue(t, f.Raw)
			if g, w := Field(raw, f.Key), want.Get(gjson.Escape(f.Key)); simpleKey(f.Key) && (g.Raw != w.Raw || g.Str != w.Str) {
				t.Fatalf("%q: Field(%q) = %q, gjson %q", raw, f.Key, g.Raw, w.Raw)
			}
		}
		if i != len(ws) {
			t.Fatalf("%q: %d fields, gjson %d", raw, i, len(ws))
		}
	case want.IsArray():
		ws := want.Array()
		i := 0
		for e := ElementsOf(raw); e.Next(); i++ {
			if i >= len(ws) || e.Raw != ws[i].Raw {
				t.Fatalf("%q: element %d = %q, gjson %v", raw, i, e.Raw, ws)
			}
			compareValue(t, e.Raw)
		}
		if i != len(ws) {
			t.Fatalf("%q: %d elements, gjson %d", raw, i, len(ws))
		}
	}
}

// simpleKey: a key gjson.Get finds by name even escaped (no path syntax
// left after escaping in an empty key, say).
func simpleKey(k string) bool { return k != "" }

func TestAccessMatchesGJSON(t *testing.T) {
	for _, s := range append(accessSeeds, scanSeeds...) {
		if gjson.Valid(s) {
			compareValue(t, strings.TrimSpace(s))
		}
	}
}

func TestAccessInvalidIsSafe(t *testing.T) {
	// Not valid JSON: the iterators stop, they never panic.
	for _, s := range []string{`{"a`, `{"a":`, `{"a":"x`, `[1,`, `["`, `{"a"1}`, `"`, `"\`, `{"a":"\u12"}`} {
		for f := FieldsOf(s); f.Next(); {
			_ = f.Value()
		}
		for e := ElementsOf(s); e.Next(); {
			_ = e.Value()
		}
		_ = Value(s)
		_ = Field(s, "a")
	}
}

func TestAccessAllocs(t *testing.T) {
	obj := `{"type":"tool_result","tool_use_id":"toolu_1","content":"plain text without escapes","is_error":false}`
	n := testing.AllocsPerRun(100, func() {
		for f := FieldsOf(obj); f.Next(); {
			_ = f.Value()
		}
	})
	if n != 0 {
		t.Errorf("iterating an object without escapes allocates %.0f times", n)
	}
}

func FuzzAccess(f *testing.F) {
	for _, s := range append(accessSeeds, scanSeeds...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if gjson.Valid(s) {
			compareValue(t, strings.TrimSpace(s))
		} else {
			for f := FieldsOf(s); f.Next(); {
				_ = f.Value()
			}
			for e := ElementsOf(s); e.Next(); {
				_ = e.Value()
			}
		}
	})
}

func BenchmarkAccess(b *testing.B) {
	out := strings.Repeat(`src/pkg/file.go:12: the function returns an error when the input is empty\n`, 200)
	obj := `{"type":"tool_result","tool_use_id":"toolu_1","content":"` + out + `","is_error":false}`
	b.Run("fields", func(b *testing.B) {
		b.SetBytes(int64(len(obj)))
		for b.Loop() {
			var content, isErr gjson.Result
			for f := FieldsOf(obj); f.Next(); {
				switch f.Key {
				case "content":
					content = f.Value()
				case "is_error":
					isErr = f.Value()
				}
			}
			_, _ = content, isErr
		}
	})
	b.Run("gjson", func(b *testing.B) {
		b.SetBytes(int64(len(obj)))
		v := gjson.Parse(obj)
		for b.Loop() {
			_ = v.Get("tool_use_id").String()
			_ = v.Get("content").String()
			_ = v.Get("is_error").Bool()
		}
	})
}

// compareLine walks raw, a part of l's text, with the line's iterators
// (which skip long strings by the validation's table) and the plain ones.
func compareLine(t *testing.T, l *Line, raw string) {
	t.Helper()
	a, b := l.FieldsOf(raw), FieldsOf(raw)
	for {
		an, bn := a.Next(), b.Next()
		if an != bn || a.Key != b.Key || a.Raw != b.Raw {
			t.Fatalf("%q: line iterator gives %v %q:%q, plain %v %q:%q", raw, an, a.Key, a.Raw, bn, b.Key, b.Raw)
		}
		if !an {
			break
		}
		compareLine(t, l, a.Raw)
		if g, w := l.Field(raw, a.Key), Field(raw, a.Key); g.Raw != w.Raw || g.Str != w.Str {
			t.Fatalf("%q: Line.Field(%q) = %q, Field %q", raw, a.Key, g.Raw, w.Raw)
		}
	}
	c, d := l.ElementsOf(raw), ElementsOf(raw)
	for {
		cn, dn := c.Next(), d.Next()
		if cn != dn || c.Raw != d.Raw {
			t.Fatalf("%q: line elements give %v %q, plain %v %q", raw, cn, c.Raw, dn, d.Raw)
		}
		if !cn {
			break
		}
		compareLine(t, l, c.Raw)
	}
}

func checkLineIterators(t *testing.T, s string) {
	t.Helper()
	var top jsonscan.TopSpans
	if !jsonscan.Index([]byte(s), &top) || len(s) == 0 || s[0] != '{' {
		return
	}
	var l Line
	l.resetSpans(s, 1, &top)
	compareLine(t, &l, s)
}

var longSeeds = []string{
	`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"` + strings.Repeat(`line of text \"quoted\"\n`, 20) + `"},{"type":"tool_result","tool_use_id":"t","content":"` + strings.Repeat("x", 100) + `","is_error":false}]},"session_id":"s"}`,
	`{"a":["` + strings.Repeat("y", 70) + `","` + strings.Repeat("\\\\", 40) + `",{"k":"` + strings.Repeat("z\\\"", 30) + `"}],"b":"` + strings.Repeat("w", 64) + `"}`,
	`{"` + strings.Repeat("k", 80) + `":"` + strings.Repeat("v", 80) + `"}`,
}

func TestLineIterators(t *testing.T) {
	for _, s := range append(append(longSeeds, accessSeeds...), scanSeeds...) {
		checkLineIterators(t, s)
	}
}

func FuzzLineIterators(f *testing.F) {
	for _, s := range append(append(longSeeds, accessSeeds...), scanSeeds...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkLineIterators(t, s)
	})
}

// Value's numbers give gjson's Int, also past 2^53 and past int64.
func TestValueInt(t *testing.T) {
	for _, v := range []string{"0", "-0", "7", "-7", "123456789012345", "123456789012345678", "-123456789012345678",
		"1234567890123456789", "99999999999999999999", "1.5", "-2.5e3", "1e3", `"12"`, `"x"`, "true", "false", "null", `{}`, ""} {
		if got, want := Value(v).Int(), gjson.Parse(v).Int(); got != want {
			t.Errorf("Value(%s).Int() = %d, want %d", v, got, want)
		}
	}
}

// TestTextInPlace: in a line the decoder may write (the reader's buffer),
// a string of inPlaceMin bytes or more is decoded over its own escaped
// text, with no allocation of its size, and reading it again, as a field
// or with Text, gives the same text; other fields of the line read as
// before.
func TestTextInPlace(t *testing.T) {
	body := strings.Repeat(`a\"b\n\u00e9\ud83c\udf89 \\x`, inPlaceMin/20)
	want := gjson.Parse(`"` + body + `"`).Str
	line := `{"type":"result","result":"` + body + `","x":{"t":"` + body + `"},"session_id":"s1"}`
	buf := []byte(line)
	var top jsonscan.TopSpans
	if !jsonscan.Index(buf, &top) {
		t.Fatal("not valid")
	}
	l := &Line{}
	l.resetSpans(view.String(buf), 1, &top)
	l.lend, l.writable = true, true
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := l.Get("result").Str
	inner := l.Text(l.FieldRaw(l.Get("x").Raw, "t"))
	runtime.ReadMemStats(&after)
	if got != want || inner != want {
		t.Fatalf("decoded in place: %d and %d bytes, want %d", len(got), len(inner), len(want))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(body))/4 {
		t.Errorf("decoding two strings of %d KiB allocated %d KiB", len(body)>>10, alloc>>10)
	}
	l.built = 0 // read the field again from the text
	if l.Str("result") != want || l.Text(l.FieldRaw(l.Get("x").Raw, "t")) != want || l.Str("session_id") != "s1" {
		t.Errorf("read again: not the same text")
	}
	// A line the decoder may not write (a copy kept by a parser, an owned
	// line) is not written.
	buf2 := []byte(line)
	var top2 jsonscan.TopSpans
	jsonscan.Index(buf2, &top2)
	l.resetSpans(view.String(buf2), 1, &top2)
	l.lend = true
	if got := l.Str("result"); got != want || string(buf2) != line {
		t.Errorf("a line not writable was written: %d bytes, want %d; written %v", len(got), len(want), string(buf2) != line)
	}
}

// Path reads a path's first key from the index and the rest from its
// value: every path gives what gjson.Get gives on the whole line (value,
// type and place), whether the key is there or not, repeated, escaped,
// nested or past the indexed fields.
func TestLinePath(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{`)
	for i := range maxTop + 3 {
		fmt.Fprintf(&many, `"k%d":{"v":%d},`, i, i)
	}
	many.WriteString(`"last":{"v":"end"}}`)
	lines := []string{
		`{"origin":{"kind":"task-notification"},"type":"result"}`,
		`{"type":"result","origin":null}`,
		`{"error":{"message":"boom","type":"x"},"error":{"message":"second"}}`,
		`{"a\u002eb":{"c":1},"a":{"b":{"c":2}}}`,
		`{"params":{"update":{"sessionUpdate":"x"},"prompt":[{"text":"hi"},{"text":"there"}]}}`,
		`{"patch":"not an object"}`,
		many.String(),
	}
	paths := []string{"origin.kind", "origin", "error.message", "error.type", "a.b.c", "a\\.b.c", "params.update.sessionUpdate",
		"params.prompt.#.text", "params.prompt.1.text", "patch.status", "missing.x", "k2.v", "k10.v", "last.v", "k1.*", "@this.type"}
	for _, json := range lines {
		l := NewLine(json, 1)
		for _, p := range paths {
			got, want := l.Path(p), gjson.Get(json, p)
			if got.Raw != want.Raw || got.Type != want.Type || got.Index != want.Index {
				t.Errorf("%s on %s: %q (%v at %d), want %q (%v at %d)", p, json, got.Raw, got.Type, got.Index, want.Raw, want.Type, want.Index)
			}
		}
	}
}

// A top-level string with escapes, read by a parser that borrows lines
// (Get, Str), is decoded into the line's scratch space as Text decodes
// one, not into an allocation of its own (a Claude result's answer was one
// on every result line); it reads as gjson reads it, lent or not.
func TestGetLendsStrings(t *testing.T) {
	body := strings.Repeat(`an answer \"quoted\"\n\u00e9 `, lendMin/16)
	want := gjson.Parse(`"` + body + `"`).Str
	line := `{"type":"result","result":"` + body + `","short":"a\nb"}`
	for _, lend := range []bool{false, true} {
		l := NewLine(line, 1)
		l.lend = lend
		if got := l.Str("result"); got != want {
			t.Fatalf("lend %v: %q, want %q", lend, got, want)
		}
		if got := l.Get("short"); got.Str != "a\nb" || got.Raw != `"a\nb"` || got.Index != strings.Index(line, `"a\nb"`) {
			t.Fatalf("lend %v: short field %+v", lend, got)
		}
	}
	l := NewLine(line, 1)
	l.lend = true
	if n := testing.AllocsPerRun(100, func() {
		l.built, l.arena = 0, l.arena[:0] // read the field again, as on the next line
		_ = l.Str("result")
	}); n != 0 {
		t.Errorf("a lent line's long string with escapes: %v allocations", n)
	}
}
