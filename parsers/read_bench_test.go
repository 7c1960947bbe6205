package parsers_test

import (
	"bytes"
	"testing"

	"github.com/agentfmt/agentfmt/internal/gen"
	"github.com/agentfmt/agentfmt/parsers"
)

// BenchmarkRead reads 8 MiB of a generated Claude stream with Read:
// owned events (each a Clone) and lent ones (Options.Lend), to show what
// owning costs.
func BenchmarkRead(b *testing.B) {
	var stream bytes.Buffer
	if err := gen.Claude(&stream, 8<<20, 1); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		opts parsers.Options
	}{{"owned", parsers.Options{}}, {"lent", parsers.Options{Lend: true}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(stream.Len()))
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				for _, err := range parsers.Read(bytes.NewReader(stream.Bytes()), bc.opts) {
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n == 0 {
					b.Fatal("no events")
				}
			}
		})
	}
}
