package streaming

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// TestTextPieces: a text kept in pieces answers as the string it holds,
// whatever the sizes of the appends.
func TestTextPieces(t *testing.T) {
	t.Parallel()
	x := uint32(7)
	rnd := func(n int) int { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return int(x % uint32(n)) }
	runs := 40
	if !testenv.SlowEnabled() {
		runs = 4 // everyday: the first 4 (each builds texts of megabytes)
	}
	for run := 0; run < runs; run++ {
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
			other := want[:cut] + "#" // (a text of megabytes: made once)
			if !tx.HasPrefix(want[:cut]) || !tx.PrefixOf(want+"z") || (cut < len(want) && tx.PrefixOf(other)) {
				t.Fatalf("prefix checks wrong at %d of %d", cut, len(want))
			}
			if cut < len(want) && (tx.Equal(want[:cut]) || tx.HasPrefix(other)) {
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

// TestSessionReusesTextMemory: a session shown many messages in turn,
// each of 2 KB of text, allocates far less than their text: the pieces of
// a message that stopped hold the next one's. (Before, every text was a
// new allocation, and the collector ran for all of it.)
func TestSessionReusesTextMemory(t *testing.T) {
	s := NewSession(HandlerFunc(func(*Event) error { return nil }), Options{})
	body := strings.Repeat("0123456789abcdef", 128) // 2 KiB
	const n = 2000
	ids := make([]string, 100+n)
	for i := range ids {
		ids[i] = "m" + strconv.Itoa(i)
	}
	var evs [4]Event
	modes := [4]Mode{Delta, Final, Final, Delta}
	next := 0
	run := func(n int) {
		for range n {
			id := ids[next]
			next++
			evs = [4]Event{msgStart(id), {Kind: KindTextDelta, Message: id, Text: body},
				{Kind: KindThinkingDelta, Message: id, Block: 1, Text: body}, msgStop(id)}
			for k := range evs {
				if err := s.PushAs(modes[k], &evs[k]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	run(100) // the pool fills
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	run(n)
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > uint64(len(body))/2 {
		t.Errorf("%d bytes allocated per message of %d bytes of text", per, 2*len(body))
	}
	// The answer's pieces are not reused while it is the answer: prompts
	// and thinking that follow it take pieces of their own.
	other := strings.Repeat("#", len(body))
	for i := range 50 {
		id := "u" + strconv.Itoa(i)
		for k, ev := range []Event{{Kind: KindMessageStart, Message: id, Role: RoleUser},
			{Kind: KindTextDelta, Message: id, Role: RoleUser, Text: other}, {Kind: KindThinkingDelta, Message: id, Block: 1, Text: other}, msgStop(id)} {
			if err := s.PushAs(modes[k], &ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	if s.FinalAnswer() != body {
		t.Errorf("the answer changed: %.40q…", s.FinalAnswer())
	}
}
