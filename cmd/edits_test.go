package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// TestEditsOnlyWhereShown: the command has the decoder derive file edits
// from tool inputs only for formats that show them (formatShows).
// Every fixture is rendered in every format with edits derived and not:
// a format that says it ignores them must give the same bytes (else it
// reads Event.Edits and must not say so), and every format that shows
// them must differ on some fixture (else the fixtures prove nothing).
func TestEditsOnlyWhereShown(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../testdata/*/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	decode := func(in string, noEdits bool, h streaming.Handler) {
		sess := streaming.NewSession(h, streaming.Options{})
		dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{NoEdits: noEdits}, sess)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
			if err := dec.DecodeBytes([]byte(line), i+1); err != nil {
				break
			}
		}
		_ = dec.Close()
		_ = sess.Close()
	}
	renderWith := func(format, in string, noEdits bool) (string, bool) {
		var out bytes.Buffer
		cfg := render.Config{Width: 100}
		renderenv.Set(&cfg, renderenv.Env{Now: func() time.Time { return at }})
		rend, err := render.New(format, &out, cfg)
		if err != nil {
			t.Fatal(err)
		}
		decode(in, noEdits, rend)
		_ = rend.Finish(render.Summary{})
		return out.String(), formatShows[format].edits
	}
	// Only the fixtures whose decoding derives edits can render otherwise
	// without them.
	inputs := map[string]string{} // fixture: its lines
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		edits := false
		decode(string(in), false, streaming.HandlerFunc(func(ev *streaming.Event) error {
			edits = edits || len(ev.Edits) > 0
			return nil
		}))
		if edits {
			inputs[f] = string(in)
		}
	}
	for _, format := range []string{"plain", "markdown", "text", "json", "pretty", "html"} {
		differs := false
		shows := false
		for f, in := range inputs {
			with, s := renderWith(format, in, false)
			without, _ := renderWith(format, in, true)
			shows = s
			if with != without {
				differs = true
				if !shows {
					t.Errorf("-o %s says it shows no file edits, but %s renders otherwise without them", format, f)
				}
			}
		}
		if shows && !differs {
			t.Errorf("-o %s shows file edits, but no fixture renders otherwise without them", format)
		}
	}
}
