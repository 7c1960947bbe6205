package streaming

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The session fuzz target decodes its input into a sequence of operations
// over a few messages and blocks, runs them through a Session, and checks
// the output against a model of DESIGN §4:
//
//   - a delta appends, except that a delta beginning with the block's whole
//     text (≥ SnapshotMinBytes) appends only what follows it;
//   - a snapshot or final equal to the block, or an older (shorter, prefix)
//     version of it, changes nothing; an extension appends the suffix;
//     anything else replaces the block (a revision);
//   - a snapshot or final for a stopped message is dropped; a delta for it
//     (or any text for a message never started) opens it afresh.
//
// The consumer's view (message.start resets a message's blocks, text.delta
// appends, text.revision replaces) must equal the model after every step,
// every text-like output is a Delta, and a genuine delta is passed on
// exactly as it came.

// fuzzAlphabet mixes one-byte and multi-byte characters and a newline.
var fuzzAlphabet = []string{"=", "a", "b", " ", "\n", "é", "日", "🎉"}

type fuzzOp struct {
	typ   byte // 0 delta, 1 snapshot, 2 final, 3 message.start, 4 message.stop, 5 thinking (mode from base)
	msg   string
	block int
	base  byte   // text ops: 0 fresh, 1 block text + suffix, 2 prefix of block text, 3 block text + suffix twice
	n     int    // prefix length (base 2)
	chars string // suffix or fresh text
}

func decodeOps(data []byte) []fuzzOp {
	var ops []fuzzOp
	for i := 0; i < len(data) && len(ops) < 200; {
		b := data[i]
		i++
		o := fuzzOp{typ: b % 6, msg: fmt.Sprint("m", (b/6)%3), block: int(b/18) % 2}
		if o.typ == 3 || o.typ == 4 {
			ops = append(ops, o)
			continue
		}
		var p byte
		if i < len(data) {
			p = data[i]
			i++
		}
		o.base = p & 3
		o.n = int(p >> 2)
		if o.base != 2 {
			var sb strings.Builder
			for k := 0; k < o.n && i < len(data); k++ {
				sb.WriteString(fuzzAlphabet[int(data[i])%len(fuzzAlphabet)])
				i++
			}
			o.chars = sb.String()
		}
		ops = append(ops, o)
	}
	return ops
}

type fkey struct {
	msg   string
	kind  Kind
	block int
}

// sessionModel is the reference semantics of the contract.
type sessionModel struct {
	open     map[string]bool
	finished map[string]bool
	blocks   map[fkey]string
	last     map[fkey]string // the last snapshot or final applied to a block
}

func newSessionModel() *sessionModel {
	return &sessionModel{open: map[string]bool{}, finished: map[string]bool{}, blocks: map[fkey]string{}, last: map[fkey]string{}}
}

func (m *sessionModel) openMsg(id string) {
	m.open[id] = true
	for k := range m.blocks {
		if k.msg == id {
			delete(m.blocks, k)
		}
	}
	for k := range m.last {
		if k.msg == id {
			delete(m.last, k)
		}
	}
}

// event turns an op into the event a parser would push, resolving its
// text against the model's current block.
func (m *sessionModel) event(o fuzzOp) Event {
	switch o.typ {
	case 3:
		return Event{Kind: KindMessageStart, Message: o.msg, Role: RoleAssistant}
	case 4:
		return Event{Kind: KindMessageStop, Message: o.msg}
	}
	kind, mode := KindTextDelta, Mode(o.typ)
	if o.typ == 5 {
		kind, mode = KindThinkingDelta, Mode(o.n%3)
	}
	cur := ""
	if m.open[o.msg] {
		cur = m.blocks[fkey{o.msg, kind, o.block}]
	}
	var text string
	switch o.base {
	case 0:
		text = o.chars
	case 1:
		text = cur + o.chars
	case 2:
		text = cur[:o.n%(len(cur)+1)]
	case 3:
		text = cur + o.chars + o.chars
	}
	return Event{Kind: kind, Message: o.msg, Block: o.block, Text: text, Mode: mode}
}

// apply updates the model and returns the delta a genuine delta op must
// produce (want) and whether the op was a snapshot sent as a delta.
func (m *sessionModel) apply(ev *Event) (want string, violation bool) {
	switch ev.Kind {
	case KindMessageStart:
		if !m.open[ev.Message] {
			m.openMsg(ev.Message)
		}
		return "", false
	case KindMessageStop:
		if m.open[ev.Message] {
			delete(m.open, ev.Message)
			m.finished[ev.Message] = true
		}
		return "", false
	}
	if ev.Mode != Delta && m.finished[ev.Message] && !m.open[ev.Message] {
		return "", false
	}
	if !m.open[ev.Message] {
		m.openMsg(ev.Message)
	}
	k := fkey{ev.Message, ev.Kind, ev.Block}
	cur, t := m.blocks[k], ev.Text
	if ev.Mode == Delta {
		if len(cur) >= SnapshotMinBytes && strings.HasPrefix(t, cur) {
			t, violation = t[len(cur):], true
		}
		m.blocks[k] = cur + t
		return t, violation
	}
	m.last[k] = t
	switch {
	case t == cur, strings.HasPrefix(cur, t):
	default:
		m.blocks[k] = t
	}
	return "", false
}

// view is what a consumer of the session's output reconstructs.
type view struct {
	blocks map[fkey]string
	err    error
	step   []Event
}

func (v *view) Handle(ev *Event) error {
	v.step = append(v.step, *ev)
	if ev.Mode != Delta && (ev.Kind.IsText() || ev.Kind == KindToolOutputDelta) {
		v.err = fmt.Errorf("%s passed on with mode %s", ev.Kind, ev.Mode)
	}
	switch ev.Kind {
	case KindMessageStart:
		for k := range v.blocks {
			if k.msg == ev.Message {
				delete(v.blocks, k)
			}
		}
	case KindTextDelta, KindThinkingDelta:
		k := fkey{ev.Message, ev.Kind, ev.Block}
		v.blocks[k] += ev.Text
	case KindTextRevision:
		v.blocks[fkey{ev.Message, KindTextDelta, ev.Block}] = ev.Text
	case KindThinkingRevision:
		v.blocks[fkey{ev.Message, KindThinkingDelta, ev.Block}] = ev.Text
	}
	return nil
}

func checkSession(t *testing.T, data []byte) {
	ops := decodeOps(data)
	model := newSessionModel()
	v := &view{blocks: map[fkey]string{}}
	s := NewSession(v, Options{})
	strict := NewSession(HandlerFunc(func(*Event) error { return nil }), Options{Strict: true})
	strictFailed := false
	onlyFinals := true
	for i, o := range ops {
		ev := model.event(o)
		ev.Line = i + 1
		if ev.Kind.IsText() && ev.Mode == Delta {
			onlyFinals = false
		}
		sev := ev
		want, violation := model.apply(&ev)
		v.step = v.step[:0]
		if err := s.Push(&ev); err != nil {
			t.Fatalf("op %d %+v: %v", i, ev, err)
		}
		if v.err != nil {
			t.Fatalf("op %d: %v", i, v.err)
		}
		if !strictFailed {
			err := strict.Push(&sev)
			var ce *ContractError
			switch {
			case violation && !errors.As(err, &ce):
				t.Fatalf("op %d: strict session accepted a snapshot sent as a delta (err %v)", i, err)
			case violation && ce.Line != i+1:
				t.Fatalf("op %d: contract error on line %d", i, ce.Line)
			case !violation && err != nil:
				t.Fatalf("op %d: strict session rejected a genuine event: %v", i, err)
			}
			strictFailed = violation
		}
		if ev.Kind.IsText() && ev.Mode == Delta {
			// A genuine delta is passed on as it came; a repaired one as
			// its new suffix only.
			var got strings.Builder
			for _, e := range v.step {
				if e.Kind == ev.Kind {
					got.WriteString(e.Text)
				}
				if e.Kind == KindTextRevision || e.Kind == KindThinkingRevision {
					t.Fatalf("op %d: a delta caused a revision", i)
				}
			}
			if got.String() != want {
				t.Fatalf("op %d: delta %q (violation %v) passed on as %q, want %q", i, ev.Text, violation, got.String(), want)
			}
		}
		for k, text := range model.blocks {
			if v.blocks[k] != text {
				t.Fatalf("op %d: block %v shows %q, model holds %q", i, k, v.blocks[k], text)
			}
		}
		for k, text := range v.blocks {
			if text != "" && model.blocks[k] != text {
				t.Fatalf("op %d: block %v shows %q, model holds %q", i, k, text, model.blocks[k])
			}
		}
	}
	if onlyFinals {
		// Snapshots and finals only: every block shows the last text sent
		// for it, unless that was an older prefix of what was shown.
		for k, text := range model.last {
			got := v.blocks[k]
			if got != text && !strings.HasPrefix(got, text) {
				t.Fatalf("block %v shows %q, last sent %q", k, got, text)
			}
		}
	}
	if err := s.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if o, _ := s.Outcome(); o != Incomplete {
		t.Fatalf("outcome %s without a result", o)
	}
}

func FuzzSession(f *testing.F) {
	// delta ×3 of one block; the third repeats the first two (≥ 32 bytes).
	f.Add([]byte{0, 40 << 2, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 0, 1, 0, 5<<2 | 1, 1, 1, 1, 1, 1})
	// seven "=" deltas.
	f.Add([]byte{0, 1 << 2, 0, 0, 1 << 2, 0, 0, 1 << 2, 0, 0, 1 << 2, 0, 0, 1 << 2, 0, 0, 1 << 2, 0, 0, 1 << 2, 0})
	// snapshots growing, a final equal, a final rewriting.
	f.Add([]byte{1, 3 << 2, 1, 2, 3, 1, 2<<2 | 1, 4, 5, 2, 0 | 3, 2, 4 << 2, 7, 7, 7, 7})
	// start, text, stop, a late final, a late delta, start again.
	f.Add([]byte{3, 0, 5 << 2, 1, 1, 1, 1, 1, 4, 2, 3, 0, 1 << 2, 6, 3})
	// older snapshot (prefix), thinking snapshots, a second block.
	f.Add([]byte{1, 8 << 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2<<2 | 2, 5, 9<<2 | 1, 6, 6, 6, 19, 2 << 2, 1, 1})
	// 34 one-byte chars then a delta of the block + suffix twice.
	seed := []byte{0, 34 << 2}
	for i := 0; i < 34; i++ {
		seed = append(seed, byte(i%4))
	}
	seed = append(seed, 0, 2<<2|3, 5, 6)
	f.Add(seed)
	f.Fuzz(checkSession)
}

// TestSessionModelCases runs a few readable sequences through the same
// checker as the fuzz target.
func TestSessionModelCases(t *testing.T) {
	long := strings.Repeat("ab", 20)
	seqs := [][]Event{
		{{Kind: KindTextDelta, Message: "m1", Text: long}, {Kind: KindTextDelta, Message: "m1", Text: long + long}},
		{{Kind: KindTextDelta, Message: "m1", Mode: Snapshot, Text: long}, {Kind: KindTextDelta, Message: "m1", Mode: Final, Text: long + long}},
		{{Kind: KindTextDelta, Message: "m1", Mode: Final, Text: "x"}, {Kind: KindMessageStop, Message: "m1"},
			{Kind: KindTextDelta, Message: "m1", Text: "y"}, {Kind: KindTextDelta, Message: "m1", Mode: Final, Text: "yz"}},
	}
	for i, seq := range seqs {
		model := newSessionModel()
		v := &view{blocks: map[fkey]string{}}
		s := NewSession(v, Options{})
		for _, ev := range seq {
			model.apply(&ev)
			if err := s.Push(&ev); err != nil {
				t.Fatal(err)
			}
		}
		for k, text := range model.blocks {
			if v.blocks[k] != text {
				t.Errorf("seq %d: block %v shows %q, model holds %q", i, k, v.blocks[k], text)
			}
		}
	}
}
