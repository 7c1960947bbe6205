package filter

import (
	"reflect"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

func (c *collect) sentences() []string {
	var out []string
	for _, e := range c.evs {
		if e.Kind == streaming.KindTextSentence {
			out = append(out, e.Text)
		}
	}
	return out
}

func TestSentencesEvents(t *testing.T) {
	t.Parallel()
	var c collect
	through(t, NewSentences(&c),
		&streaming.Event{Kind: streaming.KindMessageStart, Message: "m1", Role: streaming.RoleAssistant},
		delta("m1", 0, "Dobra, zaraz sprawdzę"),
		delta("m1", 0, " co mamy na ekranie. Wi"),
		delta("m1", 0, "dzę przeglądarkę."),
		&streaming.Event{Kind: streaming.KindToolStart, ID: "t1", Name: "screenshot"},
		&streaming.Event{Kind: streaming.KindToolEnd, ID: "t1", Name: "screenshot"},
		&streaming.Event{Kind: streaming.KindMessageStop, Message: "m1", Role: streaming.RoleAssistant},
		&streaming.Event{Kind: streaming.KindMessageStart, Message: "m2", Role: streaming.RoleAssistant},
		delta("m2", 0, "Super! Gotowe"),
		&streaming.Event{Kind: streaming.KindResult, OK: true})
	want := []string{"Dobra, zaraz sprawdzę co mamy na ekranie. ", "Widzę przeglądarkę.", "Super! ", "Gotowe"}
	if got := c.sentences(); !reflect.DeepEqual(got, want) {
		t.Errorf("sentences %q", got)
	}
	// The deltas pass unchanged; each sentence follows the delta that
	// completed it; the last one of a block comes when the session ends
	// the block (its message stops: a tool call of the message does not).
	wantKinds := "message.start text.delta text.delta text.sentence text.delta tool.start tool.end text.sentence block.stop message.stop " +
		"message.start text.delta text.sentence text.sentence block.stop message.stop result"
	if k := c.kinds(); k != wantKinds {
		t.Errorf("order\n got %s\nwant %s", k, wantKinds)
	}
	for _, e := range c.evs {
		if e.Kind == streaming.KindTextSentence && (e.Message == "" || e.Role != streaming.RoleAssistant) {
			t.Errorf("sentence without its block's fields: %+v", e)
		}
	}
	if got := c.text(streaming.KindTextDelta); got != "Dobra, zaraz sprawdzę co mamy na ekranie. Widzę przeglądarkę.Super! Gotowe" {
		t.Errorf("deltas changed: %q", got)
	}
}

func TestSentencesSkipUserAndThinking(t *testing.T) {
	t.Parallel()
	var c collect
	s := NewSentences(&c)
	s.Handle(&streaming.Event{Kind: streaming.KindTextDelta, Message: "u", Role: streaming.RoleUser, Text: "Do it. Now."})
	s.Handle(&streaming.Event{Kind: streaming.KindThinkingDelta, Message: "m", Role: streaming.RoleAssistant, Text: "Hmm. Ok."})
	s.Close()
	if got := c.sentences(); got != nil {
		t.Errorf("sentences of user text or thinking: %q", got)
	}
}

func TestSentencesRevision(t *testing.T) {
	t.Parallel()
	var c collect
	s := NewSentences(&c)
	s.Handle(delta("m", 0, "One. Tw"))
	// An extension goes on where the split stopped.
	s.Handle(&streaming.Event{Kind: streaming.KindTextRevision, Message: "m", Role: streaming.RoleAssistant, Text: "One. Two. Three"})
	// A rewrite starts again.
	s.Handle(&streaming.Event{Kind: streaming.KindTextRevision, Message: "m", Role: streaming.RoleAssistant, Text: "Uno. Dos."})
	s.Close()
	want := []string{"One. ", "Two. ", "Uno. ", "Dos."}
	if got := c.sentences(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSentencesAfterUntil(t *testing.T) {
	t.Parallel()
	var c collect
	sent := NewSentences(&c)
	through(t, NewUntil(sent, "!isfinish"), delta("m", 0, "Zakończyłem zadanie! Wszystko działa poprawnie. !is"),
		delta("m", 0, "finish"), &streaming.Event{Kind: streaming.KindMessageStop, Message: "m"})
	want := []string{"Zakończyłem zadanie! ", "Wszystko działa poprawnie."}
	if got := c.sentences(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
}

// The sentences of every block add up to its text, a block of white space
// only included.
func TestSentencesAddUpWhitespace(t *testing.T) {
	t.Parallel()
	for _, parts := range [][]string{{"\n\n"}, {" "}, {"Hi there. ", "\n"}, {"One.", " Two.  ", "\t"}} {
		var c collect
		s := NewSentences(&c)
		for _, p := range parts {
			if err := s.Handle(delta("m1", 0, p)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		var got, want string
		for _, x := range c.sentences() {
			got += x
		}
		for _, p := range parts {
			want += p
		}
		if got != want {
			t.Errorf("%q: sentences %q add up to %q", parts, c.sentences(), got)
		}
	}
}
