package conformance

import "strings"

func init() { Register("gemini-json", geminiJSONExpect) }

// geminiJSONExpect reads `gemini -p … --output-format json`
// (docs/formats/gemini-json.md): one pretty-printed document, possibly
// with the program's stderr glued after its closing brace. Its response
// is the one answer text; the run failed (1) when the document has an
// error, succeeded (0) otherwise; a file with no document is a run that
// never ended (3).
func geminiJSONExpect(data []byte, _ string) Expect {
	docs := documents(data)
	if len(docs) == 0 {
		return Expect{Exit: 3}
	}
	doc := docs[0]
	var e Expect
	if resp := doc.Get("response").String(); strings.TrimSpace(resp) != "" {
		e.Texts = []string{resp}
	}
	if doc.Get("error").Exists() {
		e.Exit = 1
		return e
	}
	e.Answer = strings.TrimRight(doc.Get("response").String(), "\n")
	return e
}
