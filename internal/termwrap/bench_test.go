package termwrap

import (
	"strings"
	"testing"
)

// BenchmarkWrap: the kinds of text the pretty renderer wraps — a long
// prompt of printable ASCII lines (the row-at-a-time way), the same with
// one accented letter per line (the word-by-word way), styled markdown
// (SGR sequences found with IndexByte) and mixed CJK and Latin (UAX #14).
func BenchmarkWrap(b *testing.B) {
	line := "a-0042: ledger compaction caller generation ledger compaction caller generation ledger\n"
	for _, c := range []struct{ name, s string }{
		{"ascii-prompt", strings.Repeat(line, 1000)},
		{"latin-prompt", strings.Repeat(strings.Replace(line, "ledger", "lédger", 1), 1000)},
		{"styled", strings.Repeat("Some \x1b[1mbold\x1b[22m words, \x1b[36mcode\x1b[39m and more words after them. ", 200)},
		{"cjk", strings.Repeat("日本語のテキストとexplorerの混在する文章です。", 200)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			b.ReportAllocs()
			for b.Loop() {
				AppendWrapIndented(nil, c.s, 78, "› ", "  ")
			}
		})
	}
}
