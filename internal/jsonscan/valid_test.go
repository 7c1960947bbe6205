package jsonscan

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/simd/simdtest"
	"github.com/tidwall/gjson"
)

func TestValid(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{`{}`, true},
		{` [1, "a", {"b": [null, true, false, -1.5e3]}] `, true},
		{`"x"`, true},
		{`[`, false},
		{`{"a":}`, false},
		{`{"a":1,}`, false},
		{`[1 2]`, false},
		{`"\u12"`, false},
		{`"a` + "\n" + `"`, false},
		{`01`, false},
		{`[] x`, false},
		{`tru`, false},
		{`-`, false},
		{`1.`, false},
		{`1e+`, false},
	} {
		if ok := Valid([]byte(tc.in)); ok != tc.ok {
			t.Errorf("Valid(%q) = %v, want %v", tc.in, ok, tc.ok)
		}
		if g := gjson.Valid(tc.in); g != tc.ok {
			t.Errorf("gjson.Valid(%q) = %v: the table is wrong", tc.in, g)
		}
	}
}

// TestDeep judges lines nested a million levels deep with the goroutine
// stack bounded to 8 MB, which a validator that recursed (as gjson.Valid
// does) would overflow — a fatal error, not a panic — however small its
// frames. (Not parallel: the bound is the whole process's.)
func TestDeep(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(8 << 20))
	const n = 1_000_000
	for _, tc := range []struct {
		open, close string
		ok          bool
	}{
		{"[", "]", true},
		{`{"a":`, "}", false}, // ends in {"a":} : no value
		{`[{"a":`, "}]", false},
	} {
		s := strings.Repeat(tc.open, n) + strings.Repeat(tc.close, n)
		if got := ValidString(s); got != tc.ok {
			t.Errorf("%q×%d: %v, want %v", tc.open, n, got, tc.ok)
		}
	}
	s := strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)
	if !ValidString(s) {
		t.Errorf("objects ×%d: invalid", n)
	}
	if ValidString(strings.Repeat("[", n) + strings.Repeat("]", n-1)) {
		t.Error("one bracket short is valid")
	}
}

// FuzzValid holds Valid to gjson.Valid (on inputs shallow enough for it)
// and explores nesting depth: the seed's first byte is a depth, expanded
// around the rest.
func FuzzValid(f *testing.F) {
	f.Add(uint16(3), `[`, `1`, `]`)
	f.Add(uint16(40), `{"a":`, `"x"`, `}`)
	f.Add(uint16(1000), `[{"k":[`, `null`, `]}]`)
	f.Add(uint16(0), `{"a":[1,2,{"b":"\u00e9"}]}`, ``, ``)
	f.Fuzz(func(t *testing.T, depth uint16, open, mid, close string) {
		s := strings.Repeat(open, int(depth)) + mid + strings.Repeat(close, int(depth))
		if len(s) > 1<<20 {
			return
		}
		got := ValidString(s)
		if want := gjson.Valid(s); got != want {
			t.Fatalf("Valid(%q) = %v, gjson says %v", s, got, want)
		}
	})
}

// BenchmarkDeep: one line of 2 million levels (4 MB).
func BenchmarkDeep(b *testing.B) {
	const n = 2_000_000
	s := []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		if !Valid(s) {
			b.Fatal("invalid")
		}
	}
}

// FuzzStream holds Stream, fed line by line (each with its newline), to
// Valid: Done exactly when the whole is one value, the elements of a
// top-level array where they are.
func FuzzStream(f *testing.F) {
	f.Add("[\n  {\"a\": 1},\n  {\"b\": [1,\n 2]}\n]")
	f.Add("{\n \"k\"\n :\n \"v\"\n}")
	f.Add("[\n]\n")
	f.Add("[\n{\"a\":1}\n{\"b\":2}\n")
	f.Add("{\n{\"type\":\"x\"}\n")
	f.Add("{\n \"a\": 1\n}Ripgrep is not available\n")
	f.Add("[\n1\n]  x\n")
	f.Fuzz(func(t *testing.T, in string) {
		var s Stream
		var data []byte
		st := More
		for _, l := range strings.SplitAfter(in, "\n") {
			data = append(data, strings.TrimSuffix(l, "\n")...)
			data = append(data, '\n')
			if st = s.Scan(data); st == Bad {
				break
			}
		}
		valid := Valid(data)
		if (st == Done) != valid {
			t.Fatalf("%q: status %v, Valid %v", data, st, valid)
		}
		jsonSpace := func(b []byte) bool { return strings.Trim(string(b), " \t\r\n") == "" }
		if st == Bad && s.Glued && (!Valid(data[:s.End]) || !jsonSpace(data[s.End:s.Rest]) || jsonSpace(data[s.Rest:s.Rest+1])) {
			t.Fatalf("%q: glued at %d after a value ending at %d", data, s.Rest, s.End)
		}
		if st == Bad && !s.Glued && Valid(data[:s.End]) && s.End > 0 {
			t.Fatalf("%q: Bad after a whole value at %d, not said glued", data, s.End)
		}
		if st == Done && strings.TrimSpace(string(data[s.End:])) != "" {
			t.Fatalf("%q: End %d leaves %q", data, s.End, data[s.End:])
		}
		if st == Done && data[0] == '[' {
			for _, e := range s.Elems {
				if !Valid(data[e[0]:e[1]]) {
					t.Fatalf("%q: element %q", data, data[e[0]:e[1]])
				}
			}
		}
	})
}

func TestStreamDeep(t *testing.T) {
	t.Parallel()
	const n = 2_000_000
	var s Stream
	data := []byte(strings.Repeat("[\n", n))
	if st := s.Scan(data); st != More {
		t.Fatalf("open: %v", st)
	}
	data = append(data, strings.Repeat("]\n", n)...)
	if st := s.Scan(data); st != Done {
		t.Fatalf("closed: %v", st)
	}
}

// TestValidStrings: every escape, good and bad, a control character and
// a quote at every position of string bodies of every length up to 60 (so
// in and after the first words scanString reads at once), judged as gjson
// judges them, with the end of the string where it is.
func TestValidStrings(t *testing.T) {
	t.Parallel()
	check := func(body string) {
		for _, s := range []string{`"` + body + `"`, `["` + body + `",1]`, `{"` + body + `":"` + body + `"}`} {
			if got, want := ValidString(s), gjson.Valid(s); got != want {
				t.Fatalf("Valid(%q) = %v, gjson says %v", s, got, want)
			}
		}
	}
	simdtest.Escaped(check)
	for n := 0; n <= 60; n++ {
		for _, c := range []string{"\x00", "\x1f", "\n", `"`} {
			for at := 0; at <= n; at++ {
				check(strings.Repeat("a", at) + c + strings.Repeat("b", n-at))
			}
		}
	}
}
