package cmd

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/conformance"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/tidwall/gjson"
)

// renderCapture runs agentfmt in-process on a capture.
func renderCapture(t *testing.T, data []byte, args ...string) (string, string, int) {
	t.Helper()
	r := cli{args: args, stdin: bytes.NewReader(data)}.run(t)
	return r.stdout, r.stderr, r.code
}

// jsonTexts concatenates the text of every assistant text.delta.
func jsonTexts(t *testing.T, out string) string {
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	for sc.Scan() {
		line := sc.Bytes()
		if !gjson.ValidBytes(line) {
			t.Fatalf("json output line is not JSON: %q", line)
		}
		v := gjson.ParseBytes(line)
		if v.Get("v").Int() != 1 || !v.Get("kind").Exists() || !v.Get("line").Exists() {
			t.Fatalf("json event lacks v/kind/line: %s", line)
		}
		if v.Get("kind").Str == "text.delta" && v.Get("role").Str != "user" {
			b.WriteString(v.Get("text").Str)
		}
	}
	return b.String()
}

// TestCorpus renders every capture under ../shared/corpus in each format
// and checks the output against what internal/conformance reads of the
// capture on its own: each assistant text as often as the capture holds
// it (json, and pretty through a terminal emulator), every line of it
// (plain), the final answer (text) and the exit status.
func TestCorpus(t *testing.T) {
	t.Parallel()
	dir := conformance.CorpusDir()
	if dir == "" {
		t.Skip("../shared/corpus not found")
	}
	folders, _ := os.ReadDir(dir)
	checked := 0
	for _, f := range folders {
		if !f.IsDir() {
			continue
		}
		folder := f.Name()
		// (Under the race detector every day, every third capture of each
		// folder: each drives the pipeline's goroutines the same way.)
		caps := testenv.RaceSample(conformance.Captures(folder), 3)
		if len(caps) == 0 {
			continue
		}
		extract, ok := conformance.Lookup(folder)
		if !ok {
			t.Errorf("corpus folder %s has captures but no extractor", folder)
			continue
		}
		for _, path := range caps {
			path := path
			t.Run(folder+"/"+filepath.Base(path), func(t *testing.T) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				want := extract(data, filepath.Base(path))
				checkCapture(t, data, want)
			})
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no capture checked")
	}
}

func checkCapture(t *testing.T, data []byte, want conformance.Expect) {
	// json: every text exactly as often as the capture holds it.
	jout, jerr, jcode := renderCapture(t, data, "-o", "json")
	if jcode != want.Exit {
		t.Errorf("json: exit %d, want %d (stderr %q)", jcode, want.Exit, jerr)
	}
	got := jsonTexts(t, jout)
	all := strings.Join(want.Texts, "\x00")
	for _, text := range want.Texts {
		if strings.TrimSpace(text) == "" {
			continue
		}
		if n, m := strings.Count(got, text), strings.Count(all, text); n != m {
			t.Errorf("json: text %q appears %d times, want %d", clipText(text), n, m)
		}
	}

	// plain: every line of every text is shown; no escape or CR bytes.
	pout, perr, pcode := renderCapture(t, data, "-o", "plain", "--color", "never", "--width", "100")
	if pcode != want.Exit {
		t.Errorf("plain: exit %d, want %d (stderr %q)", pcode, want.Exit, perr)
	}
	if i := strings.IndexAny(pout, "\x1b\r"); i >= 0 {
		t.Errorf("plain: raw control byte at %d: %q", i, pout[max(0, i-20):min(len(pout), i+20)])
	}
	for _, text := range want.Texts {
		for _, l := range strings.Split(text, "\n") {
			l = strings.TrimSpace(sanitize.String(l, sanitize.Options{}))
			if l != "" && !strings.Contains(pout, l) {
				t.Errorf("plain: line %q missing", clipText(l))
			}
		}
	}

	// pretty: through a terminal emulator, the final screen and scrollback
	// hold what plain holds, each text as often as the capture has it, and
	// no control sequence but the renderer's own.
	rout, _, rcode := renderCapture(t, data, "-o", "pretty", "--color", "always", "--width", "100")
	if rcode != want.Exit {
		t.Errorf("pretty: exit %d, want %d", rcode, want.Exit)
	}
	if err := vtcheck.Sequences([]byte(rout)); err != nil {
		t.Errorf("pretty: %v", err)
	}
	screen := vtcheck.Screen([]byte(rout), 100)
	if err := vtcheck.SameTextScreen(screen, []byte(pout)); err != nil {
		t.Errorf("pretty vs plain: %v", err)
	}
	rows := vtcheck.Untable(screen)
	joined := vtcheck.Squash(strings.Join(want.Texts, "\x00"))
	for _, text := range want.Texts {
		sq := vtcheck.Squash(sanitize.String(text, sanitize.Options{}))
		if sq == "" || strings.ContainsRune(text, '\u0301') {
			continue
		}
		if n, m := vtcheck.Count(rows, sq), strings.Count(joined, sq); n < 1 || (len(sq) >= 20 && n != m) {
			t.Errorf("pretty: text %q on screen %d times, want %d", clipText(text), n, m)
		}
	}

	// text: the final answer.
	if want.Answer != "" {
		tout, _, _ := renderCapture(t, data, "-o", "text")
		if strings.TrimRight(tout, "\n") != conformance.Shown(want.Answer) {
			t.Errorf("text: got %q, want %q", clipText(tout), clipText(want.Answer))
		}
	}
}

func clipText(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
