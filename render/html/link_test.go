package html

import "testing"

func TestLinkOK(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		dest string
		ok   bool
	}{
		{"https://example.com/a?b#c", true},
		{"HTTP://EXAMPLE.COM", true},
		{"file:///home/dev/main.go", true},
		{"/home/dev/main.go", true},
		{"./cmd/main.go", true},
		{"cmd/main.go", true},
		{"#m12", true},
		{"main.go:12", false}, // read as a scheme by browsers: not followed
		{"javascript:alert(1)", false},
		{"JaVaScRiPt:alert(1)", false},
		{"java\tscript:alert(1)", false},
		{" javascript:alert(1)", false},
		{"\x01javascript:alert(1)", false},
		{"data:text/html;base64,PHNjcmlwdD4=", false},
		{"vbscript:msgbox", false},
		{"mailto:a@b.c", false},
		{"ftp://example.com", false},
		{"&#106;avascript:alert(1)", false},
		{"&#x6A;avascript:alert(1)", false},
	} {
		if got := linkOK([]byte(c.dest)); got != c.ok {
			t.Errorf("linkOK(%q) = %v, want %v", c.dest, got, c.ok)
		}
	}
}

func TestImageData(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		dest string
		ok   bool
	}{
		{"data:image/png;base64,iVBORw0KGgo=", true},
		{"data:image/jpeg;base64,/9j/4AAQ", true},
		{"data:image/svg+xml;base64,PHN2Zz4=", false},
		{"data:image/png,rawbytes", false},
		{`data:image/png;base64,AAAA" onerror="x`, false},
		{"data:text/html;base64,PHA+", false},
		{"https://example.com/a.png", false},
	} {
		if _, _, ok := imageData([]byte(c.dest)); ok != c.ok {
			t.Errorf("imageData(%q) = %v, want %v", c.dest, ok, c.ok)
		}
	}
}
