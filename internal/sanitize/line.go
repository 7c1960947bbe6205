package sanitize

import "strings"

// Line makes untrusted text one safe line for a diagnostic (agentfmt's
// stderr, which a terminal shows and a CI runner reads): control characters
// are shown as in String, a newline as ␤ and a tab as a space, and the text
// cannot be read as a GitHub Actions workflow command: a ':' that starts it
// (after blanks) and every "##[" get an invisible U+200B (the runner obeys
// "::command::" at the start of a line and "##[" anywhere in it).
func Line(s string) string {
	s = String(s, Options{})
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", "␤", "\t", " ").Replace(s)
	}
	return Inert(s)
}

// zwsp breaks "::" at the start of a line and "##[" without being seen.
const zwsp = "\u200b"

// Inert returns the line s with the GitHub workflow-command syntax broken
// by U+200B: before a first non-blank ':' and inside every "##[".
func Inert(s string) string {
	if strings.Contains(s, "##[") {
		s = strings.ReplaceAll(s, "##[", "##"+zwsp+"[")
	}
	if t := strings.TrimLeft(s, " \t\v\f\u00a0\u3000"); strings.HasPrefix(t, ":") {
		s = s[:len(s)-len(t)] + zwsp + t
	}
	return s
}
