package cline_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/parsers/parsertest"
)

// FuzzParse feeds arbitrary input (seeded with the fixtures and their
// lines) through the decoder and session: no panic, no error.
func FuzzParse(f *testing.F) {
	for _, file := range fixtures(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
		for _, line := range strings.Split(string(data), "\n") {
			f.Add(line)
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		if res := parsertest.Run(agents, in); res.Err != nil {
			t.Fatalf("error: %v", res.Err)
		}
	})
}
