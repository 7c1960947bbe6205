package view

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

// TestOffset: a part of a string is found where it starts; an equal
// string elsewhere in memory, an empty one, or one that runs past the end
// is not a part of it.
func TestOffset(t *testing.T) {
	buf := []byte(`{"a":"hello","b":"hello"}`)
	line := String(buf)
	part := line[18:23]
	if off, ok := Offset(line, part); !ok || off != 18 {
		t.Errorf("Offset of a part: %d %v, want 18 true", off, ok)
	}
	other := string([]byte("hello")) // the same text, other memory
	if _, ok := Offset(line, other); ok {
		t.Error("Offset found a string that is not a part of the line")
	}
	if _, ok := Offset(line, ""); ok {
		t.Error("Offset found the empty string")
	}
	if _, ok := Offset(line[:20], line[18:23]); ok {
		t.Error("Offset took a string that runs past the end for a part")
	}
	b := Bytes(String(buf))
	b[2] = 'z'
	if line[2] != 'z' {
		t.Error("Bytes is not a view of the string's memory")
	}
}

// TestOnlyUnsafe: this package and internal/startgc (which links the
// runtime's GOGC setter) are the only packages of agentfmt that import
// unsafe (hand-written machinery lives behind small internal packages;
// the domain packages stay plain Go).
func TestOnlyUnsafe(t *testing.T) {
	t.Parallel()
	allowed := []string{"github.com/agentfmt/agentfmt/internal/view", "github.com/agentfmt/agentfmt/internal/startgc"}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}:{{join .Imports " "}}`, "github.com/agentfmt/agentfmt/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(l, ":")
		if slices.Contains(strings.Fields(imports), "unsafe") && !slices.Contains(allowed, pkg) {
			t.Errorf("%s imports unsafe", pkg)
		}
	}
}
