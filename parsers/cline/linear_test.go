package cline_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// commandOutputLog is a command with n command_output lines of its own
// (Cline prints each chunk as a message).
func commandOutputLog(n int) string {
	var b strings.Builder
	b.WriteString(`{"ts":1,"type":"say","say":"command","text":"npm test"}` + "\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"ts":%d,"type":"ask","ask":"command_output","text":"PASS src/module%d.test.js (12 ms)\n"}`+"\n", i+2, i)
	}
	b.WriteString(`{"ts":999999999,"type":"say","say":"api_req_started","text":"{}"}` + "\n")
	return b.String()
}

// decodeAll runs a log through the decoder and a session into a handler
// that keeps nothing.
func decodeAll(tb testing.TB, log string) {
	sess := streaming.NewSession(streaming.HandlerFunc(func(*streaming.Event) error { return nil }), streaming.Options{})
	dec, err := parsers.NewDecoder(agents, parsers.DecoderOptions{Force: "cline"}, sess)
	if err != nil {
		tb.Fatal(err)
	}
	r := input.NewReader(strings.NewReader(log), 0)
	for {
		l, err := r.Next()
		if err != nil {
			break
		}
		if err := dec.Decode(l); err != nil {
			tb.Fatal(err)
		}
	}
	if err := dec.Close(); err != nil {
		tb.Fatal(err)
	}
	if err := sess.Close(); err != nil {
		tb.Fatal(err)
	}
}

// TestCommandOutputLinear: 40k command_output lines cost about four times
// what 10k cost. Measured in bytes allocated (a deterministic measure of
// work): the parser once concatenated the whole output on every line,
// which allocates quadratically.
func TestCommandOutputLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		log := commandOutputLog(n)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		decodeAll(t, log)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(10000), alloc(40000)
	if ratio := float64(large) / float64(small); ratio > 6 {
		t.Errorf("40k lines allocate %.1f× what 10k do (%d vs %d bytes): not linear", ratio, large, small)
	}
}

func BenchmarkCommandOutput(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			log := commandOutputLog(n)
			b.SetBytes(int64(len(log)))
			b.ReportAllocs()
			for b.Loop() {
				decodeAll(b, log)
			}
		})
	}
}
