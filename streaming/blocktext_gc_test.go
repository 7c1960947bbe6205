package streaming

import (
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
)

// TestTextSurvivesGC: texts joined by String on goroutines that have since
// ended stay valid heap values. text once kept the strings.Builder that
// joined it, copied from String's stack frame: its self-pointer dangled
// once that stack was freed, and the garbage collector died with "found
// bad pointer in Go heap" (seen in the render tests, about one run in
// three under -race).
func TestTextSurvivesGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	var kept []*text
	var mu sync.Mutex
	for round := 0; round < 40; round++ {
		var wg sync.WaitGroup
		for g := 0; g < 16; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var local []*text
				for i := 0; i < 8; i++ {
					x := &text{}
					x.Append("the answer so far, ")
					x.Append("and more of it")
					_ = x.String()
					local = append(local, x)
				}
				mu.Lock()
				kept = append(kept, local...)
				mu.Unlock()
			}()
		}
		wg.Wait()
		runtime.GC()
	}
	for _, x := range kept {
		if x.String() != "the answer so far, and more of it" {
			t.Fatalf("text changed: %q", x.String())
		}
	}
}
