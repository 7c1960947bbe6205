package filter

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// sentencesOf splits a whole block.
func sentencesOf(text string) []string {
	sp := newSplitter()
	out := sp.add(text, nil)
	return sp.end(out)
}

// sentencesStreamed splits text fed in the given pieces.
func sentencesStreamed(pieces []string) []string {
	sp := newSplitter()
	var out []string
	for _, p := range pieces {
		out = sp.add(p, out)
	}
	return sp.end(out)
}

var sentenceCases = []struct {
	name string
	in   string
	want []string
}{
	{"one", "Hello.", []string{"Hello."}},
	{"no mark", "Hello world", []string{"Hello world"}},
	{"two", "Hello. World.", []string{"Hello. ", "World."}},
	{"three marks", "Really? Yes! Fine.", []string{"Really? ", "Yes! ", "Fine."}},
	{"whitespace goes with the sentence before", "One.  \n\nTwo.\n", []string{"One.  \n\n", "Two.\n"}},
	{"leading whitespace stays with the first", "  One. Two", []string{"  One. ", "Two"}},
	{"only whitespace", " \n ", nil},
	{"empty", "", nil},
	{"decimal", "Pi is 3.14 today. Yes.", []string{"Pi is 3.14 today. ", "Yes."}},
	{"number at the end", "The answer is 3.14. Next.", []string{"The answer is 3.14. ", "Next."}},
	{"file name", "Edit main.go now. Done.", []string{"Edit main.go now. ", "Done."}},
	{"version", "Upgrade to v1.2.3 first.", []string{"Upgrade to v1.2.3 first."}},
	{"url", "See https://example.com/a.b?c=1. Then go.", []string{"See https://example.com/a.b?c=1. ", "Then go."}},
	{"question in a url is not an end", "Open https://x.io/?q=1 now.", []string{"Open https://x.io/?q=1 now."}},
	{"ellipsis dots", "Wait... what? Ok.", []string{"Wait... ", "what? ", "Ok."}},
	{"ellipsis char", "Hmm… let me think. Fine.", []string{"Hmm… ", "let me think. ", "Fine."}},
	{"ellipsis inside a word", "and so on...and on.", []string{"and so on...and on."}},
	{"interrobang run", "What?! No way!!! Ok.", []string{"What?! ", "No way!!! ", "Ok."}},
	{"closing double quote", `He said "Stop." Then he left.`, []string{`He said "Stop." `, "Then he left."}},
	{"closing curly quote", "She wrote “Done!” and left. Bye.", []string{"She wrote “Done!” ", "and left. ", "Bye."}},
	{"closing single quote", "It's 'over.' Really.", []string{"It's 'over.' ", "Really."}},
	{"guillemets", "Il a dit «Fini.» Puis il est parti.", []string{"Il a dit «Fini.» ", "Puis il est parti."}},
	{"closing bracket", "(This is a note.) Next.", []string{"(This is a note.) ", "Next."}},
	{"markdown bold", "**Done.** Next step.", []string{"**Done.** ", "Next step."}},
	{"mark then letter", "Hello!world and more.", []string{"Hello!world and more."}},
	{"e.g.", "Use a tool, e.g. grep. Then stop.", []string{"Use a tool, e.g. grep. ", "Then stop."}},
	{"i.e. in brackets", "One way (i.e. this one) works. Ok.", []string{"One way (i.e. this one) works. ", "Ok."}},
	{"Dr.", "Ask Dr. Smith. He knows.", []string{"Ask Dr. Smith. ", "He knows."}},
	{"Mr. and Mrs.", "Mr. and Mrs. Jones came. Fine.", []string{"Mr. and Mrs. Jones came. ", "Fine."}},
	{"vs.", "Go vs. Rust is old. Yes.", []string{"Go vs. Rust is old. ", "Yes."}},
	{"initials", "J. R. R. Tolkien wrote it. Yes.", []string{"J. R. R. Tolkien wrote it. ", "Yes."}},
	{"pronoun I ends a sentence", "Nobody but I. Then we left.", []string{"Nobody but I. ", "Then we left."}},
	{"acronym", "Made in the U.S. and sold. Ok.", []string{"Made in the U.S. and sold. ", "Ok."}},
	{"list numbers", "Steps:\n1. Build it.\n2. Test it.\n", []string{"Steps:\n1. Build it.\n", "2. Test it.\n"}},
	{"indented list number", "Plan:\n  10. Ship.", []string{"Plan:\n  10. Ship."}},
	{"year is not a list number", "It shipped in 2024. Then more.", []string{"It shipped in 2024. ", "Then more."}},
	{"code fence", "Run this:\n```\nmake. all\necho done. ok\n```\nThen check. Ok.",
		[]string{"Run this:\n```\nmake. all\necho done. ok\n```\nThen check. ", "Ok."}},
	{"tilde fence with info", "Code:\n~~~go\nx := 1. \n~~~\nDone. Yes.",
		[]string{"Code:\n~~~go\nx := 1. \n~~~\nDone. ", "Yes."}},
	{"sentence before a fence", "Look.\n```\na. b\n```", []string{"Look.\n", "```\na. b\n```"}},
	{"unclosed fence", "Code:\n```\na. b. c", []string{"Code:\n```\na. b. c"}},
	{"polish", "Dobra, zaraz sprawdzę co mamy na ekranie. Widzę przeglądarkę. Teraz kliknę w pasek adresu.",
		[]string{"Dobra, zaraz sprawdzę co mamy na ekranie. ", "Widzę przeglądarkę. ", "Teraz kliknę w pasek adresu."}},
	{"polish quotes and abbreviation", "Napisz np. „test”. Zakończyłem zadanie! Wszystko działa poprawnie.",
		[]string{"Napisz np. „test”. ", "Zakończyłem zadanie! ", "Wszystko działa poprawnie."}},
	{"polish closing quote after mark", "Powiedział „Gotowe.” Potem wyszedł.", []string{"Powiedział „Gotowe.” ", "Potem wyszedł."}},
	{"chinese", "你好。我是助手！你需要什么？好的。", []string{"你好。", "我是助手！", "你需要什么？", "好的。"}},
	{"japanese with closing bracket", "「終わりました。」次に進みます。", []string{"「終わりました。」", "次に進みます。"}},
	{"cjk then space", "完成。 Next.", []string{"完成。 ", "Next."}},
	{"hindi danda", "यह ठीक है। अगला।", []string{"यह ठीक है। ", "अगला।"}},
	{"arabic question", "هل انتهيت؟ نعم.", []string{"هل انتهيت؟ ", "نعم."}},
	{"greek question mark", "Τι κάνεις\u037e Καλά.", []string{"Τι κάνεις\u037e ", "Καλά."}},
	{"semicolon is no end", "One; two. Three.", []string{"One; two. ", "Three."}},
	{"newline after mark", "First.\nSecond.", []string{"First.\n", "Second."}},
	{"emoji", "Done. 🎉 Great!", []string{"Done. ", "🎉 Great!"}},
}

func TestSentenceSplitting(t *testing.T) {
	t.Parallel()
	for _, c := range sentenceCases {
		t.Run(c.name, func(t *testing.T) {
			got := sentencesOf(c.in)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("split(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
			if strings.TrimSpace(c.in) != "" && strings.Join(got, "") != c.in {
				t.Errorf("sentences do not concatenate to the text: %q", got)
			}
		})
	}
}

// Streaming in any pieces, even splitting runes, gives the same sentences.
func TestSentenceSplittingStreamed(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	for _, c := range sentenceCases {
		want := sentencesOf(c.in)
		for trial := 0; trial < 40; trial++ {
			pieces := randomPieces(rng, c.in, trial%3 == 0)
			got := sentencesStreamed(pieces)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: pieces %q\n got %q\nwant %q", c.name, pieces, got, want)
			}
		}
	}
}

// A sentence is given out as soon as the next one begins, not at the end.
func TestSentenceComesWhenTheNextBegins(t *testing.T) {
	t.Parallel()
	sp := newSplitter()
	if out := sp.add("Hello.", nil); len(out) != 0 {
		t.Fatalf("a sentence before its end is known: %q", out)
	}
	if out := sp.add(" ", nil); len(out) != 0 {
		t.Fatalf("a sentence before the next begins: %q", out)
	}
	if out := sp.add("How", nil); !reflect.DeepEqual(out, []string{"Hello. "}) {
		t.Fatalf("got %q", out)
	}
	if out := sp.add(" are you? Fine", nil); !reflect.DeepEqual(out, []string{"How are you? "}) {
		t.Fatalf("got %q", out)
	}
	if out := sp.end(nil); !reflect.DeepEqual(out, []string{"Fine"}) {
		t.Fatalf("got %q", out)
	}
}

// randomPieces cuts s at random byte offsets (splitting UTF-8 sequences
// when bytes is set, else only at rune starts).
func randomPieces(rng *rand.Rand, s string, bytes bool) []string {
	var pieces []string
	for len(s) > 0 {
		n := 1 + rng.Intn(6)
		if n > len(s) {
			n = len(s)
		}
		if !bytes {
			for n < len(s) && s[n]&0xC0 == 0x80 {
				n++
			}
		}
		pieces = append(pieces, s[:n])
		s = s[n:]
	}
	return pieces
}

func FuzzSentences(f *testing.F) {
	for _, c := range sentenceCases {
		f.Add(c.in, 3)
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		whole := sentencesOf(s)
		if strings.TrimSpace(s) != "" && strings.Join(whole, "") != s {
			t.Fatalf("concatenation %q != %q", strings.Join(whole, ""), s)
		}
		if cut <= 0 {
			cut = 1
		}
		var pieces []string
		for r := s; len(r) > 0; {
			n := min(cut%7+1, len(r))
			pieces = append(pieces, r[:n])
			r = r[n:]
		}
		if got := sentencesStreamed(pieces); !reflect.DeepEqual(got, whole) {
			t.Fatalf("streamed %q != whole %q", got, whole)
		}
	})
}
