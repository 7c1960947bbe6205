package html_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	stdhtml "html"

	"github.com/agentfmt/agentfmt/internal/conformance"
	_ "github.com/agentfmt/agentfmt/internal/conformance" // the extractors register themselves
	"github.com/agentfmt/agentfmt/internal/testenv"
)

// The browser tests load pages in headless Chromium: the page of every
// real capture under ../shared/corpus, and the hostile fixture. They skip
// when no Chromium is installed (.ci/run installs it when it can);
// AGENTFMT_CHROMIUM names the binary to use. A page costs Chromium about a
// second of CPU, so the everyday run loads two (the hostile fixture and
// one capture); AGENTFMT_SLOW=1 (.ci/run) loads every capture and checks
// the probes.

var (
	browserOnce sync.Once
	browserBin  string
	// browsers limits how many Chromiums run at once.
	browsers = make(chan struct{}, 2)
)

func chromium(t *testing.T) string {
	t.Helper()
	browserOnce.Do(func() {
		if b := os.Getenv("AGENTFMT_CHROMIUM"); b != "" {
			browserBin = b
			return
		}
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless_shell"} {
			if p, err := exec.LookPath(name); err == nil {
				browserBin = p
				return
			}
		}
	})
	if browserBin == "" {
		t.Skip("no Chromium installed (apt-get install chromium, or set AGENTFMT_CHROMIUM): the page is not loaded in a browser")
	}
	return browserBin
}

// loaded is what the browser made of a page: the DOM after its scripts
// ran, and every console message (script errors and Content-Security-
// Policy violations are console messages).
type loaded struct {
	dom     string
	console []string
}

var consoleLine = regexp.MustCompile(`:CONSOLE(?:\(\d+\))?[:\]].*`)

// load opens a page file in headless Chromium.
func load(t *testing.T, page string) loaded {
	t.Helper()
	bin := chromium(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "page.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	browsers <- struct{}{}
	defer func() { <-browsers }()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--disable-extensions", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--enable-logging=stderr", "--v=0", "--dump-dom", "file://"+path)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, tail(errb.String()))
	}
	var l loaded
	l.dom = out.String()
	for _, line := range strings.Split(errb.String(), "\n") {
		if m := consoleLine.FindString(line); m != "" {
			l.console = append(l.console, m)
		}
	}
	if !strings.Contains(l.dom, "</html>") {
		t.Fatalf("no DOM dumped: %s", tail(errb.String()))
	}
	return l
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// ranOwnScript reports that the page's own script ran (it marks <html>
// with the class js): its hash in the Content-Security-Policy is right.
func ranOwnScript(dom string) bool {
	return regexp.MustCompile(`<html[^>]*class="js"`).MatchString(dom)
}

var (
	toolIO  = regexp.MustCompile(`(?s)<pre class="io">.*?</pre>`)
	think   = regexp.MustCompile(`(?s)<details class="item thinking[^"]*"[^>]*>.*?</details>`)
	mdOL    = regexp.MustCompile(`(?m)^[ \t>]*\d+[.)]([ \t]|$)`)
	mdLink  = regexp.MustCompile(`\]\([^)\s]*(?:\s+"[^"]*")?\)`)
	mdFence = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})(.*)$")
)

// pageText is the text a reader sees of the conversation: the DOM's text
// without the tools' input and output (a subagent's answer is also the
// output of the call that started it) and without thinking (which often
// says what the answer then says).
func pageText(dom string) string {
	dom = think.ReplaceAllString(toolIO.ReplaceAllString(dom, " "), " ")
	return stdhtml.UnescapeString(stripTags(dom, " "))
}

// stripTags replaces each tag of s, from a '<' to the next '>', with
// with (as the regular expression <[^>]*> would, in a single pass over
// pages of megabytes).
func stripTags(s, with string) string {
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteString(with)
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// squash keeps the letters and digits of a text: an answer's markdown
// source and its rendering have the same ones, once link destinations,
// fence lines and the numbers of ordered lists are taken out of the
// source.
func squash(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func squashAnswer(s string) string {
	return squash(mdOL.ReplaceAllString(dropFences(mdLink.ReplaceAllString(s, "]")), ""))
}

// dropFences removes the lines that open and close fenced code blocks. A
// fence line inside a block that does not close it ("```yaml" in a
// ```markdown block) is the block's content, shown on the page.
func dropFences(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	open := ""
	for _, l := range lines {
		m := mdFence.FindStringSubmatch(l)
		switch {
		case m == nil:
			out = append(out, l)
		case open == "":
			open = m[1]
		case m[1][0] == open[0] && len(m[1]) >= len(open) && strings.TrimSpace(m[2]) == "":
			open = ""
		default:
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestBrowserCorpus loads the page of every real capture: no console
// message (no script error, no Content-Security-Policy violation), the
// page's own script ran, and every answer of the run is in the page's
// text exactly as often as the capture holds it. The everyday run loads
// the first Claude capture only (TestCorpusAnswersOnce checks every
// page's text without a browser); AGENTFMT_SLOW=1 loads them all.
func TestBrowserCorpus(t *testing.T) {
	t.Parallel()
	chromium(t)
	dir := conformance.CorpusDir()
	if dir == "" {
		t.Skip("../shared/corpus not found")
	}
	folders, _ := os.ReadDir(dir)
	n := 0
	for _, f := range folders {
		extract, ok := conformance.Lookup(f.Name())
		if !f.IsDir() || !ok {
			continue
		}
		for i, path := range conformance.Captures(f.Name()) {
			if !testenv.SlowEnabled() && (f.Name() != "claude" || i > 0) {
				break // everyday: one page
			}
			if testing.Short() && i > 0 {
				break // -short: one capture per folder
			}
			n++
			t.Run(f.Name()+"/"+filepath.Base(path), func(t *testing.T) {
				t.Parallel()
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				want := extract(data, filepath.Base(path))
				p := page(t, data)
				l := load(t, p)
				for _, c := range l.console {
					t.Errorf("console: %s", c)
				}
				if !ranOwnScript(l.dom) {
					t.Errorf("the page's own script did not run")
				}
				checkAnswers(t, l.dom, want)
			})
		}
	}
	if n == 0 {
		t.Fatal("no capture loaded")
	}
}

// TestBrowserHostile loads the page of a run whose answer, prompt,
// thinking, tool call and tool output carry <script>, onerror=,
// javascript: links and </title>: nothing of it runs. Each payload would
// log to the console or mark <body> with data-pwned.
func TestBrowserHostile(t *testing.T) {
	t.Parallel()
	chromium(t)
	p := page(t, fixture(t, "html/02-hostile-markup.jsonl"))
	l := load(t, p)
	for _, c := range l.console {
		t.Errorf("console: %s", c)
	}
	if regexp.MustCompile(`<body[^>]*data-pwned`).MatchString(l.dom) {
		t.Errorf("a payload ran: %s", regexp.MustCompile(`<body[^>]*>`).FindString(l.dom))
	}
	if !ranOwnScript(l.dom) {
		t.Errorf("the page's own script did not run")
	}
	if !strings.Contains(pageText(l.dom), "<script>document.body.setAttribute('data-pwned','script')") {
		t.Errorf("the answer's <script> is not shown as text")
	}
}

// TestBrowserProbe makes sure the probes above can fail: a script slipped
// into the page is refused by its Content-Security-Policy (a console
// message), and without the policy it runs (a console message and the
// body marked).
func TestBrowserProbe(t *testing.T) {
	t.Parallel()
	testenv.Slow(t)
	chromium(t)
	p := page(t, fixture(t, "html/01-answer-tools-markdown.jsonl"))
	payload := `<img src=x onerror="document.body.setAttribute('data-pwned','1');console.log('PWNED')">`
	withCSP := load(t, strings.Replace(p, "<main>", "<main>"+payload, 1))
	if len(withCSP.console) == 0 {
		t.Errorf("an event handler refused by the policy left no console message")
	}
	noCSP := load(t, regexp.MustCompile(`<meta http-equiv="Content-Security-Policy"[^>]*>`).ReplaceAllString(
		strings.Replace(p, "<main>", "<main>"+payload, 1), ""))
	if !regexp.MustCompile(`<body[^>]*data-pwned`).MatchString(noCSP.dom) || len(noCSP.console) == 0 {
		t.Errorf("a script that ran was not seen (console %q)", noCSP.console)
	}
}

// checkAnswers checks that every answer of a capture is in a page's text
// exactly as often as the capture holds it (at least once for short ones,
// which may also be words of the page).
func checkAnswers(t *testing.T, dom string, want conformance.Expect) {
	t.Helper()
	text := squash(pageText(dom))
	var joined []string
	for _, a := range want.Texts {
		joined = append(joined, squashAnswer(a))
	}
	all := strings.Join(joined, "\x00")
	for i, a := range want.Texts {
		sq := joined[i]
		if sq == "" {
			continue
		}
		got, exp := strings.Count(text, sq), strings.Count(all, sq)
		if got < 1 || (len(sq) >= 20 && got != exp) {
			t.Errorf("answer %q is in the page %d times, want %d", clipS(a), got, exp)
		}
	}
}

// TestCorpusAnswersOnce is the text check of TestBrowserCorpus on the
// page as written, without a browser: it runs everywhere.
func TestCorpusAnswersOnce(t *testing.T) {
	t.Parallel()
	dir := conformance.CorpusDir()
	if dir == "" {
		t.Skip("../shared/corpus not found")
	}
	folders, _ := os.ReadDir(dir)
	n := 0
	for _, f := range folders {
		extract, ok := conformance.Lookup(f.Name())
		if !f.IsDir() || !ok {
			continue
		}
		for _, path := range testenv.RaceSample(conformance.Captures(f.Name()), 3) {
			n++
			t.Run(f.Name()+"/"+filepath.Base(path), func(t *testing.T) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				p := page(t, data)
				checkMarkup(t, p)
				checkAnswers(t, p, extract(data, filepath.Base(path)))
			})
		}
	}
	if n == 0 {
		t.Fatal("no capture rendered")
	}
}

// TestScreenshots rewrites the README's pictures of a page, light and
// dark (docs/html-light.png, docs/html-dark.png), when
// AGENTFMT_SCREENSHOTS=1: the page of testdata/html/01-answer-tools-
// markdown.jsonl with its test run's tool call opened, as a reader who
// clicked it sees it.
func TestScreenshots(t *testing.T) {
	t.Parallel()
	if os.Getenv("AGENTFMT_SCREENSHOTS") != "1" {
		t.Skip("set AGENTFMT_SCREENSHOTS=1 to rewrite docs/html-*.png")
	}
	bin := chromium(t)
	p := page(t, fixture(t, "html/01-answer-tools-markdown.jsonl"))
	p = strings.Replace(p, `<details class="item tool ok" id="m5">`, `<details class="item tool ok" id="m5" open>`, 1)
	dir := t.TempDir()
	path := filepath.Join(dir, "page.html")
	if err := os.WriteFile(path, []byte(p), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"light", "dark"} {
		out, err := filepath.Abs(filepath.Join("..", "..", "docs", "html-"+mode+".png"))
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + filepath.Join(dir, mode),
			"--window-size=900,1640", "--screenshot=" + out}
		if mode == "dark" {
			args = append(args, "--force-dark-mode", "--blink-settings=preferredColorScheme=0")
		}
		c := exec.Command(bin, append(args, "file://"+path)...)
		if b, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, tail(string(b)))
		}
		t.Logf("wrote %s", out)
	}
}
