// Package parsertest runs parsers the way the command does (decoder, then
// session) and collects the events, for table and golden tests.
package parsertest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	// (golden defines -update for every test binary that imports parsertest)
	"github.com/agentfmt/agentfmt/internal/conformance"
	_ "github.com/agentfmt/agentfmt/internal/golden"
	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// Result is what a stream decoded to.
type Result struct {
	Events  []streaming.Event
	Outcome streaming.Outcome
	Reason  string
	Answer  string
	Stats   streaming.Stats
	Err     error
}

// Run decodes input with the given agents (detection as the command does)
// and returns every event the session passed on.
func Run(agents []parsers.Agent, in string) Result {
	return RunOpts(agents, in, parsers.DecoderOptions{}, streaming.Options{})
}

// RunOpts is Run with options.
func RunOpts(agents []parsers.Agent, in string, dopts parsers.DecoderOptions, sopts streaming.Options) Result {
	var res Result
	// The decoder scribbles over each line once its events are handled:
	// whatever the parser or the session keeps of it without a copy shows
	// up as garbage. Events are valid during the call only: the handler
	// keeps copies.
	sess := streaming.NewSession(streaming.HandlerFunc(func(ev *streaming.Event) error {
		e := ev.Clone() // valid during the call only
		res.Events = append(res.Events, e)
		return nil
	}), sopts)
	dopts.Scribble = true
	dec, err := parsers.NewDecoder(agents, dopts, sess)
	if err != nil {
		res.Err = err
		return res
	}
	r := input.NewReader(strings.NewReader(in), 0)
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			res.Err = err
			return res
		}
		if err := dec.Decode(l); err != nil {
			res.Err = err
			return res
		}
	}
	if err := dec.Close(); err != nil {
		res.Err = err
		return res
	}
	if err := sess.Close(); err != nil {
		res.Err = err
	}
	res.Outcome, res.Reason = sess.Outcome()
	res.Answer = sess.FinalAnswer()
	res.Stats = sess.Stats()
	return res
}

// Text concatenates the text of every event of the given kind, in order;
// for text.delta, user prompt echoes are left out.
func (r Result) Text(kind streaming.Kind) string {
	var b strings.Builder
	for _, e := range r.Events {
		if e.Kind == kind && !(kind == streaming.KindTextDelta && e.Role == streaming.RoleUser) {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

// Kinds lists the kinds of the events, for compact assertions.
func (r Result) Kinds() []streaming.Kind {
	ks := make([]streaming.Kind, len(r.Events))
	for i, e := range r.Events {
		ks[i] = e.Kind
	}
	return ks
}

// Of returns the events of one kind.
func (r Result) Of(kind streaming.Kind) []streaming.Event {
	var out []streaming.Event
	for _, e := range r.Events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// Dump renders events one per line in a stable, readable form, for golden
// files of parser output.
func (r Result) Dump() string {
	var b bytes.Buffer
	for _, e := range r.Events {
		fmt.Fprintf(&b, "%d %s", e.Line, e.Kind)
		add := func(k, v string) {
			if v != "" {
				fmt.Fprintf(&b, " %s=%q", k, v)
			}
		}
		add("agent", e.Agent)
		add("msg", e.Message)
		if e.Kind.IsText() || e.Kind == streaming.KindTextRevision || e.Kind == streaming.KindThinkingRevision {
			fmt.Fprintf(&b, " block=%d", e.Block)
		}
		if e.Kind == streaming.KindBlockStop {
			fmt.Fprintf(&b, " block=%d of=%s", e.Block, e.BlockKind)
		}
		add("role", e.Role)
		add("parent", e.Parent)
		add("id", e.ID)
		add("name", e.Name)
		add("title", e.Title)
		add("input", e.Input)
		add("status", string(e.Status))
		if e.ExitCode != nil {
			fmt.Fprintf(&b, " exit=%d", *e.ExitCode)
		}
		if e.DurationMS != 0 {
			fmt.Fprintf(&b, " ms=%d", e.DurationMS)
		}
		add("session", e.SessionID)
		add("model", e.Model)
		add("level", e.Level)
		add("reason", e.Reason)
		add("type", e.Type)
		if e.Kind == streaming.KindResult {
			fmt.Fprintf(&b, " ok=%v turns=%d", e.OK, e.Turns)
		}
		if len(e.Models) > 0 {
			fmt.Fprintf(&b, " models=%q", e.Models)
		}
		add("origin", e.Origin)
		if e.Kind == streaming.KindError {
			fmt.Fprintf(&b, " fatal=%v", e.Fatal)
		}
		if e.Usage != nil {
			fmt.Fprintf(&b, " usage=%+v", *e.Usage)
		}
		for _, p := range e.Entries {
			fmt.Fprintf(&b, " [%s|%s]", p.Status, p.Text)
		}
		add("text", e.Text)
		add("output", e.Output)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "outcome=%s reason=%q\n", r.Outcome, r.Reason)
	return b.String()
}

// Check fails the test when the result has an error.
func (r Result) Check(t testing.TB) Result {
	t.Helper()
	if r.Err != nil {
		t.Fatalf("decode: %v", r.Err)
	}
	return r
}

// Fixtures lists the fixtures testdata/<folder>/*.jsonl of the repository.
func Fixtures(t testing.TB, folder string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(conformance.RepoDir(), "testdata", folder, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in testdata/%s: %v", folder, err)
	}
	return files
}

// Golden runs every fixture of folder through agents alone (decoder and
// session): no error, and some events. What the events are is pinned by
// the fixture's .json golden, which cmd's TestGolden writes and checks.
func Golden(t *testing.T, agents []parsers.Agent, folder string) {
	for _, f := range Fixtures(t, folder) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if r := Run(agents, string(in)).Check(t); len(r.Events) == 0 {
				t.Errorf("no events")
			}
			if _, err := os.Stat(strings.TrimSuffix(f, ".jsonl") + ".json"); err != nil {
				t.Errorf("no .json golden beside the fixture (go test ./cmd -run TestGolden -update writes it): %v", err)
			}
		})
	}
}

// SeedFixtures adds each fixture of testdata/<folder>, whole and line by
// line, to a fuzz target's seed corpus.
func SeedFixtures(f *testing.F, folder string) {
	for _, file := range Fixtures(f, folder) {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
		for _, line := range strings.Split(string(b), "\n") {
			f.Add(line)
		}
	}
}

// CheckFuzz runs one fuzz input through agents (decoder and session): no
// panic, no error.
func CheckFuzz(t *testing.T, agents []parsers.Agent, in string) {
	r := Run(agents, in)
	if r.Err != nil {
		t.Fatalf("error: %v", r.Err)
	}
}
