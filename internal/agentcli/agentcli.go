// Package agentcli is what 'agentfmt run' knows of each agent's command
// line: the flags that make it print the JSON stream agentfmt reads, where
// they go, since when the agent takes them, and how it says it does not
// (docs/formats/<agent>.md).
package agentcli

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
)

// Spec is what 'agentfmt run' knows of one agent's command line.
type Spec struct {
	Names []string // command names that select it (the first is its usual one)
	Title string
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
	// Since says which version first takes the flags, for the message
	// when the agent rejects one.
	Since string
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

// Specs are the agents 'agentfmt run' knows. Any other command is run as
// it is, with nothing added.
var Specs = []*Spec{
	{Names: []string{"claude"}, Title: "Claude Code", print: []string{"-p", "--print"}, flags: claudeFlags,
		Since: "stream-json needs --verbose since 2.1.x; --include-partial-messages needs a 1.0 or later CLI"},
	// qwen's -p takes the prompt as its value: it is not added.
	{Names: []string{"qwen"}, Title: "Qwen Code", flags: claudeFlags},
	{Names: []string{"codex"}, Title: "Codex CLI", sub: []string{"exec", "e"},
		flags: []flagAdd{{[]string{"--json", "--experimental-json"}, []string{"--json"}}},
		Since: "codex exec --json is the current format; 0.42 took only --experimental-json (pass that instead)"},
	{Names: []string{"gemini"}, Title: "Gemini CLI",
		flags: []flagAdd{{[]string{"--output-format", "-o"}, []string{"--output-format", "stream-json"}}},
		Since: "stream-json came in Gemini CLI of October 2025"},
	{Names: []string{"opencode"}, Title: "OpenCode", sub: []string{"run"},
		flags: []flagAdd{{[]string{"--format"}, []string{"--format", "json"}}}},
	{Names: []string{"kilo"}, Title: "Kilo CLI", sub: []string{"run"},
		flags: []flagAdd{{[]string{"--format"}, []string{"--format", "json"}}}},
	{Names: []string{"cursor-agent", "cursor", "agent"}, Title: "Cursor CLI", print: []string{"-p", "--print"},
		flags: []flagAdd{
			{[]string{"--output-format"}, []string{"--output-format", "stream-json"}},
			{[]string{"--stream-partial-output"}, []string{"--stream-partial-output"}},
		}},
	{Names: []string{"copilot"}, Title: "Copilot CLI",
		flags: []flagAdd{{[]string{"--output-format"}, []string{"--output-format", "json"}}},
		Since: "--output-format json came in Copilot CLI 0.0.422"},
	// agy parses flags the Go way: -output-format is the same flag, and
	// flags must come before the first plain argument.
	{Names: []string{"agy", "antigravity"}, Title: "Antigravity CLI",
		flags: []flagAdd{{[]string{"--output-format", "-output-format"}, []string{"--output-format", "stream-json"}}},
		Since: "--output-format came in agy 1.1.8"},
	{Names: []string{"amp"}, Title: "Amp", atEnd: true,
		flags: []flagAdd{{[]string{"--stream-json"}, []string{"--stream-json"}}}},
	// pi's --mode json is its print mode: no -p (docs/formats/pi.md).
	{Names: []string{"pi"}, Title: "pi",
		flags: []flagAdd{{[]string{"--mode"}, []string{"--mode", "json"}}}},
	// CodeBuddy's json is one array when the run ends (its stream-json is
	// Claude's shapes, read as Claude's: the user may ask for it).
	{Names: []string{"codebuddy", "cbc"}, Title: "CodeBuddy Code", print: []string{"-p", "--print"},
		flags: []flagAdd{{[]string{"--output-format"}, []string{"--output-format", "json"}}}},
	// Droid's stream needs exec (its interactive mode prints no JSON).
	{Names: []string{"droid"}, Title: "Factory Droid", sub: []string{"exec"},
		flags: []flagAdd{{[]string{"--output-format"}, []string{"--output-format", "stream-json"}}}},
	// Grok's -p takes the prompt as its value: it is not added.
	{Names: []string{"grok"}, Title: "Grok CLI",
		flags: []flagAdd{{[]string{"--output-format"}, []string{"--output-format", "streaming-json"}}}},
	{Names: []string{"goose"}, Title: "Goose", sub: []string{"run"},
		flags: []flagAdd{{[]string{"--output-format"}, []string{"--output-format", "stream-json"}}},
		Since: "stream-json came in goose of December 2025"},
	{Names: []string{"kimi"}, Title: "Kimi Code CLI", print: []string{"--print"},
		flags: []flagAdd{{[]string{"--output-format"}, []string{"--output-format", "stream-json"}}}},
	// OpenClaw prints one document when the run ends.
	{Names: []string{"openclaw"}, Title: "OpenClaw", sub: []string{"agent"},
		flags: []flagAdd{{[]string{"--json"}, []string{"--json"}}}},
}

// Lookup returns the spec for a command name (a path's base name
// counts: ~/bin/claude is claude), and the command to run: `cursor` runs
// cursor-agent (cursor is the editor), `antigravity` runs agy.
func Lookup(name string) (spec *Spec, command string) {
	base := strings.TrimSuffix(filepath.Base(name), ".exe")
	for _, s := range Specs {
		for i, n := range s.Names {
			if n != base {
				continue
			}
			if i > 0 && !strings.ContainsRune(name, filepath.Separator) && (n == "cursor" || n == "antigravity") {
				return s, s.Names[0]
			}
			return s, name
		}
	}
	return nil, name
}

// Prepare returns the agent's arguments with the JSON flags it needs
// added where they are missing, and what was added. Only the arguments
// before a "--" are looked at, and nothing is added after it.
func (s *Spec) Prepare(args []string) (out, added []string) {
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

// Rejected returns the flags agentfmt added that the agent's stderr says
// it does not take.
func (s *Spec) Rejected(added []string, stderr string) []string {
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

// Table is the list of agents in 'agentfmt run --help', one line each:
// the names that select it and what 'run' adds to its command line, made
// from Specs so that an agent added there is listed here. (Made once:
// every start of agentfmt puts it in the help of its run command.)
func Table() string { return table() }

var table = sync.OnceValue(func() string {
	rows := make([][2]string, 0, len(Specs))
	pad := 0
	for _, s := range Specs {
		names := strings.Join(s.Names, ", ")
		pad = max(pad, len(names))
		rows = append(rows, [2]string{names, s.added()})
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s  %s\n", pad, r[0], r[1])
	}
	return strings.TrimRight(b.String(), "\n")
})

// added says what Prepare adds to a command line that has none of it:
// "exec --json", "-p --output-format stream-json …", "… --stream-json"
// for flags that go after the user's arguments.
func (s *Spec) added() string {
	var words []string
	if len(s.sub) > 0 {
		words = append(words, s.sub[0])
	}
	if s.atEnd {
		words = append(words, "…")
	}
	if len(s.print) > 0 {
		words = append(words, s.print[0])
	}
	for _, f := range s.flags {
		words = append(words, f.add...)
	}
	return strings.Join(words, " ")
}
