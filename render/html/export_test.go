package html

// The embedded stylesheet and script, for the golden tests (package
// html_test) to fold.
var PageCSS, CodeCSS, PageJS = pageCSS, codeCSS, pageJS
