package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

func TestCompact(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{`{"a": 1}`, `{"a":1}`},
		{"{\n  \"command\": \"ls -la\",\n  \"args\": [ 1, 2.5e-3, -0, true, false, null ],\n  \"o\": {}\n}", `{"command":"ls -la","args":[1,2.5e-3,-0,true,false,null],"o":{}}`},
		{` [ ] `, `[]`},
		{`"a\nb \u00e9 \" \\"`, `"a\nb \u00e9 \" \\"`},
		{`{"k" : [ {"x":[[]]} , "é 日" ]}`, `{"k":[{"x":[[]]},"é 日"]}`},
		{`12`, `12`},
	}
	for _, c := range cases {
		got, ok := AppendCompact([]byte("x"), c.in)
		if !ok || string(got) != "x"+c.want {
			t.Errorf("AppendCompact(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for _, bad := range []string{``, ` `, `{`, `}`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `01`, `1.`, `-`, `1e`, `tru`, `nul`,
		`"a` + "\n" + `b"`, `"\x"`, `"\u12"`, `[1] [2]`, `{"a":1}}`, "\"\xff\"", `[}`, `{]`, `{"a":1,"b"}`} {
		if out, ok := AppendCompact([]byte("x"), bad); ok || string(out) != "x" {
			t.Errorf("AppendCompact(%q) = %q, %v; want invalid and dst unchanged", bad, out, ok)
		}
	}
}

// TestDeepNesting: a value nested a million deep is read without
// recursion.
func TestDeepNesting(t *testing.T) {
	t.Parallel()
	const n = 1 << 20
	s := strings.Repeat("[", n) + strings.Repeat("]", n)
	out, ok := AppendCompact(nil, s)
	if !ok || len(out) != len(s) {
		t.Fatalf("deep array: ok %v, %d bytes", ok, len(out))
	}
	if _, ok := AppendCompact(nil, s[:len(s)-1]); ok {
		t.Error("unbalanced deep array accepted")
	}
	s = strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)
	if out, ok := AppendCompact(nil, s); !ok || string(out) != s {
		t.Error("deep object rejected")
	}
}

// FuzzCompact checks the compactor against encoding/json: the same
// verdict on valid UTF-8, the same compact text, never a newline in it.
func FuzzCompact(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2, {"b": null}]}`, "[\n true ,\n false ]", `"x\u0041"`, `-1.5E+10`, `{"a":}`, `[[[[`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, ok := AppendCompact(nil, s)
		if !utf8.ValidString(s) {
			if ok {
				t.Fatalf("invalid UTF-8 accepted: %q", s)
			}
			return
		}
		if want := json.Valid([]byte(s)); ok != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", s, ok, want)
		}
		if !ok {
			return
		}
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(s)); err != nil {
			t.Fatal(err)
		}
		if string(out) != want.String() {
			t.Fatalf("AppendCompact(%q) = %q, json.Compact gives %q", s, out, want.String())
		}
		if bytes.ContainsAny(out, "\n\r") {
			t.Fatalf("newline in %q", out)
		}
	})
}
