package parsers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Fake agents, so that these tests do not depend on the real parsers.
//
// alpha: decisive on {"type":"alpha_init"}, maybe on {"type":"shared"}.
// beta: decisive on {"type":"beta_init"}, maybe on {"type":"shared"} and
// {"type":"beta_only"}.
// Their parsers emit one status event per line, "<agent>:<type>", and a
// status "<agent>:finish" from Finish.

type fakeParser struct {
	name  string
	lines int
	fail  string // a type whose line makes Parse fail
}

var errFake = errors.New("parser failed")

func (p *fakeParser) Parse(l *Line, emit Emit) error {
	p.lines++
	if p.fail != "" && l.Str("type") == p.fail {
		return errFake
	}
	return emit.Push(&streaming.Event{Kind: streaming.KindStatus, Text: p.name + ":" + l.Str("type")})
}

func (p *fakeParser) Finish(emit Emit) error {
	return emit.Push(&streaming.Event{Kind: streaming.KindStatus, Text: p.name + ":finish"})
}

func fakeAgent(name string, decisive string, maybe ...string) Agent {
	return Agent{
		Name:    name,
		Aliases: []string{name[:1]},
		Detect: func(l *Line) Confidence {
			t := l.Str("type")
			if t == decisive {
				return Decisive
			}
			for _, m := range maybe {
				if t == m {
					return Maybe
				}
			}
			return No
		},
		New: func() Parser { return &fakeParser{name: name, fail: "explode"} },
	}
}

var fakeAgents = []Agent{
	fakeAgent("alpha", "alpha_init", "shared"),
	fakeAgent("beta", "beta_init", "shared", "beta_only"),
}

// decodeAll runs input through a decoder over the fake agents and returns
// the events in a compact form: "line kind agent text".
func decodeAll(t testing.TB, in string, opts DecoderOptions, max int) ([]string, *Decoder, error) {
	t.Helper()
	var out []string
	dec, err := NewDecoder(fakeAgents, opts, EmitFunc(func(_ streaming.Mode, ev *streaming.Event) error {
		s := fmt.Sprintf("%d %s %s", ev.Line, ev.Kind, ev.Agent)
		if ev.Type != "" {
			s += " type=" + ev.Type
		}
		out = append(out, s+" "+ev.Text)
		return nil
	}))
	if err != nil {
		return nil, nil, err
	}
	r := input.NewReader(strings.NewReader(in), max)
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out, dec, err
		}
		if err := dec.Decode(l); err != nil {
			return out, dec, err
		}
	}
	return out, dec, dec.Close()
}

func TestDecoder(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{
			name: "raw lines pass through whole",
			in:   "Loaded cached credentials.\n\x1b[31mred\x1b[0m banner\n[INFO] starting\n[1/3] building\n",
			want: []string{"1 raw  Loaded cached credentials.", "2 raw  \x1b[31mred\x1b[0m banner",
				"3 raw  [INFO] starting", "4 raw  [1/3] building"},
		},
		{
			name: "blank lines give nothing",
			in:   "\n   \n\r\n\t\nx\n",
			want: []string{"5 raw  x"},
		},
		{
			name: "invalid JSON is shown raw with a notice",
			in:   "{\"type\":\"alpha_init\",}\nafter\n",
			want: []string{"1 notice  line 1 is not valid JSON; shown as it is", "1 raw  {\"type\":\"alpha_init\",}", "2 raw  after"},
		},
		{
			name: "a cut-off last line is shown raw with a notice",
			in:   "{\"type\":\"alpha_init\"}\n{\"type\":\"shared\",\"te",
			want: []string{"1 status alpha alpha:alpha_init",
				"2 notice alpha line 2 is cut off (invalid JSON at the end of input); shown as it is",
				"2 raw alpha {\"type\":\"shared\",\"te", "1 status alpha alpha:finish"},
		},
		{
			name: "escape garbage around JSON is stripped (Kilo)",
			in: "\x1b]0;Kilo Code - tmp\x07\x1b[2J\x1b[H{\"type\":\"alpha_init\"}\n" +
				"\x1b[?2004h{\"type\":\"shared\"}\x1b[?2004l\r\n" +
				"\x1b]0;t\x1b\\ {\"type\":\"shared\"}\n",
			want: []string{"1 status alpha alpha:alpha_init", "2 status alpha alpha:shared", "3 status alpha alpha:shared",
				"3 status alpha alpha:finish"},
		},
		{
			name: "text around JSON is not stripped",
			in:   "note: \x1b[1m{\"type\":\"alpha_init\"}\n\x1b[1m{\"type\":\"alpha_init\"} and more\n",
			want: []string{"1 raw  note: \x1b[1m{\"type\":\"alpha_init\"}", "2 raw  \x1b[1m{\"type\":\"alpha_init\"} and more"},
		},
		{
			name: "one JSON array on a line is its elements",
			in:   "x\n[{\"type\":\"alpha_init\"}, {\"type\":\"shared\"}, 7]\n",
			want: []string{"1 raw  x", "2 status alpha alpha:alpha_init", "2 status alpha alpha:shared", "2 raw alpha 7",
				"2 status alpha alpha:finish"},
		},
		{
			name: "a file holding one array",
			in:   "[\n  {\"type\": \"beta_init\"},\n  {\"type\": \"shared\"}\n]\n",
			want: []string{`2 status beta beta:beta_init`, `3 status beta beta:shared`, "3 status beta beta:finish"},
		},
		{
			name: "an unknown JSON line with no agent is kept",
			in:   "{\"type\":\"mystery\",\"n\":1}\n{\"no_type\":true}\n",
			want: []string{`1 unknown  type=mystery {"type":"mystery","n":1}`, `2 unknown  type=no_type {"no_type":true}`},
		},
		{
			name: "a scalar JSON line is raw",
			in:   "42\n\"quoted\"\nnull\n",
			want: []string{"1 raw  42", `2 raw  "quoted"`, "3 raw  null"},
		},
		{
			name: "detection picks the first recognised line",
			in:   "banner\n{\"type\":\"mystery\"}\n{\"type\":\"beta_init\"}\n{\"type\":\"shared\"}\n{\"type\":\"mystery\"}\n",
			want: []string{"1 raw  banner", `2 unknown  type=mystery {"type":"mystery"}`, "3 status beta beta:beta_init",
				"4 status beta beta:shared", "5 status beta beta:mystery", "5 status beta beta:finish"},
		},
		{
			name: "a decisive line of another agent switches (concatenated logs)",
			in:   "{\"type\":\"alpha_init\"}\n{\"type\":\"shared\"}\n{\"type\":\"beta_init\"}\n{\"type\":\"shared\"}\n{\"type\":\"alpha_init\"}\n",
			want: []string{"1 status alpha alpha:alpha_init", "2 status alpha alpha:shared",
				"3 status alpha alpha:finish", "3 status beta beta:beta_init", "4 status beta beta:shared",
				"5 status beta beta:finish", "5 status alpha alpha:alpha_init", "5 status alpha alpha:finish"},
		},
		{
			name: "a maybe line does not switch from a parser that maybe-s it",
			in:   "{\"type\":\"beta_init\"}\n{\"type\":\"shared\"}\n",
			want: []string{"1 status beta beta:beta_init", "2 status beta beta:shared", "2 status beta beta:finish"},
		},
		{
			// Shared shapes stay with the picked parser (which keeps them as
			// its own or as unknown): only a decisive line switches.
			name: "a maybe line of another agent does not switch away from the picked parser",
			in:   "{\"type\":\"alpha_init\"}\n{\"type\":\"beta_only\"}\n",
			want: []string{"1 status alpha alpha:alpha_init", "2 status alpha alpha:beta_only", "2 status alpha alpha:finish"},
		},
		{
			name: "invalid UTF-8 in a raw line is kept as it is",
			in:   "\xff\xfe bad bytes\n{\"type\":\"alpha_init\"}\n",
			want: []string{"1 raw  \xff\xfe bad bytes", "2 status alpha alpha:alpha_init", "2 status alpha alpha:finish"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _, err := decodeAll(t, c.in, DecoderOptions{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n  %q\nwant\n  %q", got, c.want)
			}
		})
	}
}

func TestDecoderTruncated(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"{\"type\":\"alpha_init\"}\n{\"type\":", true},
		{"{\"type\":\"alpha_init\"}\n{\"type\":\n", false},          // invalid, but a whole line
		{"{\"type\":\"alpha_init\"}\n{\"type\":\"shared\"}", false}, // valid without a newline
		{"{\"type\":\n{\"type\":\"shared\"}\n", false},              // an earlier invalid line
		{"a banner without newline", false},
	}
	for _, c := range cases {
		_, dec, err := decodeAll(t, c.in, DecoderOptions{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if dec.Truncated() != c.want {
			t.Errorf("%q: Truncated %v, want %v", c.in, dec.Truncated(), c.want)
		}
	}
}

func TestDecoderOverLongLine(t *testing.T) {
	in := "{\"type\":\"alpha_init\"}\n{\"type\":\"shared\",\"blob\":\"" + strings.Repeat("A", 5000) + "\"}\n{\"type\":\"shared\"}\n"
	got, _, err := decodeAll(t, in, DecoderOptions{}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1 status alpha alpha:alpha_init", "2 notice alpha line 2 skipped: 5 KB is longer than --max-line",
		"3 status alpha alpha:shared", "3 status alpha alpha:finish"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q", got)
	}
}

func TestDecoderStrict(t *testing.T) {
	cases := []struct {
		in   string
		line int
		msg  string
	}{
		{"{\"type\":\"alpha_init\"}\nnot json\n", 2, "not JSON"},
		{"\n\n[INFO] banner\n", 3, "not JSON"},
		{"{\"type\":\"alpha_init\"}\n{\"type\":\"shared\"}\n{\"cut", 3, "invalid JSON"},
		{"{\"a\":1,}\n", 1, "invalid JSON"},
	}
	for _, c := range cases {
		_, _, err := decodeAll(t, c.in, DecoderOptions{Strict: true}, 0)
		var le *LineError
		if !errors.As(err, &le) {
			t.Errorf("%q: err %v, want a *LineError", c.in, err)
			continue
		}
		if le.Line != c.line || le.ExitCode() != 65 || !strings.Contains(le.Error(), c.msg) ||
			!strings.HasPrefix(le.Error(), fmt.Sprintf("line %d: ", c.line)) {
			t.Errorf("%q: %q (line %d)", c.in, le.Error(), le.Line)
		}
	}
	// Strict accepts blank lines and unknown JSON.
	if _, _, err := decodeAll(t, "\n{\"type\":\"mystery\"}\n\r\n", DecoderOptions{Strict: true}, 0); err != nil {
		t.Errorf("strict: %v", err)
	}
}

func TestDecoderForce(t *testing.T) {
	in := "{\"type\":\"alpha_init\"}\n{\"type\":\"beta_init\"}\n"
	for _, name := range []string{"beta", "b"} {
		got, dec, err := decodeAll(t, in, DecoderOptions{Force: name}, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"1 status beta beta:alpha_init", "2 status beta beta:beta_init", "2 status beta beta:finish"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || dec.Agent() != "beta" {
			t.Errorf("--agent %s: got %q", name, got)
		}
	}
	got, _, err := decodeAll(t, in, DecoderOptions{Force: "auto"}, 0)
	if err != nil || len(got) != 4 {
		t.Errorf("auto: %q %v", got, err)
	}
	if _, _, err := decodeAll(t, in, DecoderOptions{Force: "gamma"}, 0); err == nil {
		t.Error("an unknown agent was accepted")
	}
}

func TestDecoderReports(t *testing.T) {
	var reports []string
	opts := DecoderOptions{Report: func(line int, msg string) { reports = append(reports, fmt.Sprintf("%d %s", line, msg)) }}
	if _, _, err := decodeAll(t, "{\"type\":\"x\"}\n{\"type\":\"x\"}\n{\"type\":\"y\"}\n{\"type\":\"alpha_init\"}\n{\"type\":\"beta_init\"}\n", opts, 0); err != nil {
		t.Fatal(err)
	}
	// Lines no agent recognises: the first of each type, then a count
	// per type at the end (not a report per line).
	want := []string{`1 no agent recognises this line (type "x"); lines of this type are counted`,
		`3 no agent recognises this line (type "y"); lines of this type are counted`,
		"4 detected alpha", "5 input switches from alpha to beta", "0 no agent recognised 3 lines: x ×2, y ×1"}
	if strings.Join(reports, "\n") != strings.Join(want, "\n") {
		t.Errorf("reports %q", reports)
	}
}

func TestDecoderErrorsPropagate(t *testing.T) {
	_, _, err := decodeAll(t, "{\"type\":\"alpha_init\"}\n{\"type\":\"explode\"}\n", DecoderOptions{}, 0)
	if !errors.Is(err, errFake) {
		t.Errorf("parser error: %v", err)
	}
	boom := errors.New("closed pipe")
	dec, _ := NewDecoder(fakeAgents, DecoderOptions{}, EmitFunc(func(streaming.Mode, *streaming.Event) error { return boom }))
	for _, in := range []string{"raw", "{\"type\":\"alpha_init\"}", "{\"bad\"", "{\"type\":\"mystery\"}"} {
		if err := dec.Decode(input.Line{Bytes: []byte(in), N: 1}); !errors.Is(err, boom) {
			t.Errorf("%q: err %v", in, err)
		}
	}
	if err := dec.Decode(input.Line{N: 1, Skipped: 5}); !errors.Is(err, boom) {
		t.Errorf("skipped: err %v", err)
	}
}

func TestDecoderNoAgentClose(t *testing.T) {
	dec, _ := NewDecoder(fakeAgents, DecoderOptions{}, EmitFunc(func(streaming.Mode, *streaming.Event) error { return nil }))
	if err := dec.Close(); err != nil || dec.Agent() != "" {
		t.Errorf("close: %v, agent %q", err, dec.Agent())
	}
}

func TestLooksJSON(t *testing.T) {
	for in, want := range map[string]bool{
		"{": true, "{}": true, "[": true, "[]": true, "[{": true, "[ {": true, `["a"]`: true, "[[1]]": true,
		"[INFO] x": false, "[1/3] build": false, "[2026-01-01] log": false, "x{": false, "[\t": true,
	} {
		if got := looksJSON([]byte(in)); got != want {
			t.Errorf("looksJSON(%q) = %v", in, got)
		}
	}
}

func TestTerminalNoise(t *testing.T) {
	for in, want := range map[string]bool{
		"": true, "\x1b]0;Kilo Code - tmp\x07": true, "\x1b[2J\x1b[H": true, "\x1b[?2004h": true, "\x1b]8;;x\x1b\\": true,
		"\r\x1b[2K ": true, "\x1bc": true, "text": false, "\x1b[31mred": false, "\x1b]0;unterminated": false, "\x1b[": false,
	} {
		if got := terminalNoise([]byte(in)); got != want {
			t.Errorf("terminalNoise(%q) = %v", in, got)
		}
	}
}

// FuzzDecode feeds arbitrary input to the decoder over the fake agents:
// no panic, no error, and nothing lost: every non-blank line gives at
// least one event carrying its line number, and raw lines are passed on
// byte for byte.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"banner\n{\"type\":\"alpha_init\"}\n{\"type\":\"shared\"}\n",
		"[\n{\"type\":\"beta_init\"},\n{\"type\":\"shared\"}\n]\n",
		"\x1b]0;t\x07{\"type\":\"alpha_init\"}\r\n[{\"type\":\"beta_init\"}]\n{\"cut",
		"\xef\xbb\xbf[INFO] x\n{}\n[]\n[1,{}]\n\"s\"\n{\"type\":\"explode\"}\n",
		"{\"type\":\"alpha_init\",}\n\n\x00\xff\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		lines := map[int]int{}
		var raws []string
		dec, _ := NewDecoder(fakeAgents, DecoderOptions{}, EmitFunc(func(_ streaming.Mode, ev *streaming.Event) error {
			lines[ev.Line]++
			if ev.Kind == streaming.KindRaw {
				raws = append(raws, ev.Text)
			}
			return nil
		}))
		r := input.NewReader(strings.NewReader(in), 200)
		var kept []input.Line
		for {
			l, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := dec.Decode(l); err != nil && !errors.Is(err, errFake) {
				t.Fatalf("line %d: %v", l.N, err)
			}
			l.Bytes = []byte(string(l.Bytes))
			kept = append(kept, l)
		}
		if err := dec.Close(); err != nil {
			t.Fatal(err)
		}
		for _, l := range kept {
			if b := bytes.TrimSpace(stripTerminalPrefix(l.Bytes)); l.Skipped == 0 && (strings.TrimSpace(string(b)) == "" ||
				(gjson.ValidBytes(b) && gjson.ParseBytes(b).IsArray() && len(gjson.ParseBytes(b).Array()) == 0)) {
				continue // blank, or an empty array: nothing to show
			}
			if lines[l.N] == 0 {
				t.Fatalf("line %d (%q) gave no event", l.N, l.Bytes)
			}
		}
		for _, raw := range raws {
			if !strings.Contains(in, raw) {
				t.Fatalf("raw text %q is not in the input", raw)
			}
		}
	})
}

// pickyParser understands only its own agent's lines: any other is an
// unknown event.
type pickyParser struct{ name string }

func (p pickyParser) Parse(l *Line, emit Emit) error {
	if t := l.Str("type"); !strings.HasPrefix(t, p.name) {
		return emit.Push(&streaming.Event{Kind: streaming.KindUnknown, Type: t, Text: l.JSON})
	}
	return emit.Push(&streaming.Event{Kind: streaming.KindStatus, Text: p.name})
}

func (pickyParser) Finish(Emit) error { return nil }

// With --agent forcing a parser, the decoder counts what it could not
// understand and whose those lines look like, by the other agents'
// detectors: the command says "try --agent alpha".
func TestDecoderMisread(t *testing.T) {
	t.Parallel()
	agents := []Agent{fakeAgent("alpha", "alpha_init"), fakeAgent("beta", "beta_init")}
	agents[1].New = func() Parser { return pickyParser{"beta"} }
	for _, c := range []struct {
		force, in string
		n         int
		like      string
	}{
		{"beta", `{"type":"alpha_init"}` + "\n" + `{"type":"alpha_init"}` + "\n" + `{"type":"beta_x"}` + "\n", 2, "alpha"},
		{"beta", `{"type":"gamma"}` + "\n", 1, ""},
		{"beta", `{"type":"beta_init"}` + "\n", 0, ""},
		{"auto", `{"type":"alpha_init"}` + "\n", 0, ""},
	} {
		dec, err := NewDecoder(agents, DecoderOptions{Force: c.force}, EmitFunc(func(streaming.Mode, *streaming.Event) error { return nil }))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(strings.TrimSuffix(c.in, "\n"), "\n") {
			if err := dec.DecodeBytes([]byte(l), i+1); err != nil {
				t.Fatal(err)
			}
		}
		if n, like := dec.Misread(); n != c.n || like != c.like {
			t.Errorf("--agent %s on %q: misread %d, like %q; want %d, %q", c.force, c.in, n, like, c.n, c.like)
		}
	}
}
