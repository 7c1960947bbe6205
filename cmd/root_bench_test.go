package cmd

import "testing"

// BenchmarkNewRoot is what every start of agentfmt, and every in-process
// run of the tests, spends building its commands and their help.
func BenchmarkNewRoot(b *testing.B) {
	env := &Env{}
	code := 0
	for b.Loop() {
		newRoot(env, &code)
	}
}
