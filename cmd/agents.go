package cmd

import (
	"path/filepath"
	"strings"
)

// agentSpec is what 'agentfmt run' knows of one agent's command line: the
// flags that make it print the JSON stream agentfmt reads, where they go,
// and since when the agent takes them (docs/formats/<agent>.md).
type agentSpec struct {
	names []string // command names that select it (the first is its usual one)
	title string
	// sub is a subcommand the JSON output needs (codex exec, opencode run),
	// with the spellings that mean it is already there.
	sub []string
	// print is the boolean print-mode flag added when absent (claude -p,
	// cursor-agent -p), with its other spelling.
	print []string
	flags []flagAdd
	// atEnd: the flags go after the user's arguments (amp: the prompt
	// must follow --execute), not right after the command or subcommand.
	atEnd bool
	// since says which version first takes the flags, for the message
	// when the agent rejects one.
	since string
}

// flagAdd is one flag to add: the spellings that mean it is already there
// (then it is left as the user wrote it), and what to add.
type flagAdd struct {
	spellings []string
	add       []string
}

var claudeFlags = []flagAdd{
	{[]string{"--output-format"}, []string{"--output-format", "stream-json"}},
	{[]string{"--verbose"}, []string{"--verbose"}},
	{[]string{"--include-partial-messages"}, []string{"--include-partial-messages"}},
}

// agentSpecs are the agents 'agentfmt run' knows. Any other command is run
// as it is, with nothing added.
var agentSpecs = []*agentSpec{
	{names: []string{"claude"}, title: "Claude Code", print: []string{"-p", "--print"}, flags: claudeFlags,
		since: "stream-json needs --verbose since 2.1.x; --include-partial-messages needs a 1.0 or later CLI"},
	// qwen's -p takes the prompt as its value: it is not added.
	{names: []string{"qwen"}, title: "Qwen Code", flags: claudeFlags},
	{names: []string{"codex"}, title: "Codex CLI", sub: []string{"exec", "e"},
		flags: []flagAdd{{[]string{"--json", "--experimental-json"}, []string{"--json"}}},
		since: "codex exec --json is the current format; 0.42 took only --experimental-json (pass that instead)"},
	{names: []string{"gemini"}, title: "Gemini CLI",
		flags: []flagAdd{{[]string{"--output-format", "-o"}, []string{"--output-format", "stream-json"}}},
		since: "stream-json came in Gemini CLI of October 2025"},
	{names: []string{"opencode"}, title: "OpenCode", sub: []string{"run"},
		flags: []flagAdd{{[]string{"--format"}, []string{"--format", "json"}}}},
	{names: []string{"kilo"}, title: "Kilo CLI", sub: []string{"run"},
		flags: []flagAdd{{[]string{"--format"}, []string{"--format", "json"}}}},
	{names: []string{"cursor-agent", "cursor", "agent"}, title: "Cursor CLI", print: []string{"-p", "--print"},
		flags: []flagAdd{
			{[]string{"--output-format"}, []string{"--output-format", "stream-json"}},
			{[]string{"--stream-partial-output"}, []string{"--stream-partial-output"}},
		}},
	{names: []string{"copilot"}, title: "Copilot CLI",
		flags: []flagAdd{{[]string{"--output-format"}, []string{"--output-format", "json"}}},
		since: "--output-format json came in Copilot CLI 0.0.422"},
	// agy parses flags the Go way: -output-format is the same flag, and
	// flags must come before the first plain argument.
	{names: []string{"agy", "antigravity"}, title: "Antigravity CLI",
		flags: []flagAdd{{[]string{"--output-format", "-output-format"}, []string{"--output-format", "stream-json"}}},
		since: "--output-format came in agy 1.1.8"},
	{names: []string{"amp"}, title: "Amp", atEnd: true,
		flags: []flagAdd{{[]string{"--stream-json"}, []string{"--stream-json"}}}},
	// pi's --mode json is its print mode: no -p (docs/formats/pi.md).
	{names: []string{"pi"}, title: "pi",
		flags: []flagAdd{{[]string{"--mode"}, []string{"--mode", "json"}}}},
	// CodeBuddy's json is one array when the run ends (its stream-json is
	// Claude's shapes, read as Claude's: the user may ask for it).
	{names: []string{"codebuddy", "cbc"}, title: "CodeBuddy Code", print: []string{"-p", "--print"},
		flags: []flagAdd{{[]string{"--output-format"}, []string{"--output-format", "json"}}}},
	// Droid's stream needs exec (its interactive mode prints no JSON).
	{names: []string{"droid"}, title: "Factory Droid", sub: []string{"exec"},
		flags: []flagAdd{{[]string{"--output-format"}, []string{"--output-format", "stream-json"}}}},
	// Grok's -p takes the prompt as its value: it is not added.
	{names: []string{"grok"}, title: "Grok CLI",
		flags: []flagAdd{{[]string{"--output-format"}, []string{"--output-format", "streaming-json"}}}},
	{names: []string{"goose"}, title: "Goose", sub: []string{"run"},
		flags: []flagAdd{{[]string{"--output-format"}, []string{"--output-format", "stream-json"}}},
		since: "stream-json came in goose of December 2025"},
	{names: []string{"kimi"}, title: "Kimi Code CLI", print: []string{"--print"},
		flags: []flagAdd{{[]string{"--output-format"}, []string{"--output-format", "stream-json"}}}},
	// OpenClaw prints one document when the run ends.
	{names: []string{"openclaw"}, title: "OpenClaw", sub: []string{"agent"},
		flags: []flagAdd{{[]string{"--json"}, []string{"--json"}}}},
}

// lookupAgent returns the spec for a command name (a path's base name
// counts: ~/bin/claude is claude), and the command to run: `cursor` runs
// cursor-agent (cursor is the editor), `antigravity` runs agy.
func lookupAgent(name string) (spec *agentSpec, command string) {
	base := strings.TrimSuffix(filepath.Base(name), ".exe")
	for _, s := range agentSpecs {
		for i, n := range s.names {
			if n != base {
				continue
			}
			if i > 0 && !strings.ContainsRune(name, filepath.Separator) && (n == "cursor" || n == "antigravity") {
				return s, s.names[0]
			}
			return s, name
		}
	}
	return nil, name
}

// prepare returns the agent's arguments with the JSON flags it needs
// added where they are missing, and what was added. Only the arguments
// before a "--" are looked at, and nothing is added after it.
func (s *agentSpec) prepare(args []string) (out, added []string) {
	end := len(args)
	for i, a := range args {
		if a == "--" {
			end = i
			break
		}
	}
	opts := args[:end]
	var add []string
	at := 0
	if len(s.sub) > 0 {
		at = -1
		for i, a := range opts {
			if has(s.sub, a) {
				at = i + 1
				break
			}
		}
		if at < 0 {
			add = append(add, s.sub[0])
			at = 0
		}
	}
	if len(s.print) > 0 && !present(opts, s.print) {
		add = append(add, s.print[0])
	}
	for _, f := range s.flags {
		if !present(opts, f.spellings) {
			add = append(add, f.add...)
		}
	}
	if s.atEnd {
		at = end
	}
	out = make([]string, 0, len(args)+len(add))
	out = append(out, args[:at]...)
	out = append(out, add...)
	out = append(out, args[at:]...)
	return out, add
}

// present reports whether one of the spellings is among the arguments,
// alone or as --flag=value.
func present(args, spellings []string) bool {
	for _, a := range args {
		for _, sp := range spellings {
			if a == sp || strings.HasPrefix(a, sp+"=") {
				return true
			}
		}
	}
	return false
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// rejectWords are what argument parsers say about a flag they do not take
// (commander, yargs, clap, Go's flag package, cobra).
var rejectWords = []string{"unknown", "unexpected", "unrecognized", "unrecognised", "not defined", "invalid",
	"no such option", "not supported", "unsupported", "did you mean"}

// rejected returns the flags agentfmt added that the agent's stderr says
// it does not take.
func (s *agentSpec) rejected(added []string, stderr string) []string {
	low := strings.ToLower(stderr)
	if !containsAny(low, rejectWords) {
		return nil
	}
	var out []string
	for _, a := range added {
		if strings.HasPrefix(a, "-") {
			// yargs names a flag without its dashes (Unknown argument:
			// output-format); a short name must come with one.
			name := strings.TrimLeft(a, "-")
			if mentions(low, "-"+name) || len(name) >= 7 && mentions(low, name) {
				out = append(out, a)
			}
		} else if len(a) > 4 && mentions(low, a) { // a value such as stream-json
			out = append(out, a)
		}
	}
	return out
}

// mentions reports whether tok is in s as a name of its own: not inside
// a longer word or flag name (-p is not in --stream-partial-output).
func mentions(s, tok string) bool {
	name := func(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' }
	for i := 0; ; {
		j := strings.Index(s[i:], tok)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(tok)
		if (j == 0 || !name(s[j-1])) && (end == len(s) || !name(s[end]) && s[end] != '-') {
			return true
		}
		i = j + 1
	}
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
