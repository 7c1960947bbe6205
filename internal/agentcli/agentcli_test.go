package agentcli

import (
	"strings"
	"testing"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

// What argument parsers say about a flag they do not take.
func TestRejectedMessages(t *testing.T) {
	t.Parallel()
	spec := func(name string) *Spec { s, _ := Lookup(name); return s }
	for _, c := range []struct {
		agent, stderr string
		added         []string
		want          string
	}{
		{"claude", "error: unknown option '--include-partial-messages'", claudeAdded, "--include-partial-messages"},
		{"codex", "error: unexpected argument '--json' found\n\nUsage: codex exec [OPTIONS] [PROMPT]", []string{"--json"}, "--json"},
		{"agy", "flag provided but not defined: -output-format\nUsage of agy:", []string{"--output-format", "stream-json"}, "--output-format"},
		{"gemini", "Unknown argument: output-format", []string{"--output-format", "stream-json"}, "--output-format"},
		{"copilot", "error: option '--output-format <format>' argument 'json' is invalid. Allowed choices are text.", []string{"--output-format", "json"}, "--output-format"},
		{"cursor-agent", "error: unknown option '--stream-partial-output'", []string{"-p", "--output-format", "stream-json", "--stream-partial-output"}, "--stream-partial-output"},
		// Failures that are not about the flags.
		{"claude", "Error: Invalid API key · Please run /login", claudeAdded, ""},
		{"codex", "error: unexpected argument 'foo' found", []string{"--json"}, ""},
		{"gemini", "Please set an Auth method in your settings.json", []string{"--output-format", "stream-json"}, ""},
	} {
		got := strings.Join(spec(c.agent).Rejected(c.added, c.stderr), " ")
		if got != c.want {
			t.Errorf("%s %q: rejected %q, want %q", c.agent, c.stderr, got, c.want)
		}
	}
}

var claudeAdded = []string{"--output-format", "stream-json", "--verbose", "--include-partial-messages"}

// Goose and Kimi have no capture to run: the flags each is given.
func TestPrepareGooseKimi(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ args, want []string }{
		{[]string{"goose", "-t", "hi"}, []string{"run", "--output-format", "stream-json", "-t", "hi"}},
		{[]string{"goose", "run", "--output-format", "json", "-t", "hi"}, []string{"run", "--output-format", "json", "-t", "hi"}},
		{[]string{"kimi", "-p", "hi"}, []string{"--print", "--output-format", "stream-json", "-p", "hi"}},
		{[]string{"kimi", "--print", "--output-format=stream-json", "-p", "hi"}, []string{"--print", "--output-format=stream-json", "-p", "hi"}},
	} {
		spec, _ := Lookup(c.args[0])
		if got, _ := spec.Prepare(c.args[1:]); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%q: got %q, want %q", c.args, got, c.want)
		}
	}
}
