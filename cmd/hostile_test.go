package cmd

// Hostile and broken input (issue #6): nothing raw reaches the
// terminal, nothing is lost, nothing crashes. The streams are written in
// testdata/hostile/*.jsonl (hand-made from the format notes) or generated
// here; huge inputs are generated, never committed.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/render"
)

func hostileFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "hostile", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hostileSeq are the sequences of testdata/hostile/01-escapes-everywhere:
// none may reach the output as it is.
var hostileSeq = []struct{ name, seq string }{
	{"OSC title", "\x1b]0;pwned-title\x07"},
	{"OSC 52 clipboard", "\x1b]52;c;cHduZWQ=\x07"},
	{"clear screen", "\x1b[2J"},
	{"conceal", "\x1b[8m"},
	{"one-byte CSI", "\u009b2J"},
	{"bidi override", "\u202e"},
	{"SGR from content", "\x1b[38;5;199m"},
	{"DCS", "\x1bP+q"},
	{"OSC 8 hyperlink", "\x1b]8;;http://evil.example"},
	{"bell", "\x07"},
	{"backspace", "\x08"},
	{"DEL", "\x7f"},
}

// terminalSafe reports the first thing in out that a terminal would obey
// and that the renderers do not write themselves: C0 controls other than
// tab and newline (and CR, for pretty's redraws), DEL, C1 controls, bidi
// controls, invalid UTF-8, and escape sequences other than SGR colours
// (without conceal), cursor show/hide, cursor moves and erases.
func terminalSafe(out string, pretty bool) error {
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case c == 0x1b:
			n, err := allowedCSI(out[i:])
			if err != nil {
				return fmt.Errorf("byte %d: %v in …%q…", i, err, around(out, i))
			}
			i += n - 1
		case c == '\r' && pretty:
		case c == 0x7f || (c < 0x20 && c != '\t' && c != '\n'):
			return fmt.Errorf("byte %d: raw control %#02x in …%q…", i, c, around(out, i))
		}
	}
	if !utf8.ValidString(out) {
		return errors.New("invalid UTF-8")
	}
	for i, r := range out {
		if (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return fmt.Errorf("byte %d: raw %U in …%q…", i, r, around(out, i))
		}
	}
	return nil
}

func around(s string, i int) string {
	return s[max(0, i-20):min(len(s), i+20)]
}

// allowedCSI returns the length of the renderer-made escape sequence at the
// start of s.
func allowedCSI(s string) (int, error) {
	if len(s) < 3 || s[1] != '[' {
		return 0, errors.New("escape sequence that is not a CSI")
	}
	j := 2
	for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == '?') {
		j++
	}
	if j >= len(s) {
		return 0, errors.New("unterminated CSI")
	}
	params, final := s[2:j], s[j]
	switch final {
	case 'm':
		for _, p := range strings.Split(params, ";") {
			if p == "8" || strings.Contains(p, "?") {
				return 0, fmt.Errorf("SGR %q", params)
			}
		}
		if strings.Contains(params, "38;5;199") {
			return 0, errors.New("the content's own SGR")
		}
	case 'l', 'h':
		if params != "?25" {
			return 0, fmt.Errorf("mode %q%c", params, final)
		}
	case 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'K':
		if strings.Contains(params, "?") {
			return 0, fmt.Errorf("CSI %q%c", params, final)
		}
	case 'J':
		if params != "" && params != "0" {
			return 0, fmt.Errorf("erase display %q", params)
		}
	default:
		return 0, fmt.Errorf("CSI final %q", final)
	}
	return j + 1, nil
}

// renderings are the terminal-bound outputs checked for safety.
// narrow is false for those wide enough that no test text is wrapped.
var renderings = []struct {
	name   string
	args   []string
	tty    bool
	pretty bool
	narrow bool
}{
	{"plain", []string{"-o", "plain", "--color", "never", "--tools", "full"}, false, false, false},
	{"plain colour", []string{"-o", "plain", "--color", "always", "--tools", "full"}, false, false, false},
	{"plain github", []string{"-o", "plain", "--ci", "github", "--tools", "full"}, false, false, false},
	{"pretty colour", []string{"-o", "pretty", "--color", "always", "--tools", "full", "--width", "400"}, true, true, false},
	{"pretty narrow", []string{"-o", "pretty", "--color", "never", "--width", "37"}, true, true, true},
}

func TestHostileSequencesNeverRaw(t *testing.T) {
	t.Parallel()
	in := hostileFixture(t, "01-escapes-everywhere.jsonl")
	for _, rd := range renderings {
		t.Run(rd.name, func(t *testing.T) {
			r := cli{args: rd.args, stdin: strings.NewReader(in), tty: rd.tty}.run(t)
			out := r.stdout
			if rd.pretty {
				out = withoutDrawnToolColour(t, out)
			}
			if err := terminalSafe(out, rd.pretty); err != nil {
				t.Errorf("unsafe output: %v", err)
			}
			for _, h := range hostileSeq {
				if strings.Contains(out, h.seq) {
					t.Errorf("%s reached the output raw", h.name)
				}
			}
			if r.code != 0 {
				t.Errorf("exit %d, stderr %q", r.code, r.stderr)
			}
			if rd.narrow {
				return // text is wrapped: safety only
			}
			want := []string{"alpha-before", "alpha-after", "tool-before", "tool-after", "raw-before", "raw-after",
				"omega-before", "omega-after", "pwned-title", "tool-input-before"}
			if rd.pretty {
				// The tool's "…M\rN tool-after" shows as a terminal would
				// show it: N tool-after over tool-before.
				want[2] = "N tool-after"
			}
			for _, w := range want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("%q not shown", w)
				}
			}
			if n := strings.Count(r.stdout, "alpha-after"); n != 1 {
				t.Errorf("assistant text shown %d times", n)
			}
		})
	}
	// The json output keeps the text, JSON-escaped: no raw C0 control
	// either. (It may hold DEL, C1 and bidi characters as they are: JSON
	// allows them.)
	r := cli{args: []string{"-o", "json"}, stdin: strings.NewReader(in)}.run(t)
	for i := 0; i < len(r.stdout); i++ {
		if c := r.stdout[i]; c < 0x20 && c != '\n' {
			t.Fatalf("json: raw control %#02x at %d", c, i)
		}
	}
}

// withoutDrawnToolColour removes from pretty's output the one colour of
// the hostile content that pretty draws when it is a tool's output (SGR
// colour in tool output is drawn in pretty), on the rows of tool
// previews (after their dim bar) and there only; anywhere else it is still
// the content's own SGR reaching the terminal.
func withoutDrawnToolColour(t *testing.T, out string) string {
	t.Helper()
	const colour = "\x1b[38;5;199m"
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "\x1b[2m│ ") {
			lines[i] = strings.ReplaceAll(l, colour, "")
		}
	}
	return strings.Join(lines, "\n")
}

// TestHostileRawLinesEverywhere sends each sequence on a line of its own
// that is not JSON, and as a line that is invalid JSON.
func TestHostileRawLinesEverywhere(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for _, h := range hostileSeq {
		fmt.Fprintf(&b, "raw %s: before%safter\n{\"broken\": \"%s\n", h.name, h.seq, h.seq)
	}
	for _, rd := range renderings {
		r := cli{args: rd.args, stdin: strings.NewReader(b.String()), tty: rd.tty}.run(t)
		if err := terminalSafe(r.stdout, rd.pretty); err != nil {
			t.Errorf("%s: %v", rd.name, err)
		}
		if !rd.narrow && strings.Count(r.stdout, "after") < len(hostileSeq) {
			t.Errorf("%s: raw lines lost:\n%s", rd.name, r.stdout)
		}
	}
}

func TestAllowColorPassesOnlySGR(t *testing.T) {
	t.Parallel()
	var s hStream
	s.init()
	s.text("msg_1", "assistant \x1b[35mmagenta-assistant\x1b[0m text")
	s.toolUse("msg_1", "toolu_1", "Bash", map[string]any{"command": "make"})
	s.toolResult("toolu_1", "ok \x1b[31mred-output\x1b[0m then \x1b[2J clear \x1b]0;title\x07 \x1b[8mhidden\x1b[0m", false)
	s.result(true, "")
	in := s.String()

	r := cli{args: []string{"-o", "plain", "--color", "always", "--allow-color", "--tools", "full"}, stdin: strings.NewReader(in)}.run(t)
	if !strings.Contains(r.stdout, "\x1b[31mred-output") {
		t.Errorf("--allow-color: the tool's SGR colour did not pass:\n%q", r.stdout)
	}
	for _, bad := range []string{"\x1b[2J", "\x1b]0;", "\x1b[35mmagenta-assistant", "\x1b[8m"} {
		if strings.Contains(r.stdout, bad) {
			t.Errorf("--allow-color let %q through", bad)
		}
	}
	for _, w := range []string{"red-output", "magenta-assistant", "hidden", "clear"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("%q not shown", w)
		}
	}
	r = cli{args: []string{"-o", "plain", "--color", "always", "--tools", "full"}, stdin: strings.NewReader(in)}.run(t)
	if strings.Contains(r.stdout, "\x1b[31mred-output") {
		t.Errorf("without --allow-color the tool's SGR passed")
	}
}

// TestSanitizeSGRWithoutConceal: what --allow-color lets through is colour:
// an SGR that conceals text (8) is shown, not obeyed; colour arguments
// that happen to be 8 are colour.
func TestSanitizeSGRWithoutConceal(t *testing.T) {
	t.Parallel()
	o := sanitize.Options{SGR: sanitize.PassSGR}
	for in, want := range map[string]string{
		"\x1b[8mhidden\x1b[0m":     "␛[8mhidden\x1b[0m",
		"\x1b[1;08mhidden":         "␛[1;08mhidden",
		"\x1b[38;5;8mgrey":         "\x1b[38;5;8mgrey\x1b[0m",
		"\x1b[48;2;8;8;8mbg":       "\x1b[48;2;8;8;8mbg\x1b[0m",
		"\x1b[38;2;1;2;3;8mhidden": "␛[38;2;1;2;3;8mhidden",
		"\x1b[38:5:8mgrey":         "\x1b[38:5:8mgrey\x1b[0m",
		"\x1b[31mred\x1b[2J":       "\x1b[31mred␛[2J\x1b[0m", // (and a reset at the end)
	} {
		if got := sanitize.String(in, o); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// TestHugeImageLine renders a 64 MB line (a tool result holding a base64
// PNG) with the built binary: exit 0, the text after it shown, the blob
// not printed, peak memory (max RSS) under 256 MB.
func TestHugeImageLine(t *testing.T) {
	t.Parallel()
	testenv.Slow(t) // whole-process memory on 64 MB
	if testenv.Race {
		// (Under -race the child's maxrss counts the instrumented test
		// process's resident set from before exec: see peakRSS.)
		t.Skip("writes 64 MB (skipped with -race; .ci/run runs it without)")
	}
	bin := hostileBinary(t)
	path := filepath.Join(t.TempDir(), "image.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var s hStream
	s.init()
	s.text("msg_1", "Taking a screenshot before the change.")
	s.toolUse("msg_1", "toolu_img", "mcp__playwright__screenshot", map[string]any{"path": "/tmp/shot.png"})
	w.WriteString(s.String())
	w.WriteString(`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_img","type":"tool_result","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo`)
	chunk := bytes.Repeat([]byte("QUJDRA"), 1<<16/6*6/6) // base64 text
	for n := 0; n < 64<<20; n += len(chunk) {
		w.Write(chunk)
	}
	w.WriteString(`"}}],"is_error":false}]},"parent_tool_use_id":null,"session_id":"s1","uuid":"u-img"}` + "\n")
	s = hStream{}
	s.text("msg_2", "The screenshot shows the login page after the change.")
	s.result(true, "")
	w.WriteString(s.String())
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	for _, via := range []string{"file", "stdin"} {
		t.Run(via, func(t *testing.T) {
			args := []string{"-o", "plain", "--tools", "full"}
			var stdin io.Reader
			if via == "file" {
				args = append(args, path)
			} else {
				in, err := os.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				defer in.Close()
				stdin = in
			}
			cmd := exec.Command(bin, args...)
			cmd.Stdin = stdin
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			if err != nil {
				t.Fatalf("%v, stderr %q", err, errb.String())
			}
			if !strings.Contains(out.String(), "login page after the change") {
				t.Errorf("text after the image missing:\n%s", clipOut(out.String()))
			}
			if strings.Contains(out.String(), "QUJDRAQUJDRA") || out.Len() > 64<<10 {
				t.Errorf("the blob was printed (%d bytes of output)", out.Len())
			}
			ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			if !ok {
				t.Skip("no rusage")
			}
			rss := ru.Maxrss // KiB on Linux
			if runtime.GOOS == "darwin" {
				rss /= 1024
			}
			t.Logf("max RSS %d MiB", rss>>10)
			if rss > 256<<10 {
				t.Errorf("peak memory %d MiB, want under 256", rss>>10)
			}
		})
	}
}

func clipOut(s string) string {
	if len(s) > 2000 {
		return s[:1000] + "\n…\n" + s[len(s)-1000:]
	}
	return s
}

func TestGeminiCumulativeChunk(t *testing.T) {
	t.Parallel()
	in := hostileFixture(t, "03-gemini-cumulative-third-chunk.jsonl")
	r := cli{args: []string{"-o", "plain"}, stdin: strings.NewReader(in)}.run(t)
	if r.code != 0 {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if n := strings.Count(r.stdout, "I have looked at the repository layout"); n != 1 {
		t.Errorf("first chunk shown %d times:\n%s", n, r.stdout)
	}
	if n := strings.Count(r.stdout, "It has three packages."); n != 1 {
		t.Errorf("second chunk shown %d times:\n%s", n, r.stdout)
	}
	if !strings.Contains(r.stdout, "three packages. The tests pass.") {
		t.Errorf("text not joined right:\n%s", r.stdout)
	}
	// The final answer is the repaired text too.
	r = cli{args: []string{"-o", "text"}, stdin: strings.NewReader(in)}.run(t)
	if strings.TrimSpace(r.stdout) != "Hello! I have looked at the repository layout. It has three packages. The tests pass." {
		t.Errorf("-o text: %q", r.stdout)
	}
	// --debug reports the repair with its line.
	r = cli{args: []string{"-o", "plain", "--debug"}, stdin: strings.NewReader(in)}.run(t)
	if !strings.Contains(r.stderr, "line 5") {
		t.Errorf("--debug: no report on line 5: %q", r.stderr)
	}
	// --strict: the contract violation is fatal, with its line.
	r = cli{args: []string{"-o", "plain", "--strict"}, stdin: strings.NewReader(in)}.run(t)
	if r.code != ExitDataErr {
		t.Errorf("--strict: exit %d, want 65", r.code)
	}
	if !strings.Contains(r.stderr, "line 5") {
		t.Errorf("--strict: no line number: %q", r.stderr)
	}
}

func TestSevenEqualsRendered(t *testing.T) {
	t.Parallel()
	gem := `{"type":"init","timestamp":"2026-10-08T03:56:05.021Z","session_id":"g","model":"gemini-2.5-pro"}` + "\n"
	for i := 0; i < 7; i++ {
		gem += `{"type":"message","timestamp":"2026-10-08T03:56:05.021Z","role":"assistant","content":"=","delta":true}` + "\n"
	}
	gem += `{"type":"result","timestamp":"2026-10-08T03:56:05.021Z","status":"success"}` + "\n"
	for name, in := range map[string]string{"claude": hostileFixture(t, "04-seven-equals-deltas.jsonl"), "gemini": gem} {
		for _, args := range [][]string{{"-o", "plain"}, {"-o", "text"}, {"-o", "pretty", "--color", "never"}} {
			r := cli{args: args, stdin: strings.NewReader(in)}.run(t)
			if !strings.Contains(r.stdout, "=======") || strings.Contains(r.stdout, "========") {
				t.Errorf("%s %v: want exactly seven '=':\n%s", name, args, r.stdout)
			}
			if r.code != 0 {
				t.Errorf("%s %v: exit %d", name, args, r.code)
			}
		}
	}
}

func TestTruncatedLastLine(t *testing.T) {
	t.Parallel()
	in := hostileFixture(t, "05-truncated-last-line.jsonl")
	for _, args := range [][]string{{"-o", "plain"}, {"-o", "pretty", "--color", "always"}} {
		r := cli{args: args, stdin: strings.NewReader(in)}.run(t)
		if r.code != ExitIncomplete {
			t.Errorf("%v: exit %d, want 3", args, r.code)
		}
		if !strings.Contains(r.stdout, "Everything before the cut is shown.") {
			t.Errorf("%v: earlier text missing:\n%s", args, r.stdout)
		}
		// (pretty wraps the raw line at its spaces: a row break stands for one)
		if !strings.Contains(strings.ReplaceAll(r.stdout, "\n", " "), `"text":"cut mid-sent`) {
			t.Errorf("%v: the partial line is not shown:\n%s", args, r.stdout)
		}
	}
}

func TestBannersInOrder(t *testing.T) {
	t.Parallel()
	in := hostileFixture(t, "06-banners-and-garbage-between-events.jsonl")
	r := cli{args: []string{"-o", "plain"}, stdin: strings.NewReader(in)}.run(t)
	order := []string{"Loaded cached credentials.", "[WARNING] Skipping unreadable directory", "First line of the answer.",
		"npm WARN deprecated", "Second line of the answer.", "garbage bytes", "Third line, after the garbage."}
	at := -1
	for _, w := range order {
		i := strings.Index(r.stdout, w)
		if i < 0 {
			t.Errorf("%q missing:\n%s", w, r.stdout)
			continue
		}
		if i < at {
			t.Errorf("%q out of order:\n%s", w, r.stdout)
		}
		at = i
	}
	if r.code != 0 {
		t.Errorf("exit %d", r.code)
	}
	if !utf8.ValidString(r.stdout) {
		t.Errorf("invalid UTF-8 passed through")
	}
}

func TestCRLFAndBOM(t *testing.T) {
	t.Parallel()
	in := hostileFixture(t, "02-crlf-bom.jsonl")
	if !strings.HasPrefix(in, "\xef\xbb\xbf") || !strings.Contains(in, "\r\n") {
		t.Fatal("fixture lost its BOM or CRLF")
	}
	for _, args := range [][]string{{"-o", "plain"}, {"-o", "json"}, {"-o", "text"}} {
		r := cli{args: args, stdin: strings.NewReader(in)}.run(t)
		if r.code != 0 {
			t.Errorf("%v: exit %d: %s", args, r.code, r.stdout)
		}
		if !strings.Contains(r.stdout, "Windows line endings are fine.") {
			t.Errorf("%v: text missing: %q", args, r.stdout)
		}
		if strings.ContainsAny(r.stdout, "\r\ufeff␍") || strings.Contains(r.stdout, `"raw"`) {
			t.Errorf("%v: CR, BOM or a raw line in the output: %q", args, r.stdout)
		}
	}
}

func TestTextAfterInvalidUTF8(t *testing.T) {
	t.Parallel()
	var s hStream
	s.init()
	s.text("msg_1", "before the bad bytes")
	in := s.String() + "\xff\xfe\xc3\x28 invalid \xed\xa0\x80 utf-8\n"
	s = hStream{}
	s.text("msg_2", "after the bad bytes")
	s.result(true, "")
	in += s.String()
	for _, rd := range renderings {
		r := cli{args: rd.args, stdin: strings.NewReader(in), tty: rd.tty}.run(t)
		if !rd.narrow && (!strings.Contains(r.stdout, "after the bad bytes") || !strings.Contains(r.stdout, "invalid")) {
			t.Errorf("%s: text lost:\n%s", rd.name, r.stdout)
		}
		if err := terminalSafe(r.stdout, rd.pretty); err != nil {
			t.Errorf("%s: %v", rd.name, err)
		}
		if r.code != 0 {
			t.Errorf("%s: exit %d", rd.name, r.code)
		}
	}
}

// teeRoundTrip runs the command with --tee over data and returns the copy.
func teeRoundTrip(t testing.TB, data []byte, format string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tee.log")
	r := cli{args: []string{"-o", format, "--tee", path}, stdin: bytes.NewReader(data)}.run(t)
	if r.code == ExitUsage {
		t.Fatalf("exit 2: %s", r.stderr)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// FuzzTee: --tee copies any input byte for byte, whatever rendering makes
// of it.
func FuzzTee(f *testing.F) {
	f.Add([]byte(""), uint8(0))
	f.Add([]byte("\xef\xbb\xbfbanner\r\n{\"type\":\"x\"}\n\x00\x01\xff not json\n{\"cut"), uint8(1))
	f.Add([]byte("[\n{\"type\":\"init\"},\n{\"type\":\"result\",\"status\":\"success\"}\n]"), uint8(2))
	f.Add([]byte(strings.Repeat("\r", 70000)), uint8(3))
	for _, name := range []string{"01-escapes-everywhere.jsonl", "03-gemini-cumulative-third-chunk.jsonl", "05-truncated-last-line.jsonl"} {
		if b, err := os.ReadFile(filepath.Join("..", "testdata", "hostile", name)); err == nil {
			f.Add(b, uint8(0))
		}
	}
	formats := []string{"plain", "json", "text", "pretty"}
	f.Fuzz(func(t *testing.T, data []byte, format uint8) {
		if got := teeRoundTrip(t, data, formats[int(format)%len(formats)]); !bytes.Equal(got, data) {
			t.Fatalf("tee copy differs: %d bytes, want %d", len(got), len(data))
		}
	})
}

// TestTeeLargeRandom checks the tee copy of a few large random inputs
// (several read chunks, every byte value).
func TestTeeLargeRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 3; i++ {
		data := make([]byte, 200_000+rng.IntN(100_000))
		for j := range data {
			data[j] = byte(rng.Uint32())
			if rng.IntN(40) == 0 {
				data[j] = '\n'
			}
		}
		if got := teeRoundTrip(t, data, "plain"); !bytes.Equal(got, data) {
			t.Fatalf("input %d: tee copy differs", i)
		}
	}
}

// TestTeeWriteErrorOnce: a tee file that fails (a full disk) is reported
// once on stderr when it fails, rendering goes on to the end, and the run
// ends saying the copy is incomplete, with exit 74.
func TestTeeWriteErrorOnce(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	var s hStream
	s.init()
	for i := 0; i < 3000; i++ {
		s.text(fmt.Sprint("msg_", i), fmt.Sprintf("message number %d, padded so that the input spans many reads", i))
	}
	s.result(true, "")
	r := cli{args: []string{"-o", "plain", "--tee", "/dev/full"}, stdin: strings.NewReader(s.String())}.run(t)
	if n := strings.Count(r.stderr, "(rendering goes on)"); n != 1 {
		t.Errorf("tee error reported %d times: %q", n, r.stderr)
	}
	if n := strings.Count(r.stderr, "the copy is incomplete"); n != 1 {
		t.Errorf("the end says the copy is incomplete %d times: %q", n, r.stderr)
	}
	if !strings.Contains(r.stdout, "message number 2999") {
		t.Errorf("rendering stopped")
	}
	if r.code != ExitIOErr {
		t.Errorf("exit %d, want 74", r.code)
	}
}

// TestClosedStdoutPipe writes to a real pipe whose reader goes away after
// the first line (| head -1): nothing on stderr, whatever the format.
func TestClosedStdoutPipe(t *testing.T) {
	t.Parallel()
	var s hStream
	s.init()
	for i := 0; i < 2000; i++ {
		s.text(fmt.Sprint("msg_", i), fmt.Sprintf("line %d of a long answer", i))
	}
	s.result(true, "")
	in := s.String()
	for _, format := range render.Formats {
		if _, err := render.New(format, io.Discard, render.Config{}); err != nil {
			continue // not built yet
		}
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			bufio.NewReader(pr).ReadString('\n')
			pr.Close()
			close(done)
		}()
		var errb bytes.Buffer
		env := &Env{Stdin: strings.NewReader(in), Stdout: pw, Stderr: &errb, Getenv: func(string) string { return "" },
			Now: func() time.Time { return time.Unix(0, 0) }, Tick: make(chan time.Time)}
		code := Run([]string{"-o", format}, env)
		pw.Close()
		<-done
		if errb.Len() != 0 {
			t.Errorf("%s: stderr %q", format, errb.String())
		}
		if code != ExitPipe && code != 0 {
			t.Errorf("%s: exit %d", format, code)
		}
	}
}

// TestClosedStdoutHead runs the binary in a shell pipeline with head -1.
func TestClosedStdoutHead(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	bin := hostileBinary(t)
	var s hStream
	s.init()
	for i := 0; i < 5000; i++ {
		s.text(fmt.Sprint("msg_", i), fmt.Sprintf("line %d of a long answer", i))
	}
	s.result(true, "")
	path := filepath.Join(t.TempDir(), "long.jsonl")
	if err := os.WriteFile(path, []byte(s.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range testenv.Cases([]string{"plain", "json", "pretty"}, 1) {
		c := exec.Command("sh", "-c", `"$0" -o "$1" "$2" | head -1`, bin, format, path)
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		if err := c.Run(); err != nil {
			t.Errorf("%s: %v", format, err)
		}
		if errb.Len() != 0 {
			t.Errorf("%s: stderr %q", format, errb.String())
		}
		if strings.Count(out.String(), "\n") != 1 {
			t.Errorf("%s: head printed %q", format, out.String())
		}
	}
}

// silentReader is a stdin that stays open and sends nothing after data.
type silentReader struct {
	data string
	quit chan struct{}
}

func (s *silentReader) Read(p []byte) (int, error) {
	if s.data != "" {
		n := copy(p, s.data)
		s.data = s.data[n:]
		return n, nil
	}
	<-s.quit
	return 0, io.EOF
}

// TestInterruptSilentStdin: a stdin that stays open with no data (or with
// a partial line) ends with exit 130 on SIGINT, promptly.
func TestInterruptSilentStdin(t *testing.T) {
	t.Parallel()
	var s hStream
	s.init()
	s.text("msg_1", "working on it")
	for _, c := range []struct{ name, data string }{
		{"nothing", ""},
		{"whole lines", s.String()},
		{"a partial line", s.String() + `{"type":"assistant","message":{"id":"msg_2","content":[{"type":"text","text":"half`},
	} {
		t.Run(c.name, func(t *testing.T) {
			sig := make(chan os.Signal, 1)
			src := &silentReader{data: c.data, quit: make(chan struct{})}
			defer close(src.quit)
			var out bytes.Buffer
			env := &Env{Stdin: src, Stdout: &lockedBuffer{b: &out}, Stderr: io.Discard, Getenv: func(string) string { return "" },
				Signals: sig, Now: func() time.Time { return time.Unix(0, 0) }, Tick: make(chan time.Time)}
			res := make(chan int, 1)
			go func() { res <- Run([]string{"-o", "plain"}, env) }()
			if c.data != "" {
				// (what was read is shown before the signal comes: an
				// event to wait for, not a time)
				waitFor(t, "the text read", func() bool {
					out := env.Stdout.(*lockedBuffer)
					out.mu.Lock()
					defer out.mu.Unlock()
					return strings.Contains(out.b.String(), "working on it")
				})
			}
			sig <- os.Interrupt
			select {
			case code := <-res:
				if code != ExitInterrupted {
					t.Errorf("exit %d, want 130", code)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("SIGINT did not end the run")
			}
			if c.data != "" && !strings.Contains(out.String(), "working on it") {
				t.Errorf("text read before the interrupt not shown: %q", out.String())
			}
		})
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// randomText draws text from printable characters of several scripts and
// from everything a terminal obeys.
func randomText(rng *rand.Rand) string {
	printable := []string{"a", "b", "z", "Q", "0", "7", " ", " ", ",", "?", "é", "ß", "Ж", "日", "本", "한", "ع", "🎉", "👍🏽", "e\u0301"}
	hostile := []string{"\x1b", "\x1b]0;t\x07", "\x1b[2J", "\x1b[8m", "\x1b[38;5;199m", "\x1bZ", "\x07", "\x08", "\x00", "\x0b",
		"\x0c", "\r", "\x7f", "\u0085", "\u009b", "\u202e", "\u2066", "\x1bP", "\t", "\n"}
	var b strings.Builder
	for n := 1 + rng.IntN(60); n > 0; n-- {
		if rng.IntN(5) == 0 {
			b.WriteString(hostile[rng.IntN(len(hostile))])
		} else {
			b.WriteString(printable[rng.IntN(len(printable))])
		}
	}
	return b.String()
}

// visible lists the characters of s a reader must find in the output, in
// order: the graphic ones, without spaces.
func visible(s string) []rune {
	var rs []rune
	for _, r := range s {
		if r == ' ' || !unicode.IsGraphic(r) || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			continue
		}
		rs = append(rs, r)
	}
	return rs
}

// subsequence reports whether want appears in order in out.
func subsequence(want []rune, out string) (int, bool) {
	i := 0
	for _, r := range out {
		if i < len(want) && r == want[i] {
			i++
		}
	}
	return i, i == len(want)
}

// TestRandomClaudeStreams renders a few hundred generated Claude streams
// (streamed deltas and whole frames, tools, random text with control
// characters): no output holds a raw control from the content, and every
// printable character of the assistant text is shown, in order.
func TestRandomClaudeStreams(t *testing.T) {
	t.Parallel()
	n := 60
	if testenv.SlowEnabled() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(2026, 6))
	for i := 0; i < n; i++ {
		in, texts := randomClaudeStream(rng, i)
		for _, rd := range renderings {
			r := cli{args: rd.args, stdin: strings.NewReader(in), tty: rd.tty}.run(t)
			out := r.stdout
			if rd.pretty {
				out = withoutDrawnToolColour(t, out)
			}
			if err := terminalSafe(out, rd.pretty); err != nil {
				t.Fatalf("stream %d, %s: %v\ninput:\n%s", i, rd.name, err, in)
			}
			var all []rune
			for _, text := range texts {
				all = append(all, visible(text)...)
			}
			if k, ok := subsequence(all, r.stdout); !ok {
				t.Fatalf("stream %d, %s: assistant text lost at %q (char %d)\ninput:\n%s\noutput:\n%s", i, rd.name, string(all[k]), k, in, r.stdout)
			}
			if r.code != 0 {
				t.Fatalf("stream %d, %s: exit %d", i, rd.name, r.code)
			}
		}
	}
}

func randomClaudeStream(rng *rand.Rand, seed int) (string, []string) {
	var s hStream
	s.init()
	var texts []string
	for m := 0; m < 1+rng.IntN(4); m++ {
		id := fmt.Sprintf("msg_%d_%d", seed, m)
		text := randomText(rng)
		texts = append(texts, text)
		if rng.IntN(2) == 0 {
			var chunks []string
			rest := text
			for rest != "" {
				k := min(len(rest), 1+rng.IntN(12))
				for k < len(rest) && !utf8.RuneStart(rest[k]) {
					k++
				}
				chunks = append(chunks, rest[:k])
				rest = rest[k:]
			}
			s.partial(id, chunks...)
		} else {
			s.text(id, text)
		}
		if rng.IntN(3) == 0 {
			tid := fmt.Sprintf("toolu_%d_%d", seed, m)
			s.toolUse(id, tid, "Bash", map[string]any{"command": randomText(rng)})
			s.toolResult(tid, randomText(rng), rng.IntN(4) == 0)
		}
	}
	s.result(true, "")
	return s.String(), texts
}

// hStream writes Claude stream-json lines (docs/formats/claude.md).
type hStream struct {
	b strings.Builder
	n int
}

func (s *hStream) String() string { return s.b.String() }

func (s *hStream) line(v map[string]any) {
	s.n++
	if _, ok := v["session_id"]; !ok {
		v["session_id"] = "s1"
	}
	v["uuid"] = fmt.Sprint("u", s.n)
	enc := json.NewEncoder(&s.b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
}

func (s *hStream) init() {
	s.line(map[string]any{"type": "system", "subtype": "init", "cwd": "/work", "tools": []string{"Bash"},
		"model": "claude-sonnet-4-5", "permissionMode": "default"})
}

func (s *hStream) assistant(id string, block map[string]any) {
	s.line(map[string]any{"type": "assistant", "parent_tool_use_id": nil, "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
		"content": []any{block}, "stop_reason": nil}})
}

func (s *hStream) event(e map[string]any) {
	s.line(map[string]any{"type": "stream_event", "parent_tool_use_id": nil, "event": e})
}

// text is one text block sent whole (no partial messages).
func (s *hStream) text(id, text string) {
	s.assistant(id, map[string]any{"type": "text", "text": text})
}

// partial streams a text block as deltas, then the assistant frame that
// repeats it, as --include-partial-messages does.
func (s *hStream) partial(id string, chunks ...string) {
	s.event(map[string]any{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant",
		"content": []any{}, "model": "claude-sonnet-4-5"}})
	s.event(map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
	for _, c := range chunks {
		s.event(map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": c}})
	}
	s.text(id, strings.Join(chunks, ""))
	s.event(map[string]any{"type": "content_block_stop", "index": 0})
	s.event(map[string]any{"type": "message_stop"})
}

func (s *hStream) toolUse(msgID, id, name string, input map[string]any) {
	s.assistant(msgID, map[string]any{"type": "tool_use", "id": id, "name": name, "input": input})
}

func (s *hStream) toolResult(id string, content any, isError bool) {
	s.line(map[string]any{"type": "user", "parent_tool_use_id": nil, "message": map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": content, "is_error": isError}}}})
}

func (s *hStream) result(ok bool, text string) {
	sub := "success"
	if !ok {
		sub = "error_during_execution"
	}
	s.line(map[string]any{"type": "result", "subtype": sub, "is_error": !ok, "result": text, "num_turns": 1,
		"duration_ms": 10, "usage": map[string]any{"input_tokens": 1, "output_tokens": 1}})
}

// FuzzDecodeAllAgents runs arbitrary input through the decoder and session
// with every real parser: no panic, no error.
func FuzzDecodeAllAgents(f *testing.F) {
	seedFixtures(f)
	f.Fuzz(func(t *testing.T, in string) {
		res := parsertest.Run(all.Agents(), in)
		if res.Err != nil {
			t.Fatalf("decode: %v", res.Err)
		}
	})
}

// FuzzHostileCLI runs arbitrary input through the whole command: no panic,
// an exit status of a run (0, 1 or 3), nothing on stderr (but the hint for
// input without agent JSON), and output a
// terminal cannot be taken over by.
//
// In a GitHub Actions job, every format keeps content from issuing
// workflow commands: the runner model (ghRunner) sees none but agentfmt's
// own annotations. The seeds include issue 16's shapes: lines nested deep,
// workflow commands separated by CR, BOMs at the start of lines, surrogate
// pairs split across deltas.
func FuzzHostileCLI(f *testing.F) {
	seedFixtures(f)
	seedIssue16(f)
	f.Fuzz(func(t *testing.T, in string) {
		t.Parallel() // (the seeds, in a plain test run)
		for _, rd := range []struct {
			args   []string
			tty    bool
			pretty bool
			github bool
		}{
			{[]string{"-o", "plain", "--color", "always", "--tools", "full"}, false, false, false},
			{[]string{"-o", "pretty", "--color", "always", "--width", "40"}, true, true, false},
			{[]string{"-o", "plain", "--tools", "full"}, false, false, true},
			{[]string{"-o", "json"}, false, false, true},
			{[]string{"-o", "markdown", "--tools", "full"}, false, false, true},
			{[]string{"-o", "text"}, false, false, true},
		} {
			c := cli{args: rd.args, stdin: strings.NewReader(in), tty: rd.tty}
			if rd.github {
				c.env = map[string]string{"GITHUB_ACTIONS": "true"}
			}
			r := runWatched(t, c)
			if r.code != 0 && r.code != 1 && r.code != 3 {
				t.Fatalf("%v: exit %d, stderr %q", rd.args, r.code, r.stderr)
			}
			if rd.args[1] != "text" && r.stderr != "" && r.stderr != hintNoJSONText+"\n" {
				t.Fatalf("%v: stderr %q", rd.args, r.stderr)
			}
			if err := stderrSafe(r.stderr); err != nil {
				t.Fatalf("%v: %v", rd.args, err)
			}
			if !rd.github {
				if err := terminalSafe(r.stdout, rd.pretty); err != nil {
					t.Fatalf("%v: %v", rd.args, err)
				}
				continue
			}
			cmds, _ := ghRunner(r.stdout)
			for _, cmd := range liveCommands(cmds) {
				if rd.args[1] != "plain" || !strings.HasPrefix(cmd, "warning:") && !strings.HasPrefix(cmd, "error:") {
					t.Fatalf("%v: content issued the workflow command %q", rd.args, cmd)
				}
			}
		}
	})
}

// seedIssue16 adds the shapes of issue 16 to a fuzz corpus.
func seedIssue16(f *testing.F) {
	const init = `{"type":"system","subtype":"init","session_id":"s","model":"m"}` + "\n"
	for _, n := range []int{64, 5000, 100_000} {
		nest := strings.Repeat("[", n) + strings.Repeat("]", n)
		f.Add(nest + "\n")
		f.Add(init + `{"type":"weird","x":` + nest + "}\n")
		f.Add(init + `{"type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"x":` + nest + `}}]}}` + "\n")
	}
	f.Add(init + `{"type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"ok\r::add-mask::x\r\n::error file=a::b\r##[set-output name=a]v"}]}}` + "\n" +
		`{"type":"result","subtype":"success","is_error":false,"result":"\r::error::x\r##[error]y"}` + "\n")
	f.Add("\xef\xbb\xbf" + init + "\xef\xbb\xbf" + `{"type":"result","subtype":"success","is_error":false,"result":"ok"}` + "\r\n")
	f.Add(splitSurrogateStream())
	f.Add("{\n" + init + "[\n" + `  {"type":"result","subtype":"success","is_error":false,"result":"ok"}` + ",\n")
	f.Add(payloadEverywhere(false))
}

// runWatched runs c, failing with every goroutine's stack when it takes
// more than 20 s (a hang the fuzzer would otherwise only report as a
// worker that stopped answering).
func runWatched(t *testing.T, c cli) cliResult {
	t.Helper()
	done := make(chan cliResult, 1)
	go func() { done <- c.run(t) }()
	select {
	case r := <-done:
		return r
	case <-time.After(20 * time.Second):
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Fatalf("%v: still running after 20 s\n%s", c.args, buf)
	}
	return cliResult{}
}

// seedFixtures adds every fixture under testdata (agents and hostile), and
// a few lines of each, to a fuzz corpus.
func seedFixtures(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*", "*.jsonl"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil || len(b) > 64<<10 {
			continue
		}
		f.Add(string(b))
		lines := strings.SplitAfter(string(b), "\n")
		for i := 0; i+3 <= len(lines); i += 7 {
			f.Add(strings.Join(lines[i:i+3], ""))
		}
	}
}
