package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/conformance"
)

// The corpus keeps the json outputs of Qwen Code and CodeBuddy one element
// per line; the agents print one array (Qwen on one line, CodeBuddy
// pretty-printed with a 2-space indent: their SOURCES.md). Rebuilt as the
// agent printed it, a capture renders as its per-line copy does, in every
// format, with the same exit status.
func TestCorpusArrayAsPrinted(t *testing.T) {
	t.Parallel()
	dir := conformance.CorpusDir()
	if dir == "" {
		t.Skip("../shared/corpus not found")
	}
	for folder, pretty := range map[string]bool{"qwen-json": false, "codebuddy": true} {
		for _, path := range conformance.Captures(folder) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			elems := strings.Split(strings.TrimSpace(string(data)), "\n")
			printed := []byte("[" + strings.Join(elems, ",") + "]\n")
			if pretty {
				var b bytes.Buffer
				if err := json.Indent(&b, printed, "", "  "); err != nil {
					t.Fatal(err)
				}
				printed = b.Bytes()
			}
			t.Run(folder+"/"+filepath.Base(path), func(t *testing.T) {
				for _, args := range [][]string{{"-o", "plain", "--color", "never"}, {"-o", "text"}, {"-o", "markdown"}} {
					want, _, wcode := renderCapture(t, data, args...)
					got, _, gcode := renderCapture(t, printed, args...)
					if got != want || gcode != wcode {
						t.Errorf("%v: as printed exit %d:\n%s\nper line exit %d:\n%s", args, gcode, got, wcode, want)
					}
				}
			})
		}
	}
}
