package parsers

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// family is a Reader for tests: it claims a line whose "fam" field names
// it, Maybe when the field is "maybe-NAME" or "maybe-all", and records
// what it parsed.
type family struct {
	name string
	log  *[]string
}

func (f family) reader() Reader {
	return Reader{
		Detect: func(l *Line) Confidence {
			switch l.Str("fam") {
			case f.name:
				return Decisive
			case "maybe-" + f.name, "maybe-all":
				return Maybe
			}
			return No
		},
		New: func() Parser {
			*f.log = append(*f.log, "new "+f.name)
			return familyParser(f)
		},
	}
}

type familyParser family

func (p familyParser) Parse(l *Line, _ Emit) error {
	*p.log = append(*p.log, p.name+" "+l.Str("n"))
	return nil
}

func (p familyParser) Finish(Emit) error {
	*p.log = append(*p.log, "finish "+p.name)
	return nil
}

// TestReaders: each line goes to the family that scores it highest; a line
// no family scores higher than the current one stays with it; the first
// line goes to the first family unless another claims it; parsers are made
// on first use and all finished, in order.
func TestReaders(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string // fam of each line ("" none)
		want  string
	}{
		{"first family by default", []string{"", "a"}, "new a|a 1|a 2|finish a"},
		{"another claims the first line", []string{"b", ""}, "new b|b 1|b 2|finish b"},
		{"unclaimed lines follow", []string{"a", "b", "", "", "a", ""},
			"new a|a 1|new b|b 2|b 3|b 4|a 5|a 6|finish a|finish b"},
		{"maybe beats no", []string{"b", "maybe-a", "maybe-b"},
			"new b|b 1|new a|a 2|b 3|finish a|finish b"},
		{"another family's Maybe beats No", []string{"c", "maybe-a"}, "new c|c 1|new a|a 2|finish a|finish c"},
		{"a tie stays", []string{"b", "maybe-all", "maybe-all"}, "new b|b 1|b 2|b 3|finish b"},
		{"a tie on the first line", []string{"maybe-all"}, "new a|a 1|finish a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log []string
			rs := Readers{family{"a", &log}.reader(), family{"b", &log}.reader(), family{"c", &log}.reader()}
			p := rs.New()
			for i, fam := range tc.lines {
				l := NewLine(`{"fam":"`+fam+`","n":"`+string(rune('1'+i))+`"}`, i+1)
				if err := p.Parse(l, nil); err != nil {
					t.Fatal(err)
				}
			}
			if err := p.Finish(nil); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(log, "|"); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if c := rs.Detect(NewLine(`{"fam":"maybe-c"}`, 1)); c != Maybe {
				t.Errorf("Detect: %v, want the best family's Maybe", c)
			}
		})
	}
}

// The decoder asks an agent made of Readers for its score of a line, and
// its router asks the families again to route the line: each family's
// Detect runs once a line all the same.
func TestReadersDetectOnce(t *testing.T) {
	var log []string
	calls := map[string]int{}
	counted := func(r Reader, name string) Reader {
		detect := r.Detect
		r.Detect = func(l *Line) Confidence { calls[name]++; return detect(l) }
		return r
	}
	rs := Readers{counted(family{"a", &log}.reader(), "a"), counted(family{"b", &log}.reader(), "b")}
	agent := Agent{Name: "fam", Detect: rs.Detect, New: rs.New}
	d, err := NewDecoder([]Agent{agent}, DecoderOptions{}, EmitFunc(func(streaming.Mode, *streaming.Event) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{`{"fam":"a"}`, `{"fam":"maybe-all"}`, `{"fam":"b"}`, `{"fam":""}`}
	for i, l := range lines {
		if err := d.DecodeBytes([]byte(l), i+1); err != nil {
			t.Fatal(err)
		}
	}
	if calls["a"] != len(lines) || calls["b"] > len(lines) {
		t.Errorf("Detect ran %d times for a and %d for b on %d lines; want once a line each at most", calls["a"], calls["b"], len(lines))
	}
	if got, want := strings.Join(log, "|"), "new a|a |a |new b|b |b "; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
