package render

import (
	"fmt"
	"reflect"
	"testing"
)

func TestPromptFold(t *testing.T) {
	for _, n := range []int{1, PromptHead, PromptHead + 1, 20, 20 + 1, 30, 100} {
		f := newPromptFold(20)
		var shown []string
		for i := 1; i <= n; i++ {
			if l := fmt.Sprint(i); f.add(l, 1) {
				shown = append(shown, l)
			}
		}
		omitted, rest := f.end()
		var want []string
		wantOmitted := 0
		for i := 1; i <= n; i++ {
			want = append(want, fmt.Sprint(i))
		}
		if n > 20 {
			wantOmitted = n - PromptHead - PromptTail
			want = append(want[:PromptHead:PromptHead], want[n-PromptTail:]...)
		}
		got := append(shown, rest...)
		if omitted != wantOmitted || !reflect.DeepEqual(got, want) {
			t.Errorf("%d lines: shown %v, omitted %d, rest %v; want %v, %d left out", n, shown, omitted, rest, want, wantOmitted)
		}
	}
}
