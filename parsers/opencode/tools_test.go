package opencode

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
		{"edit", `{"filePath":"/o.ts","oldString":"a","newString":"b"}`, []fe{{Path: "/o.ts", Op: "modify", Old: "a", New: "b"}}},
		{"multiedit", `{"filePath":"/o.ts","edits":[{"oldString":"a","newString":"b"},{"oldString":"c","newString":"d"}]}`,
			[]fe{{Path: "/o.ts", Op: "modify", Old: "a", New: "b"}, {Path: "/o.ts", Op: "modify", Old: "c", New: "d"}}},
		{"write", `{"filePath":"/o.ts","content":"x"}`, []fe{{Path: "/o.ts", Op: "create", New: "x"}}},
		{"read", `{"filePath":"/o.ts"}`, nil},
		{"bash", `{"command":"ls","description":"list"}`, nil},
	} {
		if got := toolEdits(tc.name, tc.in, ""); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s:\n got %+v\nwant %+v", tc.name, tc.in, got, tc.want)
		}
	}
}
