package render

import (
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// keyArgSlow is KeyArg as it was: a Get per candidate field.
func keyArgSlow(ev *streaming.Event, v gjson.Result) string {
	for _, k := range keyArgFields {
		f := v.Get(gjson.Escape(k))
		switch {
		case f.Type == gjson.String && f.Str != "":
			return oneLine(f.Str)
		case f.IsArray():
			var parts []string
			for _, p := range f.Array() {
				parts = append(parts, p.String())
			}
			if len(parts) > 0 {
				return oneLine(joinSpace(parts))
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
	if ev.Title != "" {
		return oneLine(ev.Title)
	}
	if first != "" {
		return oneLine(first)
	}
	return oneLine(v.Raw)
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

func FuzzKeyArgObject(f *testing.F) {
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
		ev := &streaming.Event{Input: in, Title: title}
		if got, want := keyArgObject(ev, v), keyArgSlow(ev, v); got != want {
			t.Fatalf("KeyArg(%q) = %q, the Get per field gives %q", in, got, want)
		}
	})
}
