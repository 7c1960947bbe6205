package parsers

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// FuzzObjectGet: an Object answers every path as gjson's Get does on the
// object's text.
func FuzzObjectGet(f *testing.F) {
	for _, s := range []string{
		`{"id":"i1","type":"command_execution","command":["bash","-lc","ls"],"aggregated_output":"a\nb","exit_code":0,"status":"completed"}`,
		`{"a":{"b":[1,2,{"c":"d"}]},"a":"dup","e\"k":1,"x.y":2}`,
		`{}`, `[1,2]`, `"s"`, ` {"sp" : true } `,
	} {
		for _, p := range []string{"id", "a", "a.b", "a.b.2.c", "e\"k", "x.y", "missing", "command.0", "exit_code", "sp"} {
			f.Add(s, p)
		}
	}
	f.Fuzz(func(t *testing.T, raw, path string) {
		if !gjson.Valid(raw) {
			return
		}
		var o Object
		o.Reset(raw)
		got, want := o.Get(path), gjson.Get(raw, path)
		if !strings.HasPrefix(strings.TrimSpace(raw), "{") {
			want = gjson.Result{}
		}
		if got.Type != want.Type || got.Raw != want.Raw || got.String() != want.String() {
			t.Fatalf("Get(%q) on %s = %v %q, gjson %v %q", path, raw, got.Type, got.Raw, want.Type, want.Raw)
		}
	})
}

// An object of more fields than an Object holds answers for all of them.
func TestObjectMany(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 3*objectMax; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + string(rune('A'+i%26)) + strings.Repeat("x", i/26) + `":` + "1")
	}
	b.WriteString("}")
	var o Object
	o.Reset(b.String())
	for i := 0; i < 3*objectMax; i++ {
		k := "k" + string(rune('A'+i%26)) + strings.Repeat("x", i/26)
		if !o.Get(k).Exists() {
			t.Fatalf("no %s", k)
		}
	}
}
