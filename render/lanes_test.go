package render

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/streaming"
)

// laneLogs are fixtures of several agents, with streaming text, tool
// calls with output, parallel calls and a failed run.
var laneLogs = []string{
	"claude/01-partial-text-thinking-tool-input-json.jsonl",
	"codex/01-current-reasoning-command-filechange-todo.jsonl",
	"claude/02-no-partial-parallel-tools-results-out-of-order.jsonl",
	"claude/04-error-result-max-turns.jsonl",
}

func readFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// stream is one log fed through its own decoder and session into r.
type stream struct {
	r    Renderer
	sess *streaming.Session
	dec  *parsers.Decoder
	in   *input.Reader
	done bool
}

func newStream(t testing.TB, r Renderer, log string) *stream {
	t.Helper()
	s := &stream{r: r, in: input.NewReader(strings.NewReader(log), 0)}
	s.sess = streaming.NewSession(r, streaming.Options{})
	var err error
	s.dec, err = parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{NoEdits: !showsEdits(r), Scribble: true}, s.sess)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// showsEdits is whether the command has the decoder derive file edits
// for r (cmd's formatShows): not for text, none, nor a plain lane.
func showsEdits(r Renderer) bool {
	switch r.(type) {
	case *textRenderer, none, *plainLane:
		return false
	}
	return true
}

// step decodes one line; at the end of the log it finishes the stream.
func (s *stream) step(t testing.TB) {
	t.Helper()
	l, err := s.in.Next()
	if errors.Is(err, io.EOF) {
		s.finish(t, false)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := s.dec.Decode(l); err != nil {
		t.Fatal(err)
	}
}

func (s *stream) finish(t testing.TB, interrupted bool) {
	t.Helper()
	s.done = true
	if !interrupted {
		if err := s.dec.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.sess.Close(); err != nil {
			t.Fatal(err)
		}
	}
	outcome, reason := s.sess.Outcome()
	if err := s.r.Finish(Summary{Outcome: outcome, Reason: reason, Answer: s.sess.FinalAnswer(), Interrupted: interrupted}); err != nil {
		t.Fatal(err)
	}
}

// feedView feeds logs into lanes of v tagged tags, a line of each in
// turn, flushing a lane after each of its lines (a live feed), and
// finishes everything.
func feedView(t testing.TB, v View, tags, logs []string) { feedViewTick(t, v, tags, logs, nil) }

// feedViewTick is feedView with a redraw tick before every flush (pretty
// with renderenv.Env.Tick).
func feedViewTick(t testing.TB, v View, tags, logs []string, tick chan time.Time) {
	t.Helper()
	var ss []*stream
	for i, log := range logs {
		ss = append(ss, newStream(t, v.Lane(Lane{Tag: tags[i]}), log))
	}
	for left := len(ss); left > 0; {
		left = 0
		for _, s := range ss {
			if s.done {
				continue
			}
			left++
			s.step(t)
			if !s.done {
				if tick != nil {
					select {
					case tick <- time.Time{}:
					default:
					}
				}
				if err := s.r.Flush(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := v.Finish(false); err != nil {
		t.Fatal(err)
	}
}

// renderOne renders one log alone in format.
func renderOne(t testing.TB, format, log string, cfg Config) string {
	t.Helper()
	var out bytes.Buffer
	r, err := New(format, &out, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := newStream(t, r, log)
	for !s.done {
		s.step(t)
	}
	return out.String()
}

var ansiRE = regexp.MustCompile("\x1b\\[[0-9;]*m")

// demux splits plain view output into each tag's lines, the tag and bar
// taken off; a line with no known tag fails.
func demux(t *testing.T, out string, tags []string) map[string][]string {
	t.Helper()
	got := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		// The tag and its bar, coloured or not, then the line as it was.
		i := strings.Index(l, "│")
		if i < 0 {
			t.Fatalf("a line without a bar: %q", l)
		}
		head := strings.TrimRight(ansiRE.ReplaceAllString(l[:i], ""), " ")
		rest := strings.TrimPrefix(strings.TrimPrefix(l[i+len("│"):], "\x1b[22m"), " ")
		found := false
		for _, tag := range tags {
			if head == tag {
				got[tag] = append(got[tag], rest)
				found = true
			}
		}
		if !found {
			t.Fatalf("a line without a stream's tag: %q", l)
		}
	}
	return got
}

// TestPlainViewWholeLinesPerStream: four logs fed a line of each in turn,
// with streaming text flushed mid-line: every line of the output begins
// with its stream's tag, the streams' lines interleave, and each stream's
// lines are exactly what plain shows for that log alone (whole lines, none
// mixed with another stream's).
func TestPlainViewWholeLinesPerStream(t *testing.T) {
	t.Parallel()
	tags := []string{"claude·1a2b", "codex·019f", "claude·77", "w"}
	var logs []string
	for _, n := range laneLogs {
		logs = append(logs, readFixture(t, n))
	}
	for _, colour := range []bool{false, true} {
		cfg := Config{Width: 80, Color: colour, env: renderenv.Env{Now: fixedNow}}
		var out bytes.Buffer
		v, err := NewView("plain", &out, cfg)
		if err != nil {
			t.Fatal(err)
		}
		feedView(t, v, tags, logs)
		got := demux(t, out.String(), tags)
		for i, tag := range tags {
			want := strings.Split(strings.TrimSuffix(renderOne(t, "plain", logs[i], cfg), "\n"), "\n")
			if strings.Join(got[tag], "\n") != strings.Join(want, "\n") {
				t.Errorf("colour %v, %s: its lines differ from the log rendered alone:\n--- view\n%s\n--- alone\n%s",
					colour, tag, strings.Join(got[tag], "\n"), strings.Join(want, "\n"))
			}
		}
		// The streams interleave: the first stream's lines do not all
		// come first.
		lines := strings.Split(ansiRE.ReplaceAllString(out.String(), ""), "\n")
		if strings.HasPrefix(lines[1], tags[0]) && strings.HasPrefix(lines[2], tags[0]) && strings.HasPrefix(lines[3], tags[0]) {
			t.Errorf("the streams did not interleave:\n%s", out.String())
		}
		// Tags line up: every bar is in the same column.
		for _, l := range lines[:len(lines)-1] {
			if i := strings.Index(l, "│"); utf8.RuneCountInString(l[:i]) != utf8.RuneCountInString("claude·1a2b ") {
				t.Fatalf("bar at byte %d in %q", i, l)
			}
		}
	}
}

// TestPlainViewTagColour: with colour on, a stream's tag always has the
// same colour, in every run; with colour off there is none.
func TestPlainViewTagColour(t *testing.T) {
	t.Parallel()
	lead := func(colour bool, tags []string) map[string]string {
		var out bytes.Buffer
		v, _ := NewView("plain", &out, Config{Color: colour, env: renderenv.Env{Now: fixedNow}})
		logs := []string{readFixture(t, laneLogs[0]), readFixture(t, laneLogs[1])}
		feedView(t, v, tags, logs)
		seen := map[string]string{}
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			for _, tag := range tags {
				if i := strings.Index(l, tag); i >= 0 {
					if old, ok := seen[tag]; ok && old != l[:i] {
						t.Errorf("%s drawn as %q and %q", tag, old, l[:i])
					}
					seen[tag] = l[:i]
				}
			}
		}
		return seen
	}
	a := lead(true, []string{"claude·1a2b", "codex·019f"})
	b := lead(true, []string{"codex·019f", "claude·1a2b"})
	if a["claude·1a2b"] == "" || a["claude·1a2b"] != b["claude·1a2b"] || a["codex·019f"] != b["codex·019f"] {
		t.Errorf("tag colours not stable: %q, %q", a, b)
	}
	for tag, c := range lead(false, []string{"claude·1a2b", "codex·019f"}) {
		if c != "" {
			t.Errorf("colour off, %s drawn after %q", tag, c)
		}
	}
}

// TestPlainViewGitHubGroups: in a GitHub Actions log of several streams
// whose tool calls end one after another's, commands are stopped once at
// the start and resumed once at the end; groups never nest, each holds
// lines of one stream only and its title names it; a failed run's
// annotation names its stream.
func TestPlainViewGitHubGroups(t *testing.T) {
	t.Parallel()
	tags := []string{"claude·1a2b", "codex·019f", "claude·77", "w"}
	var logs []string
	for _, n := range laneLogs {
		logs = append(logs, readFixture(t, n))
	}
	var out bytes.Buffer
	v, _ := NewView("plain", &out, Config{CI: CIGitHub, env: renderenv.Env{Now: fixedNow}})
	feedView(t, v, tags, logs)
	cmds, log := simulateRunner(out.String(), false)
	if len(cmds) < 2 || cmds[0].name != "stop-commands" || cmds[len(cmds)-1].name != "resume" {
		t.Fatalf("commands not stopped first and resumed last: %v", cmds)
	}
	stopped := 0
	var annotations []string
	for _, c := range cmds {
		switch c.name {
		case "stop-commands":
			stopped++
		case "resume":
			stopped--
		default:
			annotations = append(annotations, c.name+":"+c.data)
		}
		if stopped < 0 || stopped > 1 {
			t.Fatalf("stop-commands nest: %v", cmds)
		}
	}
	if !slicesContainPrefix(annotations, "error:w: agent run failed") {
		t.Errorf("the failed run's annotation does not name its stream: %q", annotations)
	}
	groups, open := 0, ""
	for _, l := range log {
		switch {
		case strings.HasPrefix(l, "##[group]"):
			if open != "" {
				t.Fatalf("a group opens inside another's: %q", l)
			}
			title := strings.TrimPrefix(l, "##[group]")
			for _, tag := range tags {
				if strings.HasPrefix(title, tag+" ") {
					open = tag
				}
			}
			if open == "" {
				t.Fatalf("a group's title names no stream: %q", l)
			}
			groups++
		case l == "##[endgroup]":
			if open == "" {
				t.Fatalf("an endgroup with no group open")
			}
			open = ""
		case open != "":
			if !strings.HasPrefix(l, open+" ") && !strings.HasPrefix(l, open+"│") {
				t.Fatalf("a line of another stream inside %s's group: %q", open, l)
			}
		}
	}
	if open != "" || groups < 3 {
		t.Errorf("%d groups, %q left open:\n%s", groups, open, out.String())
	}
}

func slicesContainPrefix(ss []string, p string) bool {
	for _, s := range ss {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// TestPlainViewInjection: untrusted content in a lane runs no workflow
// command, whether or not the runner saw stop-commands, and draws no
// group; GitLab section markers in content stay inert.
func TestPlainViewInjection(t *testing.T) {
	t.Parallel()
	for _, ignoreStop := range []bool{false, true} {
		var out bytes.Buffer
		v, _ := NewView("plain", &out, Config{CI: CIGitHub, env: renderenv.Env{Now: fixedNow}})
		evs := injectionEvents()
		a, b := v.Lane(Lane{Tag: "::add-mask::tag"}), v.Lane(Lane{Tag: "b"})
		for i := range evs {
			for _, l := range []Renderer{a, b} {
				if err := l.Handle(&evs[i]); err != nil {
					t.Fatal(err)
				}
			}
		}
		a.Finish(Summary{Outcome: streaming.Failure})
		b.Finish(Summary{Outcome: streaming.Failure})
		v.Finish(false)
		cmds, log := simulateRunner(out.String(), ignoreStop)
		for _, c := range cmds {
			switch c.name {
			case "stop-commands", "resume", "group", "endgroup":
			case "error", "warning":
				// agentfmt's own annotations (tagged, %-escaped: one line).
			default:
				t.Errorf("ignoreStop %v: content ran ::%s::%s", ignoreStop, c.name, c.data)
			}
		}
		for _, m := range viewerMarkup(log) {
			if m != "##[endgroup]" && !strings.HasPrefix(m, "##[group]::add-mask::tag ") && !strings.HasPrefix(m, "##[group]b ") {
				t.Errorf("content drew %q", m)
			}
		}
	}
}

// TestViewRefusesOneRunFormats: text, markdown and html show one run;
// with several streams the view says to use another format.
func TestViewRefusesOneRunFormats(t *testing.T) {
	t.Parallel()
	for _, f := range []string{"text", "markdown", "html"} {
		if _, err := NewView(f, io.Discard, Config{}); err == nil || !strings.Contains(err.Error(), "pretty, plain or json") {
			t.Errorf("-o %s: %v", f, err)
		}
	}
	for _, f := range viewFormats {
		if _, err := NewView(f, io.Discard, Config{env: renderenv.Env{Now: fixedNow}}); err != nil {
			t.Errorf("-o %s: %v", f, err)
		}
	}
}

// TestJSONViewNamesStreams: every event of a json view names its stream,
// and each stream's events are those of its log rendered alone.
func TestJSONViewNamesStreams(t *testing.T) {
	t.Parallel()
	tags := []string{"claude·1a2b", "codex·019f"}
	logs := []string{readFixture(t, laneLogs[0]), readFixture(t, laneLogs[1])}
	var out bytes.Buffer
	v, _ := NewView("json", &out, Config{env: renderenv.Env{Now: fixedNow}})
	feedView(t, v, tags, logs)
	got := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var tag string
		for _, t := range tags {
			if strings.Contains(l, `,"stream":"`+t+`",`) {
				tag = t
			}
		}
		if tag == "" {
			t.Fatalf("an event names no stream: %s", l)
		}
		got[tag] = append(got[tag], strings.Replace(l, `,"stream":"`+tag+`"`, "", 1))
	}
	for i, tag := range tags {
		want := strings.TrimSuffix(renderOne(t, "json", logs[i], Config{env: renderenv.Env{Now: fixedNow}}), "\n")
		if strings.Join(got[tag], "\n") != want {
			t.Errorf("%s: events differ from the log rendered alone", tag)
		}
	}
}

// TestPlainViewIdleLine: a line a stream leaves unfinished is held while
// the stream goes on, shown as a line once the stream has been idle for
// partialWait, and its end then neither repeats it nor leaves an empty
// line.
func TestPlainViewIdleLine(t *testing.T) {
	t.Parallel()
	var out syncBuffer
	v, _ := NewView("plain", &out, Config{env: renderenv.Env{Now: fixedNow, PartialWait: 20 * time.Millisecond}})
	l := v.Lane(Lane{Tag: "a"})
	send := func(text string) {
		if err := l.Handle(&streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Role: streaming.RoleAssistant, Text: text}); err != nil {
			t.Fatal(err)
		}
		l.Flush()
	}
	send("Last words")
	if out.String() != "" {
		t.Fatalf("an unfinished line shown at once: %q", out.String())
	}
	deadline := time.Now().Add(5 * time.Second)
	for out.String() == "" && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if out.String() != "a │ Last words\n" {
		t.Fatalf("after the wait: %q", out.String())
	}
	send("\nNext line\n")
	l.Finish(Summary{Outcome: streaming.Success})
	v.Finish(false)
	if got := out.String(); got != "a │ Last words\na │ Next line\n" {
		t.Errorf("got %q", got)
	}
}
