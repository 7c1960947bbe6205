package eventtext

import (
	"testing"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
	"github.com/agentfmt/agentfmt/streaming"
)

func TestText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ got, want string }{
		{Duration(850), "850ms"},
		{Duration(1234), "1.2s"},
		{Duration(123_000), "2m03s"},
		{Duration(3_720_000), "1h02m"},
		{Tokens(950) + " " + Tokens(12_345) + " " + Tokens(1_234_567), "950 12.3k 1.2M"},
		{Cost(0.01234) + " " + Cost(1.234), "$0.0123 $1.23"},
		{Plural(1) + Plural(2), "s"},
		{TruncateRunes("héllo wörld", 6), "héllo…"},
		{TruncateRunes("héllo", 5), "héllo"},
		{OneLine("go test\n./..."), "go test …"},
		{OneLine("\n  go   test\n"), "go test"},
		{KeyArg(&streaming.Event{Subject: "ls\n-l", Title: "List"}), "ls …"},
		{KeyArg(&streaming.Event{Title: "List"}), "List"},
		{ToolOutput(&streaming.Event{Output: "<out>x</out>", Display: "x"}), "x"},
		{ToolOutput(&streaming.Event{Output: "x"}), "x"},
		{StatusMark(streaming.ToolOK) + StatusMark(streaming.ToolError) + StatusMark(streaming.ToolDeclined) + StatusMark(streaming.ToolIncomplete) + StatusMark(""), "✓✗⊘…▸"},
		{PlanMark(streaming.PlanCompleted) + PlanMark(streaming.PlanInProgress) + PlanMark(streaming.PlanCancelled) + PlanMark(streaming.PlanPending), "☑◐☒☐"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
