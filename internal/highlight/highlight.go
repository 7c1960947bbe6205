// Package highlight tokenises code for the renderers that colour it (the
// terminal's markdown and the HTML page) with chroma's own lexers, looked
// up by the name a code fence gives ("go", "Python", "sh", "rs"). A lexer
// that fails or panics (chroma's can, on text they were not written for)
// gives no tokens, and the caller shows the code without colour: a code
// block in an agent's answer never stops agentfmt.
//
// chroma's lexers package registers its ~280 lexers when the program
// starts, whether or not a run shows code; docs/performance.md has what
// that costs.
package highlight

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Tokens tokenises text as the language lang (a name, alias or file
// extension); ok is false for an unknown language or a lexer that fails.
func Tokens(lang, text string) (toks []chroma.Token, ok bool) {
	lang = strings.TrimSpace(lang)
	if lang == "" {
		return nil, false
	}
	l := lexers.Get(lang)
	if l == nil {
		return nil, false
	}
	return tokens(l, text)
}

// tokens tokenises text with l, whole, turning a panic into ok false.
func tokens(l chroma.Lexer, text string) (toks []chroma.Token, ok bool) {
	defer func() {
		if recover() != nil {
			toks, ok = nil, false
		}
	}()
	it, err := chroma.Coalesce(l).Tokenise(nil, text)
	if err != nil {
		return nil, false
	}
	return it.Tokens(), true
}
