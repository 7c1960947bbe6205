package html_test

import (
	"crypto/sha256"
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
	xhtml "golang.org/x/net/html"
)

// checkMarkup reads a page with an HTML5 tokenizer, as a browser would,
// and checks that it carries no markup but its own: one <script> and one
// <style> (both in the head, their hashes in the Content-Security-Policy,
// which comes first), no event handler or style attribute, no element
// that loads or embeds anything, links only to http(s), file paths and
// the page's own anchors, images only from data:image/ of a raster type.
func checkMarkup(t reporter, page string) {
	t.Helper()
	z := xhtml.NewTokenizer(strings.NewReader(page))
	var scripts, styles []string
	csp := ""
	in := ""
	for {
		tt := z.Next()
		if tt == xhtml.ErrorToken {
			break
		}
		tok := z.Token()
		switch tt {
		case xhtml.TextToken:
			switch in {
			case "script":
				scripts = append(scripts, tok.Data)
			case "style":
				styles = append(styles, tok.Data)
			}
			continue
		case xhtml.EndTagToken:
			in = ""
			continue
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
		default:
			continue
		}
		in = tok.Data
		switch tok.Data {
		case "script", "style":
			if csp == "" {
				t.Errorf("<%s> before the Content-Security-Policy", tok.Data)
			}
		case "iframe", "object", "embed", "frame", "base", "form", "link", "meta", "svg", "math", "video", "audio", "source", "template":
			if tok.Data == "meta" {
				if attr(tok, "http-equiv") == "Content-Security-Policy" {
					csp = attr(tok, "content")
				}
				continue
			}
			t.Errorf("element <%s> in the page", tok.Data)
		}
		for _, a := range tok.Attr {
			k := strings.ToLower(a.Key)
			switch {
			case strings.HasPrefix(k, "on"), k == "style", k == "srcdoc", k == "formaction", k == "xlink:href":
				t.Errorf("attribute %s=%q on <%s>", a.Key, a.Val, tok.Data)
			case k == "href":
				if scheme := urlScheme(a.Val); scheme != "" && scheme != "http" && scheme != "https" && scheme != "file" {
					t.Errorf("link to %q", a.Val)
				}
			case k == "src":
				if tok.Data != "img" || !(strings.HasPrefix(a.Val, "data:image/png;") || strings.HasPrefix(a.Val, "data:image/jpeg;") ||
					strings.HasPrefix(a.Val, "data:image/gif;") || strings.HasPrefix(a.Val, "data:image/webp;")) {
					t.Errorf("src %q on <%s>", clipS(a.Val), tok.Data)
				}
			}
		}
	}
	if len(scripts) != 1 || len(styles) != 1 {
		t.Fatalf("%d scripts and %d style sheets, want one each", len(scripts), len(styles))
	}
	for what, text := range map[string]string{"script-src": scripts[0], "style-src": styles[0]} {
		sum := sha256.Sum256([]byte(text))
		want := what + " 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if !strings.Contains(csp, want+";") {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP %q does not forbid by default", csp)
	}
}

func attr(tok xhtml.Token, key string) string {
	for _, a := range tok.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

func clipS(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// TestPagesCarryNoForeignMarkup checks every golden fixture's page, the
// hostile one (testdata/html/02-hostile-markup.jsonl) above all.
func TestPagesCarryNoForeignMarkup(t *testing.T) {
	t.Parallel()
	own, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "html", "*.jsonl"))
	fixtures := append([]string(nil), goldenFixtures...)
	for _, f := range own {
		fixtures = append(fixtures, "html/"+filepath.Base(f))
	}
	for _, rel := range fixtures {
		t.Run(rel, func(t *testing.T) {
			p := page(t, fixture(t, rel))
			checkMarkup(t, p)
		})
	}
	t.Run("events", func(t *testing.T) { checkMarkup(t, eventsPage(t, editEvents())) })
}

// TestCheckMarkupCatches makes sure the check above can fail: markup let
// through is reported.
func TestCheckMarkupCatches(t *testing.T) {
	t.Parallel()
	p := page(t, fixture(t, "html/01-answer-tools-markdown.jsonl"))
	for _, bad := range []string{
		`<img src=x onerror="alert(1)">`, `<script>alert(1)</script>`, `<a href="javascript:alert(1)">x</a>`,
		`<iframe src="https://example.com"></iframe>`, `<p style="color:red">x</p>`,
	} {
		ft := &fakeT{}
		func() {
			defer func() { _ = recover() }()
			checkMarkup(ft, strings.Replace(p, "<main>", "<main>"+bad, 1))
		}()
		if !ft.failed {
			t.Errorf("%s not reported", bad)
		}
	}
}

// reporter is what checkMarkup needs of a *testing.T.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// fakeT records a failure instead of failing the test.
type fakeT struct{ failed bool }

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Fatalf(string, ...any) { f.failed = true; panic("fatal") }

// TestSessionTitle: the run's header names a subagent's own transcript
// (session.start's Title), escaped as every other fact.
func TestSessionTitle(t *testing.T) {
	t.Parallel()
	got := eventsPage(t, []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "s1", Title: "subagent <a81c4e2>", CWD: "/work"},
		{Kind: streaming.KindResult, OK: true, Turns: 1},
	})
	if !strings.Contains(got, "<h1>claude · subagent &lt;a81c4e2&gt;</h1>") {
		t.Errorf("the header lacks the subagent: %s", got[strings.Index(got, "<header"):][:200])
	}
}

// urlScheme is the scheme a browser reads in an href, lower-cased, or ""
// for a relative URL, as the WHATWG URL standard parses one: leading and
// trailing C0 controls and spaces stripped, tabs and newlines removed
// anywhere, then a scheme is an ASCII letter followed by letters, digits,
// '+', '-' or '.' up to a ':' ("00aaa#0000:1" is a path and a fragment).
func urlScheme(href string) string {
	href = strings.TrimFunc(href, func(r rune) bool { return r <= ' ' })
	href = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(href)
	for i := 0; i < len(href); i++ {
		c := href[i]
		switch {
		case c == ':' && i > 0:
			return strings.ToLower(href[:i])
		case 'a' <= c|0x20 && c|0x20 <= 'z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return ""
		}
	}
	return ""
}
