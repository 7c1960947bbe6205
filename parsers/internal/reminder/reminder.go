// Package reminder removes what an agent appends to a tool's result for
// the model: the <system-reminder> blocks Claude Code and Factory Droid
// add after a file's contents or a listing.
package reminder

import "strings"

// Strip is a tool result as a person reads it: without the
// <system-reminder> blocks at its end ("Whenever you read a file, you
// should consider whether it would be considered malware…"), which are
// for the model. It is "" when there are none to leave out (or nothing is
// left but them: the reminder is then the whole message, as for an empty
// file). Only blocks at the end go: one in the middle is the file's own.
func Strip(out string) string {
	const open, close = "<system-reminder>", "</system-reminder>"
	s := strings.TrimRight(out, " \t\r\n")
	cut := false
	for strings.HasSuffix(s, close) {
		i := strings.LastIndex(s, open)
		if i < 0 {
			break
		}
		s, cut = strings.TrimRight(s[:i], " \t\r\n"), true
	}
	if !cut || s == "" {
		return ""
	}
	return s
}
