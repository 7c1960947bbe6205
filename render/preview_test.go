package render

import (
	"reflect"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/sanitize"
)

func cleanPlain(s string) string { return sanitize.String(s, sanitize.Options{}) }

// PreviewText gives what Preview(Lines(clean(out)), n) gives.
func checkPreviewText(t *testing.T, out string, n int) {
	t.Helper()
	wh, wo, wt := previewLines(splitLines(cleanPlain(out)), n)
	gh, gox, gt := previewCleaned(out, n, cleanPlain)
	if len(wt) == 0 {
		wt = nil
	}
	if len(gt) == 0 {
		gt = nil
	}
	if !reflect.DeepEqual(gh, wh) || gox != wo || !reflect.DeepEqual(gt, wt) {
		t.Fatalf("PreviewText(%q, %d) = %q %d %q, want %q %d %q", out, n, gh, gox, gt, wh, wo, wt)
	}
}

var previewSeeds = []string{"", "\n", "\r\n", "\r", "a", "a\n", "a\r\n", "a\r\r\n", "\r\n\n", "a\n\n", "\n\na",
	"1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\r\n", "x\x1b[31my\n\u202ez\n\xff\n4\n5\n6\n7\n8\r",
	strings.Repeat("line of output\n", 40)}

func TestPreviewText(t *testing.T) {
	t.Parallel()
	for _, s := range previewSeeds {
		for n := 0; n < 12; n++ {
			checkPreviewText(t, s, n)
		}
	}
}

func FuzzPreviewText(f *testing.F) {
	for _, s := range previewSeeds {
		f.Add(s, 6)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		checkPreviewText(t, s, n%20)
	})
}
