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
	var c collect
	s := NewSentences(&c)
	evs := []*streaming.Event{
		{Kind: streaming.KindMessageStart, Message: "m1", Role: streaming.RoleAssistant},
		delta("m1", 0, "Dobra, zaraz sprawdzę"),
		delta("m1", 0, " co mamy na ekranie. Wi"),
		delta("m1", 0, "dzę przeglądarkę."),
		{Kind: streaming.KindToolStart, ID: "t1", Name: "screenshot"},
		{Kind: streaming.KindToolEnd, ID: "t1", Name: "screenshot"},
		{Kind: streaming.KindMessageStop, Message: "m1", Role: streaming.RoleAssistant},
		{Kind: streaming.KindMessageStart, Message: "m2", Role: streaming.RoleAssistant},
		delta("m2", 0, "Super! Gotowe"),
		{Kind: streaming.KindResult, OK: true},
	}
	for _, ev := range evs {
		if err := s.Handle(ev); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"Dobra, zaraz sprawdzę co mamy na ekranie. ", "Widzę przeglądarkę.", "Super! ", "Gotowe"}
	if got := c.sentences(); !reflect.DeepEqual(got, want) {
		t.Errorf("sentences %q", got)
	}
	// The deltas pass unchanged; each sentence follows the delta that
	// completed it; the last one of a block comes before the tool call.
	wantKinds := "message.start text.delta text.delta text.sentence text.delta text.sentence tool.start tool.end message.stop " +
		"message.start text.delta text.sentence text.sentence result"
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
	var c collect
	chain := NewUntil(NewSentences(&c), "!isfinish")
	chain.Handle(delta("m", 0, "Zakończyłem zadanie! Wszystko działa poprawnie. !is"))
	chain.Handle(delta("m", 0, "finish"))
	chain.Handle(&streaming.Event{Kind: streaming.KindMessageStop, Message: "m"})
	want := []string{"Zakończyłem zadanie! ", "Wszystko działa poprawnie."}
	if got := c.sentences(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
}

// The sentences of every block add up to its text, a block of white space
// only included.
func TestSentencesAddUpWhitespace(t *testing.T) {
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
