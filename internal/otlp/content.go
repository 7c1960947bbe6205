package otlp

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
)

// clean is s as a span may hold it: a copy (an event's strings are valid
// only during Handle) in valid UTF-8 (OTLP's strings are protobuf
// strings: one invalid byte would lose the whole batch).
func clean(s string) string {
	if utf8.ValidString(s) {
		return strings.Clone(s)
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// cut is clean(s) cut to the content bound, at a character boundary,
// saying how much was left out.
func (t *Trace) cut(s string) string {
	if len(s) <= t.opts.MaxContent {
		return clean(s)
	}
	n := t.opts.MaxContent
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return clean(s[:n]) + "… [" + strconv.Itoa(len(s)-n) + " bytes cut]"
}

// content appends s, cut, as the attribute key when it is not empty.
func (t *Trace) content(attrs []attribute.KeyValue, key, s string) []attribute.KeyValue {
	if s == "" {
		return attrs
	}
	return append(attrs, attribute.String(key, t.cut(s)))
}

// messages is the GenAI conventions' message list of one message with one
// text part, as JSON.
func messages(role, text string) string {
	type part struct {
		Type    string `json:"type"`
		Content string `json:"content"`
	}
	type message struct {
		Role  string `json:"role"`
		Parts []part `json:"parts"`
	}
	b, _ := json.Marshal([]message{{Role: role, Parts: []part{{Type: "text", Content: text}}}})
	return string(b)
}

// bounded gathers text up to max bytes, then counts what it leaves out.
type bounded struct {
	max  int
	b    strings.Builder
	left int
}

func (b *bounded) add(s string) {
	room := b.max - b.b.Len()
	if len(s) > room {
		n := max(room, 0)
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		b.left += len(s) - n
		s = s[:n]
	}
	b.b.WriteString(s)
}

func (b *bounded) Len() int { return b.b.Len() }

func (b *bounded) String() string {
	s := strings.ToValidUTF8(b.b.String(), "\uFFFD")
	if b.left > 0 {
		s += "… [" + strconv.Itoa(b.left) + " bytes cut]"
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }

// containsFold reports whether s holds word (ASCII, lower case) in any
// case, without a lower-case copy of s.
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(word)], word) {
			return true
		}
	}
	return false
}

// provider is the gen_ai.provider.name of a run: the model's maker, as
// the model's name or the agent says it ("" when neither does).
func provider(agent, model string) string {
	m := strings.ToLower(model)
	if i := strings.IndexByte(m, '/'); i > 0 {
		// OpenCode's provider/model
		if p, ok := providers[m[:i]]; ok {
			return p
		}
		m = m[i+1:]
	}
	for _, f := range families {
		if strings.HasPrefix(m, f.prefix) {
			return f.provider
		}
	}
	return agentProviders[agent]
}

// providers are the provider ids of OpenCode's model names, as the
// conventions name them.
var providers = map[string]string{
	"anthropic": "anthropic", "openai": "openai", "google": "gcp.gemini", "xai": "x_ai",
	"deepseek": "deepseek", "mistral": "mistral_ai", "groq": "groq", "amazon-bedrock": "aws.bedrock",
	"azure": "azure.ai.openai", "perplexity": "perplexity", "cohere": "cohere",
}

// families are the model name prefixes of each provider.
var families = []struct{ prefix, provider string }{
	{"claude", "anthropic"}, {"gpt", "openai"}, {"o1", "openai"}, {"o3", "openai"}, {"o4", "openai"},
	{"codex", "openai"}, {"gemini", "gcp.gemini"}, {"auto-gemini", "gcp.gemini"}, {"grok", "x_ai"},
	{"deepseek", "deepseek"}, {"mistral", "mistral_ai"}, {"devstral", "mistral_ai"}, {"codestral", "mistral_ai"},
}

// agentProviders are the providers of the agents that use one maker's
// models only.
var agentProviders = map[string]string{"claude": "anthropic", "codex": "openai", "gemini": "gcp.gemini"}
