package html

import (
	"bytes"
	"os"
	"testing"

	"github.com/alecthomas/chroma/v2/styles"

	"github.com/agentfmt/agentfmt/internal/golden"
)

// TestCodeCSS: code.css is what chroma makes of the light and dark styles
// (the program embeds it rather than load chroma's styles at start-up);
// -update writes it anew, as after a chroma upgrade.
func TestCodeCSS(t *testing.T) {
	var b bytes.Buffer
	for _, s := range []struct{ media, style string }{
		{"print, (prefers-color-scheme: light)", lightStyle},
		{"screen and (prefers-color-scheme: dark)", darkStyle},
	} {
		b.WriteString("@media " + s.media + " {\n")
		if err := formatter.WriteCSS(&b, styles.Get(s.style)); err != nil {
			t.Fatal(err)
		}
		b.WriteString("}\n")
	}
	// (code.css is an asset, not a golden file: written as it is.)
	if golden.Update() {
		if err := os.WriteFile("code.css", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if b.String() != codeCSS {
		t.Errorf("code.css is not chroma's CSS for %s and %s: go test ./render/html -run TestCodeCSS -update", lightStyle, darkStyle)
	}
}
