package streaming

import (
	"strings"
	"testing"
)

// TestTextPieces: a text kept in pieces answers as the string it holds,
// whatever the sizes of the appends.
func TestTextPieces(t *testing.T) {
	x := uint32(7)
	rnd := func(n int) int { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return int(x % uint32(n)) }
	for run := 0; run < 40; run++ {
		var tx text
		var ref strings.Builder
		for i := 0; i < 20; i++ {
			size := rnd(8)
			if i%7 == 3 {
				size = rnd(3 * maxChunk)
			}
			s := strings.Repeat(string(rune('a'+rnd(3))), size)
			tx.Append(s)
			ref.WriteString(s)
			want := ref.String()
			if tx.Len() != len(want) || !tx.Equal(want) {
				t.Fatalf("text of %d bytes differs", len(want))
			}
			if i%3 == 0 && tx.String() != want { // (joins the pieces)
				t.Fatalf("String of %d bytes differs", len(want))
			}
			cut := rnd(len(want) + 1)
			if !tx.HasPrefix(want[:cut]) || !tx.PrefixOf(want+"z") || (cut < len(want) && tx.PrefixOf(want[:cut]+"#")) {
				t.Fatalf("prefix checks wrong at %d of %d", cut, len(want))
			}
			if cut < len(want) && (tx.Equal(want[:cut]) || tx.HasPrefix(want[:cut]+"#")) {
				t.Fatalf("equal or prefix of a shorter text")
			}
		}
		for _, c := range tx.chunks[:max(len(tx.chunks)-1, 0)] {
			if len(c) != cap(c) && len(c) < maxChunk {
				t.Fatalf("a piece left with room before the last: %d of %d", len(c), cap(c))
			}
		}
	}
}
