package html_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/filter"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/render/html"
	"github.com/agentfmt/agentfmt/streaming"
)

// page renders data as a page as `agentfmt -o html` does, through the
// packages the command chains (cmd/chain.go) rather than the command:
// every agent's decoder, the session, the filters of a format a person
// reads (chatter hidden, long lines in pieces), the renderer, and the
// session's outcome at the end. set, if any, changes the configuration
// (what --thinking and --tools set). The command's own part, its flags and
// what it adds at the end, is tested in cmd and testdata/cli; TestGolden
// there checks that `-o html` writes these same pages.
func page(t testing.TB, data []byte, set ...func(*render.Config)) string {
	t.Helper()
	var out bytes.Buffer
	if err := renderPage(bytes.NewReader(data), &out, set...); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// renderPage renders the stream in to w as a page (see page).
func renderPage(in io.Reader, w io.Writer, set ...func(*render.Config)) error {
	cfg := render.Config{Width: 100}
	renderenv.Set(&cfg, renderenv.Env{
		Now:  func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) },
		Tick: make(chan time.Time),
	})
	for _, f := range set {
		f(&cfg)
	}
	r := html.New(w, cfg)
	sess := streaming.NewSession(&filtered{head: filter.NewLongLines(filter.NewChatter(r)), r: r}, streaming.Options{})
	dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{Scribble: true}, sess)
	if err != nil {
		return err
	}
	if err := dec.ReadAll(in); err != nil {
		return err
	}
	if err := sess.Close(); err != nil {
		return err
	}
	outcome, reason := sess.Outcome()
	return r.Finish(render.Summary{Outcome: outcome, Reason: reason, Stats: sess.Stats()})
}

// filtered is the renderer behind the filters, as the session sees it:
// the events go through the filters, the session's state to the renderer.
type filtered struct {
	head streaming.Handler
	r    *html.Renderer
}

func (f *filtered) Handle(ev *streaming.Event) error { return f.head.Handle(ev) }

func (f *filtered) UseState(st streaming.State) { f.r.UseState(st) }

// fixture reads a file under ../../testdata.
func fixture(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
