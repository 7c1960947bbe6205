package conformance

import (
	"strings"

	"github.com/tidwall/gjson"
)

func init() { Register("openclaw", openclawExpect) }

// openclawExpect reads `openclaw agent --json` (docs/formats/openclaw.md): a
// document per run, {payloads, meta} (embedded) or the gateway's {runId,
// status, result:{payloads, meta}}, maybe after log lines; a log may hold
// several, one per line (the exit status and answer are the last's).
// A payload's text is followed by a "MEDIA:<url>" paragraph per
// attachment. Each payload's text
// is an answer text; with no
// payload, meta.finalAssistantVisibleText is. The run failed (1) when the
// gateway's status is not "ok", meta.aborted is true, meta.error is there
// or a payload is an error; else it succeeded (0), its answer the
// payload texts joined by blank lines. No document: 3.
func openclawExpect(data []byte, _ string) Expect {
	docs := documents(data)
	if len(docs) == 0 {
		return Expect{Exit: 3}
	}
	var e Expect
	for _, doc := range docs {
		texts, failed := openclawRun(doc)
		e.Texts = append(e.Texts, texts...)
		e.Exit, e.Answer = 0, strings.Join(texts, "\n\n")
		if failed {
			e.Exit, e.Answer = 1, ""
		}
	}
	return e
}

// openclawRun reads one document: its answer texts and whether it failed.
func openclawRun(doc gjson.Result) (texts []string, failed bool) {
	if doc.Get("runId").Exists() || doc.Get("status").Exists() {
		failed = doc.Get("status").String() != "ok"
		doc = doc.Get("result")
	}
	meta := doc.Get("meta")
	failed = failed || meta.Get("aborted").Bool() || meta.Get("error").Exists()
	doc.Get("payloads").ForEach(func(_, p gjson.Result) bool {
		if p.Get("isError").Bool() {
			failed = true
			return true
		}
		t := p.Get("text").String()
		urls := p.Get("mediaUrls").Array()
		if len(urls) == 0 && p.Get("mediaUrl").Type == gjson.String {
			urls = []gjson.Result{p.Get("mediaUrl")}
		}
		for _, u := range urls {
			if t != "" {
				t += "\n\n"
			}
			t += "MEDIA:" + u.String()
		}
		if strings.TrimSpace(t) != "" {
			texts = append(texts, t)
		}
		return true
	})
	if len(texts) == 0 {
		if t := meta.Get("finalAssistantVisibleText").String(); strings.TrimSpace(t) != "" {
			texts = []string{t}
		}
	}
	return texts, failed
}
