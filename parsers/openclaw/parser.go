package openclaw

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// parser reads OpenClaw documents, one run each. It keeps nothing between
// them but the counter of the ids it gives.
type parser struct {
	out parsers.Out
	ids parsers.IDs
}

// Finish has nothing to close: every document is a whole run.
func (p *parser) Finish(parsers.Emit) error { return nil }

// Parse handles one document.
func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.out.Emit = emit
	doc := gjson.Parse(l.JSON)
	status, gateway := "", false
	if l.Has("runId") || l.Has("status") && l.Has("result") {
		gateway = true
		status = l.Str("status")
		doc = l.Get("result")
	}
	payloads, meta := doc.Get("payloads"), doc.Get("meta")
	if !payloads.IsArray() && !meta.IsObject() {
		return p.out.Unknown("", l.JSON)
	}
	run := p.ids.Next("")
	agentMeta := meta.Get("agentMeta")

	e := p.out.New(streaming.KindSessionStart)
	e.SessionID = agentMeta.Get("sessionId").String()
	e.Model = model(meta)
	e.CWD = meta.Get("systemPromptReport.workspaceDir").String()
	if err := p.out.Push(); err != nil {
		return err
	}
	if prompt := meta.Get("finalPromptText").String(); prompt != "" {
		if err := p.message("prompt"+run, streaming.RoleUser, []string{prompt}); err != nil {
			return err
		}
	}
	if err := p.fallbacks(meta.Get("executionTrace")); err != nil {
		return err
	}

	// The reply: each payload a block of one assistant message; error
	// payloads, meta.error, an abort and a gateway status other than ok
	// are the run's errors.
	var texts, errs []string
	payloads.ForEach(func(_, pl gjson.Result) bool {
		t := payloadText(pl)
		switch {
		case pl.Get("isError").Bool():
			errs = append(errs, strings.TrimSpace(t))
		case strings.TrimSpace(t) != "":
			texts = append(texts, t)
		}
		return true
	})
	if len(texts) == 0 {
		if t := meta.Get("finalAssistantVisibleText").String(); strings.TrimSpace(t) != "" {
			texts = []string{t}
		}
	}
	if m := meta.Get("error"); m.Exists() {
		msg := m.Get("message").String()
		if msg == "" {
			msg = m.String()
		}
		if kind := m.Get("kind").String(); kind != "" {
			msg = kind + ": " + msg
		}
		errs = append(errs, msg)
	}
	if meta.Get("aborted").Bool() && len(errs) == 0 {
		errs = append(errs, "aborted")
	}
	if gateway && status != "ok" {
		if status == "" {
			status = "no status"
		}
		errs = append(errs, "gateway run "+status)
	}
	if err := p.message("reply"+run, streaming.RoleAssistant, texts); err != nil {
		return err
	}
	if sr := meta.Get("stopReason").String(); len(errs) == 0 && sr != "" && sr != "stop" && sr != "end_turn" {
		if err := p.out.Status("the run stopped: "+sr, streaming.LevelWarning); err != nil {
			return err
		}
	}
	for _, msg := range errs {
		f := p.out.New(streaming.KindError)
		f.Text, f.Fatal = msg, true
		if err := p.out.Push(); err != nil {
			return err
		}
	}
	r := p.out.New(streaming.KindResult)
	r.OK = len(errs) == 0
	if !r.OK {
		r.Reason = errs[0]
	}
	r.DurationMS = meta.Get("durationMs").Int()
	if u := agentMeta.Get("usage"); u.IsObject() {
		// The run's total over its model calls; fields that are zero are
		// left out.
		r.Usage = &streaming.Usage{
			InputTokens:      u.Get("input").Int(),
			OutputTokens:     u.Get("output").Int(),
			CacheReadTokens:  u.Get("cacheRead").Int(),
			CacheWriteTokens: u.Get("cacheWrite").Int(),
		}
	}
	return p.out.Push()
}

// model names the model that answered: the winner of a fallback chain,
// else agentMeta's, with its provider.
func model(meta gjson.Result) string {
	prov, m := meta.Get("agentMeta.provider").String(), meta.Get("agentMeta.model").String()
	if tr := meta.Get("executionTrace"); tr.Get("fallbackUsed").Bool() && tr.Get("winnerModel").String() != "" {
		prov, m = tr.Get("winnerProvider").String(), tr.Get("winnerModel").String()
	}
	if prov == "" || strings.HasPrefix(m, prov+"/") {
		return m
	}
	if m == "" {
		return prov
	}
	return prov + "/" + m
}

// fallbacks are the model attempts that failed before one answered.
func (p *parser) fallbacks(trace gjson.Result) error {
	var err error
	trace.Get("attempts").ForEach(func(_, a gjson.Result) bool {
		res := a.Get("result").String()
		if res == "" || res == "success" {
			return true
		}
		text := fmt.Sprintf("%s/%s: %s", a.Get("provider").String(), a.Get("model").String(), res)
		if r := a.Get("reason").String(); r != "" {
			text += " (" + r + ")"
		} else if r := a.Get("error").String(); r != "" {
			text += " (" + r + ")"
		}
		err = p.out.Status(text, streaming.LevelWarning)
		return err == nil
	})
	return err
}

// payloadText is a payload as OpenClaw shows it: its text, then a
// MEDIA:<url> line per attachment (inline data summarised), each a
// paragraph.
func payloadText(pl gjson.Result) string {
	t := pl.Get("text").String()
	urls := pl.Get("mediaUrls").Array()
	if len(urls) == 0 && pl.Get("mediaUrl").Type == gjson.String {
		urls = []gjson.Result{pl.Get("mediaUrl")}
	}
	for _, u := range urls {
		url := u.String()
		if mime, data, ok := strings.Cut(strings.TrimPrefix(url, "data:"), ";base64,"); ok && strings.HasPrefix(url, "data:") {
			url = parsers.ImageSummary(mime, len(data))
		}
		if t != "" {
			t += "\n\n" // a paragraph of its own: markdown would join a line to the text
		}
		t += "MEDIA:" + url
	}
	return t
}

// message sends a whole message, each text a block of it.
func (p *parser) message(id, role string, texts []string) error {
	if len(texts) == 0 {
		return nil
	}
	return p.out.Blocks(parsers.Msg{ID: id, Role: role}, texts...)
}
