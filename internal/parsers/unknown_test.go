package parsers

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/streaming"
)

// unknownTypes are lines of shapes no agent knows and the name each
// unknown event must carry: never empty (shown as "?").
var unknownTypes = []struct{ line, want string }{
	{`{"type":"brand_new","x":1}`, "brand_new"},
	{`{"event":"heartbeat","heartbeat":{}}`, "heartbeat"},
	{`{"jsonrpc":"2.0","method":"item/started","params":{}}`, "item/started"},
	{`{"id":7,"result":{"ok":true}}`, "id"},
	{`{"ts":1,"type":"later_key_wins_over_first"}`, "later_key_wins_over_first"},
	{`{"type":42,"event":"tick"}`, "tick"},
	{`{"type":"","kind":"x"}`, "type"},
	{`{"a\u00e9b":1}`, "aéb"},
	{`{}`, "{}"},
}

func TestUnknownType(t *testing.T) {
	for _, c := range unknownTypes {
		if got := UnknownType(NewLine(c.line, 1)); got != c.want {
			t.Errorf("UnknownType(%s) = %q, want %q", c.line, got, c.want)
		}
	}
}

// TestDecoderNamesUnknownLines: a line no agent detects, and a line a
// parser passes on as unknown without a type, are both named by
// UnknownType.
func TestDecoderNamesUnknownLines(t *testing.T) {
	blank := Agent{Name: "blank", Detect: func(l *Line) Confidence {
		if l.Str("event") == "blank_init" {
			return Decisive
		}
		return No
	}, New: func() Parser { return blankParser{} }}
	for _, withParser := range []bool{false, true} {
		for _, c := range unknownTypes {
			var got []streaming.Event
			d, err := NewDecoder([]Agent{blank}, DecoderOptions{}, EmitFunc(func(_ streaming.Mode, ev *streaming.Event) error {
				got = append(got, ev.Clone())
				return nil
			}))
			if err != nil {
				t.Fatal(err)
			}
			if withParser {
				if err := d.Decode(input.Line{Bytes: []byte(`{"event":"blank_init"}`), N: 1}); err != nil {
					t.Fatal(err)
				}
				got = nil
			}
			if err := d.Decode(input.Line{Bytes: []byte(c.line), N: 2}); err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Kind != streaming.KindUnknown || got[0].Type != c.want {
				t.Errorf("parser %v, %s: events %+v, want one unknown of type %q", withParser, c.line, got, c.want)
			}
		}
	}
}

// blankParser passes every line on as unknown, with no type.
type blankParser struct{}

func (blankParser) Parse(l *Line, emit Emit) error {
	return emit.Push(&streaming.Event{Kind: streaming.KindUnknown, Text: l.JSON})
}

func (blankParser) Finish(Emit) error { return nil }
