package streaming

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// The property test of the session: random sequences of parser events
// (runs, messages, text and thinking blocks in every mode, tool calls with
// output) go through a Session, and what a consumer rebuilds from its
// output is compared, after every event, with a reference model of
// the contract (docs/events.md, the package documentation) written from
// the contract, not from the session's code:
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
//   - a snapshot or final that is the block but for the white space
//     around it shows nothing;
//   - a restatement (Restate) is compared, piece by piece, with the
//     current block of the open message it names (the block that showed
//     text last, of its kind and not its own): pieces that repeat it from where the
//     restatement stands (white space before it aside) show nothing; what
//     goes past its end is new text (white space alone is not); a
//     restatement that departs from it is shown whole from where it began,
//     and so is every later piece; the new text goes to the event's own
//     message and block. A restatement for a stopped message is judged as
//     a final; one naming a message that is not open, or that has no
//     current block, is text, and so is what follows once the message it
//     names stops;
//   - the final answer is the text of the last message that showed text
//     (a late block of another message does not change it), its text
//     blocks by index, joined as paragraphs; a message that starts again
//     leaves the answer the text it had;
//   - block.stop (checked on the consumer's side): a block is announced
//     once after it showed text, before any other block of its message
//     shows text, before its message stops, starts again or the run ends,
//     and none is left open at the end.

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
	late     bool              // the last step was a snapshot or final for a stopped message
	cur      map[string]mkey   // per open message: the block that showed text last
	rs       map[string]*refRs // per open message: the restatement being sent

	ansMsg    string // the message whose text is the answer ("": ansFrozen)
	ansFrozen string // the answer's text, once its message started again
}

// refRs is a restatement in the model.
type refRs struct {
	src             mkey
	hasSrc          bool
	of              string
	dst             int
	kind            Kind
	start, at       int
	begun, departed bool
	gone            bool // the message repeated stopped or began again
}

// endRestatements notes that msg stopped or began again: the
// restatements of it are over, what follows them is new text.
func (r *reference) endRestatements(msg string) {
	for _, rs := range r.rs {
		if rs.of == msg {
			rs.gone = true
		}
	}
}

func newReference() *reference {
	return &reference{open: map[string]bool{}, done: map[string]bool{}, blocks: map[mkey]string{},
		toolOpen: map[string]bool{}, toolDone: map[string]bool{}, output: map[string]string{},
		starts: map[string]int{}, ends: map[string]int{}, cur: map[string]mkey{}, rs: map[string]*refRs{}}
}

// modelSpace is the white space a restatement or recap may differ in.
func modelSpace(c byte) bool { return strings.IndexByte(" \t\n\r\v\f", c) >= 0 }

func modelTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r < 0x80 && modelSpace(byte(r)) })
}

// dropBlocks begins msg afresh (message.start, or text after its stop):
// if it was the answer, the answer keeps the text it had.
func (r *reference) dropBlocks(msg string) {
	delete(r.cur, msg)
	delete(r.rs, msg)
	r.endRestatements(msg)
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
		r.cur, r.rs = map[string]mkey{}, map[string]*refRs{}
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
			r.endRestatements(ev.Message)
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
		if mode == Restate {
			return r.restate(ev)
		}
		return r.text(ev, mode, ev.Text)
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

// text applies text sent in mode to ev's block of an open message.
func (r *reference) text(ev *Event, mode Mode, t string) (want string, violation bool) {
	k := mkey{ev.Message, ev.Kind, ev.Block}
	have := r.blocks[k]
	shown := func() { // text went out: a text block makes its message the answer
		r.cur[ev.Message] = k
		if ev.Kind == KindTextDelta {
			r.ansMsg, r.ansFrozen = ev.Message, ""
		}
	}
	if mode == Delta {
		add := t
		if len(have) >= 32 && len(add) > len(have) && strings.HasPrefix(add, have) {
			add, violation = add[len(have):], true
		}
		r.blocks[k] = have + add
		if add != "" {
			shown()
		}
		return add, violation
	}
	switch {
	case strings.HasPrefix(t, have):
		if t != have {
			r.blocks[k] = t
			shown()
		}
	case strings.HasPrefix(have, t), modelTrim(have) == modelTrim(t):
	default:
		r.blocks[k] = t
		shown()
	}
	return "", false
}

// restate applies a piece of a restatement to an open message.
func (r *reference) restate(ev *Event) (want string, violation bool) {
	rs := r.rs[ev.Message]
	if rs == nil || rs.dst != ev.Block || rs.kind != ev.Kind || rs.of != ev.Restates {
		rs = &refRs{dst: ev.Block, kind: ev.Kind, of: ev.Restates}
		if c, ok := r.cur[ev.Restates]; ok && r.open[ev.Restates] && c.kind == ev.Kind &&
			(ev.Restates != ev.Message || c.block != ev.Block) && r.blocks[c] != "" {
			rs.src, rs.hasSrc = c, true
		}
		r.rs[ev.Message] = rs
	}
	t := ev.Text
	if rs.gone {
		rs.departed = true
	}
	if !rs.hasSrc || rs.departed {
		return r.text(ev, Delta, t)
	}
	src := r.blocks[rs.src]
	if !rs.begun {
		t = strings.TrimLeftFunc(t, func(c rune) bool { return c < 0x80 && modelSpace(byte(c)) })
		if t == "" {
			return "", false
		}
		rs.start = len(src) - len(strings.TrimLeftFunc(src, func(c rune) bool { return c < 0x80 && modelSpace(byte(c)) }))
		if modelTrim(src) == "" {
			rs.start = 0
		}
		rs.at, rs.begun = rs.start, true
	}
	k := 0
	for k < len(t) && rs.at+k < len(src) && t[k] == src[rs.at+k] {
		k++
	}
	switch {
	case k == len(t):
		rs.at += k
		return "", false
	case rs.at+k == len(src):
		rs.at += k
		if modelTrim(t[k:]) == "" {
			return "", false
		}
		rs.departed = true
		return r.text(ev, Delta, t[k:])
	}
	rs.departed = true
	hi := min(rs.at+k, len(src)) // (the block may have been rewritten shorter since)
	return r.text(ev, Delta, src[min(rs.start, hi):hi]+t[k:])
}

// consumer rebuilds the session's output, and checks block.stop.
type consumer struct {
	runs   int
	blocks map[mkey]string
	open   map[mkey]bool // blocks that showed text since their block.stop
	output map[string]string
	starts map[string]int
	ends   map[string]int
	step   []Event
	err    error
}

func newConsumer() *consumer {
	return &consumer{blocks: map[mkey]string{}, open: map[mkey]bool{}, output: map[string]string{}, starts: map[string]int{}, ends: map[string]int{}}
}

// noOpen fails when a block of msg ("": of any message) is open.
func (c *consumer) noOpen(msg string, why string) {
	for k := range c.open {
		if c.err == nil && (msg == "" || k.msg == msg) {
			c.err = fmt.Errorf("block %v not stopped before %s", k, why)
		}
	}
}

// shows notes text for block k: another open block of its message
// should have stopped first.
func (c *consumer) shows(k mkey) {
	for o := range c.open {
		if o.msg == k.msg && o != k && c.err == nil {
			c.err = fmt.Errorf("block %v still open when %v shows text", o, k)
		}
	}
	c.open[k] = true
}

func (c *consumer) Handle(ev *Event) error {
	c.step = append(c.step, *ev)
	switch ev.Kind {
	case KindSessionStart:
		c.noOpen("", "a new run")
		c.runs++
		c.blocks, c.output = map[mkey]string{}, map[string]string{}
	case KindResult:
		c.noOpen("", "the result")
	case KindMessageStart, KindMessageStop:
		c.noOpen(ev.Message, string(ev.Kind))
		if ev.Kind == KindMessageStart {
			for k := range c.blocks {
				if k.msg == ev.Message {
					delete(c.blocks, k)
				}
			}
		}
	case KindBlockStop:
		k := mkey{ev.Message, ev.BlockKind, ev.Block}
		if !c.open[k] && c.err == nil {
			c.err = fmt.Errorf("block.stop for %v, which showed no text since its last", k)
		}
		delete(c.open, k)
	case KindTextDelta, KindThinkingDelta:
		k := mkey{ev.Message, ev.Kind, ev.Block}
		c.shows(k)
		c.blocks[k] += ev.Text
	case KindTextRevision:
		k := mkey{ev.Message, KindTextDelta, ev.Block}
		c.shows(k)
		c.blocks[k] = ev.Text
	case KindThinkingRevision:
		k := mkey{ev.Message, KindThinkingDelta, ev.Block}
		c.shows(k)
		c.blocks[k] = ev.Text
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
	mode := Mode(b % 10 % 3)
	rs := ref.rs[msg]
	going := ref.open[msg] && rs != nil && rs.hasSrc && !rs.departed
	if mode == Final && (p&7 >= 6 || going && p&7 >= 3) {
		// A restatement of the current block of a message (this one, or
		// another): a piece of it from where the one being sent stands,
		// it again or and more, or fresh text.
		of := fmt.Sprint("m", (b>>6+p)%3)
		if going {
			of = rs.of
		}
		src := ""
		if c, ok := ref.cur[of]; ok && ref.open[of] {
			src = ref.blocks[c]
			if going && rs.src == c && rs.at <= len(src) {
				src = src[rs.at:]
			}
		}
		var text string
		f := fresh.String()
		switch (p >> 3) % 6 {
		case 0:
			text = src
		case 1:
			text = src + f
		case 2, 3:
			text = src[:len(f)%(len(src)+1)]
		case 4:
			text = src[:len(f)%(len(src)+1)] + "#" + f
		default:
			text = f
		}
		dst := block
		if of == msg {
			dst = 1 + block
		}
		if going {
			dst = rs.dst
		}
		return Event{Kind: kind, Message: msg, Block: dst, Restates: of, Text: text}, Restate
	}
	have := ""
	if ref.open[msg] {
		have = ref.blocks[mkey{msg, kind, block}]
	}
	var text string
	switch p & 7 {
	case 0:
		text = fresh.String()
	case 1:
		text = "\n" + modelTrim(have) + " " // the block but for the white space around it
		if have == "" {
			text = fresh.String()
		}
	case 2:
		text = have
	case 3, 4:
		text = have + fresh.String()
	case 5:
		text = have[:len(fresh.String())%(len(have)+1)]
	default:
		text = have + fresh.String() + fresh.String()
	}
	return Event{Kind: kind, Message: msg, Block: block, Text: text}, mode
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
		if (mode == Delta || mode == Restate || ref.late) && (ev.Kind.IsText() || ev.Kind == KindToolOutputDelta) {
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
	c.noOpen("", "the end of input")
	if c.err != nil {
		t.Fatalf("at the end: %v", c.err)
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
	// A message's text restated: the block again, then a piece that
	// departs ("#aaaa"); another restated past its end.
	f.Add([]byte{1, 6, 3 << 3, 1, 2, 3, 8, 7, 8, 4<<3 | 7, 1, 1, 1, 1, 17, 22, 2 << 3, 1, 2, 24, 1<<3 | 7, 1, 8, 7, 2, 1})
	f.Fuzz(checkAgainstReference)
}

// TestSessionReferenceRandom runs the property on pseudo-random inputs
// (the fuzz target runs only its seeds under go test): 3000 of them in
// the slow run, the first 600 every day.
func TestSessionReferenceRandom(t *testing.T) {
	t.Parallel()
	x := uint32(2463534242)
	runs := 3000
	if !testenv.SlowEnabled() {
		runs = 600 // everyday: the first 600 (each length of input three times)
	}
	for run := 0; run < runs; run++ {
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
