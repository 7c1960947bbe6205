package streaming

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The property test of the session: random sequences of parser events
// (runs, messages, text and thinking blocks in every mode, tool calls with
// output) go through a Session, and what a consumer rebuilds from its
// output is compared, after every event, with a reference model of
// DESIGN §4 written from the design, not from the session's code:
//
//   - a delta is new text: it is shown exactly as it came, unless it is a
//     text or thinking delta that starts with the block's whole text
//     (32 bytes or more) and goes on past it, when only what goes past is
//     shown (and --strict fails there, and nowhere else);
//   - a snapshot or final is the block's whole text: the consumer ends up
//     with it, unless it is an older version (a prefix of what is shown);
//   - a snapshot or final for a message that stopped shows nothing if that
//     block had text, and else shows its whole text, once;
//   - ids are the same thing only within a run: after session.start, a
//     message, block or tool call id that ended before is new again;
//   - a tool call is shown started once and ended once per run, and its
//     output is every delta it got, repeats included;
//   - the final answer is the text of the last message that showed text
//     (a late block of another message does not change it), its text
//     blocks by index, joined as paragraphs; a message that starts again
//     leaves the answer the text it had.

var modelAlphabet = []string{"=", "a", "b", " ", "\n", "é", "日", "🎉", "|---|"}

type mkey struct {
	msg   string
	kind  Kind
	block int
}

// reference is the model: what a consumer must see.
type reference struct {
	runs     int
	open     map[string]bool // messages open in this run
	done     map[string]bool // messages stopped in this run
	blocks   map[mkey]string // text of blocks of open messages (and stopped ones, for reading)
	toolOpen map[string]bool
	toolDone map[string]bool
	output   map[string]string // tool output shown, per id (this run)
	starts   map[string]int    // tool.start shown per "run/id"
	ends     map[string]int
	late     bool // the last step was a snapshot or final for a stopped message

	ansMsg    string // the message whose text is the answer ("": ansFrozen)
	ansFrozen string // the answer's text, once its message started again
}

func newReference() *reference {
	return &reference{open: map[string]bool{}, done: map[string]bool{}, blocks: map[mkey]string{},
		toolOpen: map[string]bool{}, toolDone: map[string]bool{}, output: map[string]string{},
		starts: map[string]int{}, ends: map[string]int{}}
}

// dropBlocks begins msg afresh (message.start, or text after its stop):
// if it was the answer, the answer keeps the text it had.
func (r *reference) dropBlocks(msg string) {
	if r.ansMsg == msg {
		r.ansFrozen, r.ansMsg = r.answer(), ""
	}
	for k := range r.blocks {
		if k.msg == msg {
			delete(r.blocks, k)
		}
	}
}

// answer is the run's final answer.
func (r *reference) answer() string {
	if r.ansMsg == "" {
		return r.ansFrozen
	}
	var idx []int
	for k, t := range r.blocks {
		if k.msg == r.ansMsg && k.kind == KindTextDelta && t != "" {
			idx = append(idx, k.block)
		}
	}
	slices.Sort(idx)
	var b strings.Builder
	for _, i := range idx {
		if t := r.blocks[mkey{r.ansMsg, KindTextDelta, i}]; t != "" {
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
				b.WriteString("\n\n")
			}
			b.WriteString(t)
		}
	}
	return b.String()
}

// step applies ev and says what the output must show for it: the text a
// delta must come out as (want) and whether it breaks the contract.
func (r *reference) step(ev *Event, mode Mode) (want string, violation bool) {
	r.late = false
	switch ev.Kind {
	case KindSessionStart:
		for id := range r.toolOpen {
			r.ends[fmt.Sprint(r.runs, "/", id)]++ // left open: ended as incomplete
		}
		r.runs++
		r.open, r.done = map[string]bool{}, map[string]bool{}
		r.toolOpen, r.toolDone = map[string]bool{}, map[string]bool{}
		r.blocks, r.output = map[mkey]string{}, map[string]string{}
		r.ansMsg, r.ansFrozen = "", ""
	case KindMessageStart:
		if !r.open[ev.Message] {
			r.open[ev.Message] = true
			delete(r.done, ev.Message)
			r.dropBlocks(ev.Message)
		}
	case KindMessageStop:
		if r.open[ev.Message] {
			delete(r.open, ev.Message)
			r.done[ev.Message] = true
		}
	case KindTextDelta, KindThinkingDelta:
		if !r.open[ev.Message] {
			if k := (mkey{ev.Message, ev.Kind, ev.Block}); mode != Delta && r.done[ev.Message] {
				r.late = true
				if r.blocks[k] != "" || ev.Text == "" {
					return "", false // the block was shown
				}
				r.blocks[k] = ev.Text
				if ev.Kind == KindTextDelta && r.ansMsg == "" && r.ansFrozen == "" {
					r.ansMsg = ev.Message // the first text of the run
				}
				return ev.Text, false
			}
			r.open[ev.Message] = true
			delete(r.done, ev.Message)
			r.dropBlocks(ev.Message)
		}
		k := mkey{ev.Message, ev.Kind, ev.Block}
		have := r.blocks[k]
		shown := func() { // text went out: a text block makes its message the answer
			if ev.Kind == KindTextDelta {
				r.ansMsg, r.ansFrozen = ev.Message, ""
			}
		}
		if mode == Delta {
			add := ev.Text
			if len(have) >= 32 && len(add) > len(have) && strings.HasPrefix(add, have) {
				add, violation = add[len(have):], true
			}
			r.blocks[k] = have + add
			if add != "" {
				shown()
			}
			return add, violation
		}
		if !strings.HasPrefix(have, ev.Text) {
			r.blocks[k] = ev.Text
			shown()
		}
	case KindToolStart:
		if !r.toolOpen[ev.ID] && !r.toolDone[ev.ID] {
			r.toolOpen[ev.ID] = true
			r.starts[fmt.Sprint(r.runs, "/", ev.ID)]++
		}
	case KindToolOutputDelta:
		if r.toolDone[ev.ID] {
			return "", false
		}
		if !r.toolOpen[ev.ID] {
			r.toolOpen[ev.ID] = true
			r.starts[fmt.Sprint(r.runs, "/", ev.ID)]++
		}
		r.output[ev.ID] += ev.Text
		return ev.Text, false
	case KindToolEnd:
		if r.toolDone[ev.ID] {
			return "", false
		}
		if !r.toolOpen[ev.ID] {
			r.starts[fmt.Sprint(r.runs, "/", ev.ID)]++
		}
		delete(r.toolOpen, ev.ID)
		r.toolDone[ev.ID] = true
		r.ends[fmt.Sprint(r.runs, "/", ev.ID)]++
	}
	return "", false
}

// consumer rebuilds the session's output.
type consumer struct {
	runs   int
	blocks map[mkey]string
	output map[string]string
	starts map[string]int
	ends   map[string]int
	step   []Event
	err    error
}

func newConsumer() *consumer {
	return &consumer{blocks: map[mkey]string{}, output: map[string]string{}, starts: map[string]int{}, ends: map[string]int{}}
}

func (c *consumer) Handle(ev *Event) error {
	c.step = append(c.step, *ev)
	switch ev.Kind {
	case KindSessionStart:
		c.runs++
		c.blocks, c.output = map[mkey]string{}, map[string]string{}
	case KindMessageStart:
		for k := range c.blocks {
			if k.msg == ev.Message {
				delete(c.blocks, k)
			}
		}
	case KindTextDelta, KindThinkingDelta:
		c.blocks[mkey{ev.Message, ev.Kind, ev.Block}] += ev.Text
	case KindTextRevision:
		c.blocks[mkey{ev.Message, KindTextDelta, ev.Block}] = ev.Text
	case KindThinkingRevision:
		c.blocks[mkey{ev.Message, KindThinkingDelta, ev.Block}] = ev.Text
	case KindToolStart:
		c.starts[fmt.Sprint(c.runs, "/", ev.ID)]++
	case KindToolOutputDelta:
		c.output[ev.ID] += ev.Text
	case KindToolEnd:
		c.ends[fmt.Sprint(c.runs, "/", ev.ID)]++
	}
	return nil
}

// genEvent makes the next event from the fuzz input, its text chosen
// against the model's current block: fresh text, the block exactly, the
// block and more, a prefix of the block, the block and more twice.
func genEvent(ref *reference, data []byte, i *int) (Event, Mode) {
	next := func() byte {
		if *i >= len(data) {
			return 0
		}
		b := data[*i]
		*i++
		return b
	}
	b := next()
	msg := fmt.Sprint("m", b>>4%3)
	tool := fmt.Sprint("t", b>>4%3)
	switch b % 10 {
	case 0:
		return Event{Kind: KindSessionStart, SessionID: "s"}, Delta
	case 1:
		return Event{Kind: KindMessageStart, Message: msg, Role: RoleAssistant}, Delta
	case 2:
		return Event{Kind: KindMessageStop, Message: msg}, Delta
	case 3:
		return Event{Kind: KindToolStart, ID: tool, Name: "Bash"}, Delta
	case 4:
		return Event{Kind: KindToolEnd, ID: tool}, Delta
	}
	p := next()
	var fresh strings.Builder
	for k := 0; k < int(p>>3); k++ {
		fresh.WriteString(modelAlphabet[int(next())%len(modelAlphabet)])
	}
	if b%10 == 5 {
		return Event{Kind: KindToolOutputDelta, ID: tool, Text: fresh.String()}, Delta
	}
	kind := KindTextDelta
	if b%10 == 9 {
		kind = KindThinkingDelta
	}
	block := int(b>>6) % 2
	have := ""
	if ref.open[msg] {
		have = ref.blocks[mkey{msg, kind, block}]
	}
	var text string
	switch p & 7 {
	case 0, 1:
		text = fresh.String()
	case 2:
		text = have
	case 3, 4:
		text = have + fresh.String()
	case 5:
		text = have[:len(fresh.String())%(len(have)+1)]
	default:
		text = have + fresh.String() + fresh.String()
	}
	return Event{Kind: kind, Message: msg, Block: block, Text: text}, Mode(b % 10 % 3)
}

func checkAgainstReference(t *testing.T, data []byte) {
	ref := newReference()
	c := newConsumer()
	s := NewSession(c, Options{})
	strict := NewSession(HandlerFunc(func(*Event) error { return nil }), Options{Strict: true})
	strictDone := false
	type traced struct {
		mode Mode
		ev   Event
	}
	var trace []traced // the events so far, logged when the answer is wrong
	for i, n := 0, 0; i < len(data) && n < 300; n++ {
		ev, mode := genEvent(ref, data, &i)
		ev.Line = n + 1
		before := ev
		want, violation := ref.step(&ev, mode)
		c.step = c.step[:0]
		if err := s.PushAs(mode, &ev); err != nil {
			t.Fatalf("event %d %+v: %v", n, ev, err)
		}
		if !reflect.DeepEqual(before, ev) {
			t.Fatalf("event %d: the session changed its caller's event: %+v became %+v", n, before, ev)
		}
		if c.err != nil {
			t.Fatalf("event %d: %v", n, c.err)
		}
		if !strictDone {
			sev := before
			err := strict.PushAs(mode, &sev)
			var ce *ContractError
			switch {
			case violation && (!errors.As(err, &ce) || ce.Line != n+1 || ce.ExitCode() != ExitDataErr):
				t.Fatalf("event %d: strict session gave %v on a snapshot sent as a delta", n, err)
			case !violation && err != nil:
				t.Fatalf("event %d: strict session rejected a genuine event %+v: %v", n, before, err)
			}
			strictDone = violation
		}
		if (mode == Delta || ref.late) && (ev.Kind.IsText() || ev.Kind == KindToolOutputDelta) {
			var got strings.Builder
			for _, e := range c.step {
				if e.Kind == ev.Kind {
					got.WriteString(e.Text)
				}
			}
			if got.String() != want {
				t.Fatalf("event %d: %s %q came out as %q, want %q", n, mode, ev.Text, got.String(), want)
			}
		}
		for k, text := range ref.blocks {
			if ref.open[k.msg] && c.blocks[k] != text {
				t.Fatalf("event %d: block %v shows %q, want %q", n, k, c.blocks[k], text)
			}
		}
		for id, text := range ref.output {
			if c.output[id] != text {
				t.Fatalf("event %d: tool %s output %q, want %q", n, id, c.output[id], text)
			}
		}
		trace = append(trace, traced{mode, before})
		if got, want := s.FinalAnswer(), ref.answer(); got != want {
			for i, e := range trace {
				t.Logf("%d %s %s m=%s b=%d %q", i, e.mode, e.ev.Kind, e.ev.Message, e.ev.Block, e.ev.Text)
			}
			t.Fatalf("event %d: the final answer is %q, want %q", n, got, want)
		}
		if !reflect.DeepEqual(ref.starts, c.starts) || !reflect.DeepEqual(ref.ends, c.ends) {
			t.Fatalf("event %d: tool starts %v ends %v, want %v %v", n, c.starts, c.ends, ref.starts, ref.ends)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func FuzzSessionReference(f *testing.F) {
	// A run; one block gets the same 60-byte delta three times, then
	// itself and more (a real snapshot sent as a delta).
	long := []byte{0, 1, 8, 20 << 3}
	for k := 0; k < 20; k++ {
		long = append(long, byte(5+k%3)) // é 日 🎉: 60 bytes
	}
	long = append(long, 8, 2, 8, 2, 8, 3<<3|3, 1, 1, 1)
	f.Add(long)
	// A tool printing the same line three times; the same run again.
	f.Add([]byte{0, 3, 5, 6 << 3, 1, 2, 3, 1, 2, 3, 5, 6 << 3, 1, 2, 3, 1, 2, 3, 4, 0, 3, 5, 1 << 3, 1, 4})
	// Snapshots and finals: growing, repeated, older, rewritten.
	f.Add([]byte{1, 7, 3<<3 | 3, 1, 2, 3, 7, 2, 7, 5<<3 | 5, 1, 1, 1, 1, 1, 7, 2 << 3, 6, 6, 2, 7, 2})
	// Seven "=" deltas of thinking; a message stopped, a late final.
	f.Add([]byte{9, 1 << 3, 0, 9, 1 << 3, 0, 9, 1 << 3, 0, 9, 1 << 3, 0, 2, 7, 2, 1, 7, 2})
	f.Fuzz(checkAgainstReference)
}

// TestSessionReferenceRandom runs the property on pseudo-random inputs
// (the fuzz target runs only its seeds under go test).
func TestSessionReferenceRandom(t *testing.T) {
	x := uint32(2463534242)
	for run := 0; run < 3000; run++ {
		data := make([]byte, 40+run%200)
		for i := range data {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			data[i] = byte(x)
			if run%3 == 0 && i%5 == 1 {
				data[i] &^= 0xf8 // short texts: more repeats of the whole block
				data[i] |= 2 << 3
			}
		}
		checkAgainstReference(t, data)
	}
}
