package html_test

import (
	"bytes"
	"strings"
	"testing"
)

// A file change that moves a file (Codex's move_path) names both paths
// on the page.
func TestRenameShown(t *testing.T) {
	t.Parallel()
	data := fixture(t, "codex-app-server/01-turn-deltas-command-filechange-mcp-plan.jsonl")
	moved := bytes.Replace(data, []byte(`"move_path":null`), []byte(`"move_path":"/work/app/span.go"`), -1)
	if bytes.Equal(moved, data) {
		t.Fatal("the fixture has no move_path to set")
	}
	got := page(t, moved)
	if !strings.Contains(got, "/work/app/range.go → /work/app/span.go") {
		t.Error("the page does not name the rename")
	}
	if got := page(t, data); strings.Contains(got, "→ /work/app/span.go") {
		t.Error("a change that moves nothing is named as a rename")
	}
}
