package html

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"html/template"
	"io"
	"strings"
	"sync"
)

//go:embed page.html
var pageTemplate string

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

// page is what the page's parts share: the parsed template, the style
// sheet (the page's own and the code colours) and the Content-Security-
// Policy that allows exactly that style sheet and script, by hash.
type page struct {
	tpl *template.Template
	css string
	csp string
}

var thePage = sync.OnceValue(func() *page {
	p := &page{tpl: template.Must(template.New("page").Parse(pageTemplate))}
	p.css = pageCSS + codeCSS
	// Nothing may load or run but the page's own style sheet and script:
	// no network (default-src 'none'), images only from data: (the
	// thumbnails of images in answers), no inline style attributes, no
	// event handler attributes, no base, no forms.
	p.csp = "default-src 'none'; img-src data:; style-src " + hash(p.css) +
		"; script-src " + hash(pageJS) + "; base-uri 'none'; form-action 'none'"
	return p
})

// hash is a CSP source for an inline element's text.
func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// headData fills the "head" template.
type headData struct {
	CSP   string
	Title string
	CSS   template.CSS
	JS    template.JS
}

// esc escapes a text for an element's content: the text shown as it is,
// never markup. (html/template would escape it too, but it also writes
// '+' and '"' as entities, which makes pages and their golden files
// harder to read.)
func esc(s string) template.HTML {
	if !strings.ContainsAny(s, "&<>") {
		return template.HTML(s)
	}
	return template.HTML(escaper.Replace(s))
}

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func (p *page) exec(w io.Writer, name string, data any) error {
	return p.tpl.ExecuteTemplate(w, name, data)
}
