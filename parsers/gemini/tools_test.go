package gemini

import (
	"reflect"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

func TestToolEdits(t *testing.T) {
	type fe = streaming.FileEdit
	for _, tc := range []struct {
		name, in string
		want     []fe
	}{
		{"write_file", `{"file_path":"/w/a.txt","content":"hi"}`, []fe{{Path: "/w/a.txt", Op: "create", New: "hi"}}},
		{"replace", `{"file_path":"/w/a.txt","instruction":"fix","old_string":"teh","new_string":"the"}`,
			[]fe{{Path: "/w/a.txt", Op: "modify", Old: "teh", New: "the"}}},
		{"write_file", `{"absolute_path":"/w/b.txt","content":"x"}`, []fe{{Path: "/w/b.txt", Op: "create", New: "x"}}},
		{"read_file", `{"file_path":"/w/a.txt"}`, nil},
		{"replace", ``, nil}, // a tool.end, without the call's input
	} {
		if got := toolEdits(tc.name, tc.in, ""); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s:\n got %+v\nwant %+v", tc.name, tc.in, got, tc.want)
		}
	}
}
