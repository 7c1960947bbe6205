package parsers

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// testKeys are subject keys for the tests (Claude Code's and others').
var testKeys = []string{"command", "cmd", "file_path", "filePath", "path", "notebook_path", "pattern", "url", "query",
	"description", "prompt", "subject", "name", "target_file", "directory", "dir"}

// subjectSlow is SubjectOf as it was first written: a Get per key.
func subjectSlow(title string, v gjson.Result) string {
	for _, k := range testKeys {
		f := v.Get(gjson.Escape(k))
		switch {
		case f.Type == gjson.String && f.Str != "":
			return f.Str
		case f.IsArray():
			var parts []string
			for _, p := range f.Array() {
				parts = append(parts, p.String())
			}
			if len(parts) > 0 {
				return joinSpace(parts)
			}
		}
	}
	var first string
	v.ForEach(func(_, val gjson.Result) bool {
		if val.Type == gjson.String && val.Str != "" {
			first = val.Str
			return false
		}
		return true
	})
	if title != "" {
		return title
	}
	if first != "" {
		return first
	}
	return v.Raw
}

func joinSpace(p []string) string {
	s := ""
	for i, x := range p {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}

func FuzzSubjectObject(f *testing.F) {
	for _, s := range []string{`{"command":"ls -la","description":"list"}`, `{"x":1,"path":"a","file_path":"b"}`,
		`{"pattern":["a","b"],"query":""}`, `{"a":"","b":"second"}`, `{"command":"","command":"dup"}`,
		`{"n":1}`, `{"cmd":["git","status"]}`, `{"k\u0065y":"v","url":"http://x\ny"}`} {
		f.Add(s, "")
		f.Add(s, "a title")
	}
	f.Fuzz(func(t *testing.T, in, title string) {
		v := gjson.Parse(in)
		if !v.IsObject() || !gjson.Valid(in) {
			return
		}
		if got, want := subjectObject(title, v, testKeys), subjectSlow(title, v); got != want {
			t.Fatalf("Subject(%q) = %q, the Get per field gives %q", in, got, want)
		}
	})
}

func TestSubject(t *testing.T) {
	for _, c := range []struct{ title, in, want string }{
		{"", `{"command":"ls -la","description":"list"}`, "ls -la"},
		{"", `{"file_path":"/a/b.go","old_string":"x"}`, "/a/b.go"},
		{"", `{"filePath":"/a/b.go"}`, "/a/b.go"},
		{"", `{"cmd":["git","status"]}`, "git status"},
		{"T", `{}`, "T"},
		{"T", `{"n":1}`, "T"},
		{"", `"just a string"`, "just a string"},
		{"", `{"n":1}`, `{"n":1}`},
		{"", `{"url":"u","command":"c"}`, "c"},
		{"", `{"path":"","pattern":"p"}`, "p"},
	} {
		if got := SubjectOf(c.title, c.in, testKeys); got != c.want {
			t.Errorf("SubjectOf(%q, %q) = %q, want %q", c.title, c.in, got, c.want)
		}
	}
}

// The subject of a call is read without decoding the other values of its
// input: a Write's content or an Edit's strings, which can be long and
// full of escapes, cost no allocation.
func TestSubjectDecodesOnlyItsValue(t *testing.T) {
	content := strings.Repeat(`line \"quoted\"\n\ttab\u00e9 `, 200)
	in := `{"content":"` + content + `","file_path":"/w/a.go","old_string":"` + content + `"}`
	if got := SubjectOf("", in, testKeys); got != "/w/a.go" {
		t.Fatalf("subject %q", got)
	}
	if n := testing.AllocsPerRun(100, func() { SubjectOf("", in, testKeys) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
