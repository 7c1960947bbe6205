package highlight

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

// TestNames: the names code fences give find chroma's lexers; unknown
// ones find none.
func TestNames(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]chroma.TokenType{
		"go": chroma.KeywordNamespace, "Golang": chroma.KeywordNamespace, " go ": chroma.KeywordNamespace,
		"py": chroma.KeywordNamespace, "python3": chroma.KeywordNamespace, "rs": chroma.Keyword,
		"sh": chroma.NameBuiltin,
	} {
		src := map[string]string{"py": "import os\n", "python3": "import os\n", "rs": "fn main() {}\n", "sh": "echo hi\n"}[strings.TrimSpace(in)]
		if src == "" {
			src = "package main\n"
		}
		toks, ok := Tokens(in, src)
		if !ok || len(toks) == 0 || toks[0].Type != want {
			t.Errorf("Tokens(%q, %q) = %v, %v; want a first token of type %s", in, src, toks, ok, want)
		}
	}
	for _, in := range []string{"", " ", "klingon", ".", "*"} {
		if toks, ok := Tokens(in, "x\n"); ok {
			t.Errorf("Tokens(%q) = %v, want none", in, toks)
		}
	}
}

// TestUsing: a lexer that hands text to another (HTML's scripts and
// styles, a Dockerfile's RUN lines, a shell session's commands, a
// makefile's recipes) gives the text back whole.
func TestUsing(t *testing.T) {
	t.Parallel()
	for lang, src := range map[string]string{
		"html":       "<style>p { color: red }</style><script>let x = 1;</script>\n",
		"dockerfile": "FROM alpine\nRUN echo hi && ls\n",
		"console":    "$ ls -la\ntotal 0\n",
		"makefile":   "all:\n\techo hi\n",
	} {
		toks, ok := Tokens(lang, src)
		if !ok {
			t.Fatalf("%s: no tokens", lang)
		}
		var b strings.Builder
		for _, tok := range toks {
			b.WriteString(tok.Value)
		}
		if b.String() != src {
			t.Errorf("%s gives back %q", lang, b.String())
		}
	}
}

// TestRecovers: a lexer that panics gives no tokens, not a crash.
func TestRecovers(t *testing.T) {
	t.Parallel()
	bad := chroma.MustNewLexer(&chroma.Config{Name: "bad"}, func() chroma.Rules {
		return chroma.Rules{"root": {{Pattern: `.+`, Type: chroma.Using("nowhere")}}}
	})
	if toks, ok := tokens(bad, "x\n"); ok {
		t.Fatalf("tokens gave %v and ok", toks)
	}
}
