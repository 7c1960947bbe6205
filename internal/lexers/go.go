package lexers

// The Go lexer, which chroma writes in Go rather than in XML: a copy of
// chroma's lexers/go.go (v2.27.0, under the licence in embedded/COPYING),
// built on first use, with the Go text template lexer it hands raw
// strings to given as an argument.

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
)

const (
	goFile         = "go"
	goTemplateFile = "go_template"
)

// r is a rule that moves to no other state.
func r(pattern string, typ chroma.Emitter) chroma.Rule {
	return chroma.Rule{Pattern: pattern, Type: typ}
}

// newGo makes the Go lexer; template is the Go text template lexer.
func newGo(template chroma.Lexer) chroma.Lexer {
	return chroma.MustNewLexer(
		&chroma.Config{
			Name:      "Go",
			Aliases:   []string{"go", "golang"},
			Filenames: []string{"*.go"},
			MimeTypes: []string{"text/x-gosrc"},
		},
		goRules(template),
	).SetAnalyser(func(text string) float32 {
		if strings.Contains(text, "fmt.") && strings.Contains(text, "package ") {
			return 0.5
		}
		if strings.Contains(text, "package ") {
			return 0.1
		}
		return 0.0
	})
}

func goRules(template chroma.Lexer) func() chroma.Rules {
	return func() chroma.Rules {
		return chroma.Rules{
			"root": {
				r(`\n`, chroma.TextWhitespace),
				r(`\s+`, chroma.TextWhitespace),
				r(`//[^\s\n\r][^\n\r]*`, chroma.CommentPreproc),
				r(`//[^\n\r]*`, chroma.CommentSingle),
				r(`/(\\\n)?[*](.|\n)*?[*](\\\n)?/`, chroma.CommentMultiline),
				r(`(import|package)\b`, chroma.KeywordNamespace),
				r(`(var|func|struct|map|chan|type|interface|const)\b`, chroma.KeywordDeclaration),
				r(chroma.Words(``, `\b`, `break`, `default`, `select`, `case`, `defer`, `go`, `else`, `goto`, `switch`, `fallthrough`, `if`, `range`, `continue`, `for`, `return`), chroma.Keyword),
				r(`(true|false|iota|nil)\b`, chroma.KeywordConstant),
				r(chroma.Words(``, `\b(\()`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `print`, `println`, `panic`, `recover`, `close`, `complex`, `real`, `imag`, `len`, `cap`, `append`, `copy`, `delete`, `new`, `make`, `clear`, `min`, `max`), chroma.ByGroups(chroma.NameBuiltin, chroma.Punctuation)),
				r(chroma.Words(``, `\b`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `any`), chroma.KeywordType),
				r(`\d+i`, chroma.LiteralNumber),
				r(`\d+\.\d*([Ee][-+]\d+)?i`, chroma.LiteralNumber),
				r(`\.\d+([Ee][-+]\d+)?i`, chroma.LiteralNumber),
				r(`\d+[Ee][-+]\d+i`, chroma.LiteralNumber),
				r(`\d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)`, chroma.LiteralNumberFloat),
				r(`\.\d+([eE][+\-]?\d+)?`, chroma.LiteralNumberFloat),
				r(`0[0-7]+`, chroma.LiteralNumberOct),
				r(`0[xX][0-9a-fA-F_]+`, chroma.LiteralNumberHex),
				r(`0b[01_]+`, chroma.LiteralNumberBin),
				r(`(0|[1-9][0-9_]*)`, chroma.LiteralNumberInteger),
				r(`'(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'`, chroma.LiteralStringChar),
				r("(`)([^`]*)(`)", chroma.ByGroups(chroma.LiteralString, chroma.UsingLexer(chroma.TypeRemappingLexer(template, chroma.TypeMapping{{chroma.Other, chroma.LiteralString, nil}})), chroma.LiteralString)),
				r(`"(\\\\|\\"|[^"])*"`, chroma.LiteralString),
				r(`(<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&])`, chroma.Operator),
				r(`([a-zA-Z_]\w*)(\s*)(\()`, chroma.ByGroups(chroma.NameFunction, chroma.UsingSelf("root"), chroma.Punctuation)),
				r(`[|^<>=!()\[\]{}.,;:~]`, chroma.Punctuation),
				r(`[^\W\d]\w*`, chroma.NameOther),
			},
		}
	}
}
