package render

import (
	"bytes"
	"strings"
	"testing"
)

// Annotation data quotes content: its "##[" is broken like any other.
func TestCommandDataEscapesOldSyntax(t *testing.T) {
	t.Parallel()
	if got := commandData("tool failed: ##[error]fake ##[add-mask]x", 200); strings.Contains(got, "##[") {
		t.Errorf("commandData kept ##[: %q", got)
	}
}

// The escaper sees through terminal codes at the start of a line (pretty
// redraws with "\r\x1b[2K"), and the JSON escaper through writes split
// between the '#' and the '['.
func TestEscapersAcrossCodesAndWrites(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	e := &ghEscaper{w: &b, lineStart: true}
	e.Write([]byte("\r\x1b[2K\x1b[1m::error::x\n"))
	if strings.Contains(b.String(), "m::error") {
		t.Errorf("ghEscaper: %q", b.String())
	}
	b.Reset()
	j := &jsonEscaper{w: &b}
	for _, p := range []string{`{"t":"a #`, `#`, `[x] ##[y]"}`} {
		j.Write([]byte(p))
	}
	if want := `{"t":"a ##\u005bx] ##\u005by]"}`; b.String() != want {
		t.Errorf("jsonEscaper: %q, want %q", b.String(), want)
	}
}
