// Package lexers gives chroma lexers for the languages agents write code
// in, built when first asked for. chroma's own lexers package builds all
// of its ~280 lexers when the program starts (8 ms, 2.7 MB and 6 MB of
// resident memory for every run of agentfmt, even one that shows no
// code); this one holds a copy of the definitions of the common ones
// (embedded/, from chroma, under its licence in embedded/COPYING) and
// builds each on first use. `go test ./internal/lexers -update` copies
// them again from the chroma module in go.mod and remakes the name table
// (aliases.go); the tests fail when the copy and chroma differ.
package lexers

import (
	"embed"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed embedded/*.xml
var embedded embed.FS

var (
	mu    sync.Mutex
	reg   = chroma.NewLexerRegistry()
	built = map[string]chroma.Lexer{} // by file ("go" for the Go lexer)
)

// usingRE finds the lexers a definition hands parts of its text to
// (`<using lexer="Bash"/>`): they must be in the same registry.
var usingRE = regexp.MustCompile(`<using lexer="([^"]+)"`)

// Get returns the lexer for a language name, alias or file extension as a
// code fence gives it ("go", "Python", "sh", "rs"), or nil for a language
// not held here.
func Get(name string) chroma.Lexer {
	file := fileOf(name)
	if file == "" {
		return nil
	}
	mu.Lock()
	defer mu.Unlock()
	return build(file)
}

// fileOf is the definition a name stands for ("" when none): names and
// aliases first, then file extensions.
func fileOf(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if f, ok := names[n]; ok {
		return f
	}
	n = strings.TrimPrefix(n[strings.LastIndexByte(n, '.')+1:], "*")
	return extensions[n]
}

// build makes the lexer of a file once, with the lexers it uses. mu is
// held.
func build(file string) chroma.Lexer {
	if l, ok := built[file]; ok {
		return l
	}
	var l chroma.Lexer
	if file == goFile {
		l = reg.Register(newGo(build(goTemplateFile)))
	} else {
		path := "embedded/" + file + ".xml"
		x, err := chroma.NewXMLLexer(embedded, path)
		if err != nil {
			built[file] = nil // (the tests build every file)
			return nil
		}
		l = reg.Register(x)
		src, _ := embedded.ReadFile(path)
		built[file] = l // before its dependencies: a cycle ends here
		for _, m := range usingRE.FindAllSubmatch(src, -1) {
			if f := fileOf(string(m[1])); f != "" {
				build(f)
			}
		}
	}
	built[file] = l
	return l
}

// Tokens tokenises text with l, whole. A lexer that fails or panics
// (chroma's can, on text they were not written for) gives an error, and
// the caller shows the text without highlighting: a code block in an
// agent's answer never stops agentfmt.
func Tokens(l chroma.Lexer, text string) (toks []chroma.Token, err error) {
	defer func() {
		if r := recover(); r != nil {
			toks, err = nil, fmt.Errorf("highlighting %s: %v", l.Config().Name, r)
		}
	}()
	it, err := chroma.Coalesce(l).Tokenise(nil, text)
	if err != nil {
		return nil, err
	}
	return it.Tokens(), nil
}
