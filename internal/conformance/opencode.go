package conformance

import (
	"strings"
)

func init() { Register("opencode", opencodeExpect) }

// opencodeExpect reads an `opencode run --format json` capture (also
// `kilo run --format json`): every text part is an answer text, shown
// once however often its part id is written. The exit of the last run
// (one sessionID) is 1 when it has an error line; else 0 when it ended:
// a done line, or a last step_finish whose reason is neither
// "tool-calls" nor "unknown" (a missing reason ends the run when the step
// ran no tool); else 3. The answer is the last text part of a run that
// exits 0.
func opencodeExpect(data []byte, name string) Expect {
	var (
		texts     []string
		seen      = map[string]bool{}
		session   string
		failed    bool
		ended     bool
		stepTools bool
		last      string
	)
	for _, v := range objects(data) {
		if id := v.Get("sessionID").String(); id != "" && id != session {
			session = id
			failed, ended, stepTools, last = false, false, false, ""
		}
		part := v.Get("part")
		switch v.Get("type").String() {
		case "step_start":
			stepTools, ended = false, false
		case "text":
			text := part.Get("text").String()
			id := part.Get("id").String()
			if strings.TrimSpace(text) == "" || (id != "" && seen[id]) {
				continue
			}
			seen[id] = true
			texts = append(texts, text)
			last = text
		case "tool_use":
			stepTools = true
		case "step_finish":
			if r := part.Get("reason"); r.Exists() {
				ended = r.String() != "tool-calls" && r.String() != "unknown"
			} else {
				ended = !stepTools
			}
		case "error":
			failed = true
		case "done":
			ended = true
		}
	}
	e := Expect{Texts: onceEach(texts), Exit: 3}
	switch {
	case failed:
		e.Exit = 1
	case ended:
		e.Exit = 0
		e.Answer = strings.TrimRight(last, "\n")
	}
	return e
}
