package all_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/agentfmt/agentfmt/internal/conformance"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
)

// newer are agents whose detectors came after the others' captures were
// collected: a detector must take its own agent's logs whole, and nothing
// of any other agent's.
var newer = []string{"pi", "codebuddy", "openclaw", "droid", "grok", "goose", "kimi"}

// TestDetectionKeepsToItsAgent decodes every capture and fixture of every
// folder with the whole registry: the logs of a newer agent's folder are
// read by that agent alone, and no other folder's log has a line read by
// a newer agent.
func TestDetectionKeepsToItsAgent(t *testing.T) {
	folders := map[string][]string{}
	if dir := conformance.CorpusDir(); dir != "" {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.IsDir() {
				folders[e.Name()] = append(folders[e.Name()], conformance.Captures(e.Name())...)
			}
		}
	}
	fixtures, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "*", "*.jsonl"))
	for _, f := range fixtures {
		name := filepath.Base(filepath.Dir(f))
		folders[name] = append(folders[name], f)
	}
	isNewer := map[string]bool{}
	for _, a := range newer {
		isNewer[a] = true
		if len(folders[a]) == 0 {
			t.Errorf("no logs of %s", a)
		}
	}
	for folder, files := range folders {
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			agents := map[string]bool{}
			for _, e := range parsertest.Run(all.Agents(), string(data)).Check(t).Events {
				if e.Agent != "" {
					agents[e.Agent] = true
				}
			}
			var names []string
			for a := range agents {
				names = append(names, a)
			}
			sort.Strings(names)
			switch {
			case isNewer[folder] && (len(names) != 1 || names[0] != folder):
				t.Errorf("%s/%s read by %v, want %s alone", folder, filepath.Base(f), names, folder)
			case !isNewer[folder]:
				for _, a := range names {
					if isNewer[a] {
						t.Errorf("%s/%s: lines read by %s (agents %v)", folder, filepath.Base(f), a, names)
					}
				}
			}
		}
	}
}
