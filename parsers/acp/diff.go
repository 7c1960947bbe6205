package acp

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// diffContext is how many unchanged lines a diff shows around a change.
const diffContext = 2

// diffText renders a {"type":"diff","path","oldText","newText"} item as a
// unified diff of its one changed region (oldText null: a new file).
func diffText(it gjson.Result) string {
	path := it.Get("path").Str
	oldV := it.Get("oldText")
	newText := it.Get("newText").Str
	var b strings.Builder
	if oldV.Type == gjson.Null || !oldV.Exists() {
		b.WriteString("--- /dev/null\n+++ b/" + strings.TrimPrefix(path, "/") + "\n")
		lines := splitLines(newText)
		b.WriteString("@@ -0,0 +1," + strconv.Itoa(len(lines)) + " @@\n")
		for _, s := range lines {
			b.WriteString("+" + s + "\n")
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	a, c := splitLines(oldV.Str), splitLines(newText)
	// The changed region: strip the common head and tail.
	pre := 0
	for pre < len(a) && pre < len(c) && a[pre] == c[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(c)-pre && a[len(a)-1-suf] == c[len(c)-1-suf] {
		suf++
	}
	b.WriteString("--- a/" + strings.TrimPrefix(path, "/") + "\n+++ b/" + strings.TrimPrefix(path, "/") + "\n")
	if pre == len(a) && pre == len(c) {
		b.WriteString("(no changes)")
		return b.String()
	}
	from := max(pre-diffContext, 0)
	aEnd := min(len(a)-suf+diffContext, len(a))
	cEnd := min(len(c)-suf+diffContext, len(c))
	b.WriteString("@@ -" + span(from, aEnd) + " +" + span(from, cEnd) + " @@\n")
	for _, s := range a[from:pre] {
		b.WriteString(" " + s + "\n")
	}
	for _, s := range a[pre : len(a)-suf] {
		b.WriteString("-" + s + "\n")
	}
	for _, s := range c[pre : len(c)-suf] {
		b.WriteString("+" + s + "\n")
	}
	for _, s := range a[len(a)-suf : aEnd] {
		b.WriteString(" " + s + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func span(from, to int) string {
	return strconv.Itoa(from+1) + "," + strconv.Itoa(to-from)
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
