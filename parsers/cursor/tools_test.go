package cursor

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
		{"write", `{"path":"/c.py","fileText":"print()","toolCallId":"t"}`, []fe{{Path: "/c.py", Op: "create", New: "print()"}}},
		{"edit", `{"path":"/c.py","streamContent":"print(1)"}`, nil}, // its diff comes in the result
		{"read", `{"path":"/c.py"}`, nil},
	} {
		if got := toolEdits(tc.name, tc.in, ""); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s:\n got %+v\nwant %+v", tc.name, tc.in, got, tc.want)
		}
	}
}
