// Package diffview turns the normalised file edits of a tool call
// (streaming.FileEdit) into the lines of a unified diff: hunks computed
// with go-udiff from the old and new text, or the agent's own diff as it
// came. Each line has a kind, so a renderer colours it (the live terminal
// renderer: - red, + green, @@ dim) without parsing anything.
package diffview

import (
	"strings"

	"github.com/agentfmt/agentfmt/streaming"
	udiff "github.com/aymanbagabas/go-udiff"
)

// Kind is what a diff line is.
type Kind byte

// Line kinds.
const (
	File    Kind = 'f' // the file a group of hunks is about: "path" (op)
	Hunk    Kind = '@' // @@ -a,b +c,d @@
	Context Kind = ' '
	Del     Kind = '-'
	Add     Kind = '+'
	Note    Kind = '~' // "\ No newline at end of file", "(no changes)"
)

// Line is one line of a diff, its marker included for Del, Add and
// Context ("-old", "+new", " same").
type Line struct {
	Kind Kind
	Text string
}

// Context is how many unchanged lines a computed hunk shows around a
// change.
const contextLines = 2

// Lines is the diff of edits, file by file. An edit with old and new text
// gets hunks of its changed region; a new file, every line added; an edit
// that came with a diff, that diff (file headers dropped). Consecutive
// edits of one file (MultiEdit) share one File line.
func Lines(edits []streaming.FileEdit) []Line {
	var out []Line
	last := ""
	for i, e := range edits {
		if i == 0 || e.Path != last {
			out = append(out, Line{File, fileLabel(e)})
			last = e.Path
		} else if e.Diff == "" {
			out = append(out, Line{Hunk, "⋯"}) // the next change of the file
		}
		out = append(out, editLines(e)...)
	}
	return out
}

// fileLabel is "path", "path (new)", "path (deleted)", or for a rename
// "old → new".
func fileLabel(e streaming.FileEdit) string {
	if e.To != "" && e.To != e.Path {
		return e.Path + " → " + e.To
	}
	switch e.Op {
	case streaming.EditCreate:
		return e.Path + " (new)"
	case streaming.EditDelete:
		return e.Path + " (deleted)"
	}
	return e.Path
}

func editLines(e streaming.FileEdit) []Line {
	switch {
	case e.Diff != "":
		return parse(e.Diff)
	case e.Op == streaming.EditDelete:
		var out []Line
		if e.Old != "" { // the deleted file's text, when the agent gave it
			for _, l := range strings.Split(strings.TrimSuffix(e.Old, "\n"), "\n") {
				out = append(out, Line{Del, "-" + l})
			}
		}
		return out
	case e.Old == "" && e.New != "":
		var out []Line
		for _, l := range strings.Split(strings.TrimSuffix(e.New, "\n"), "\n") {
			out = append(out, Line{Add, "+" + l})
		}
		return out
	case e.Old == "" && e.New == "":
		return nil // the file is named, its change not known (a Codex change list)
	case e.Old == e.New:
		return []Line{{Note, "(no changes)"}}
	}
	old, nw := e.Old, e.New
	if !strings.HasSuffix(old, "\n") || !strings.HasSuffix(nw, "\n") {
		// A fragment of a file: compare it as whole lines.
		old, nw = old+"\n", nw+"\n"
	}
	d, err := udiff.ToUnified("a", "b", old, udiff.Lines(old, nw), contextLines)
	if err != nil {
		return []Line{{Note, err.Error()}}
	}
	// The old text is a piece of the file, not the file: its line numbers
	// would mislead. Hunks are set apart by "⋯" instead.
	var out []Line
	for _, l := range parse(d) {
		if l.Kind == Hunk {
			if len(out) > 0 {
				out = append(out, Line{Hunk, "⋯"})
			}
			continue
		}
		out = append(out, l)
	}
	return out
}

// parse reads the lines of a unified diff, skipping file headers.
func parse(diff string) []Line {
	var out []Line
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		switch {
		case strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ "),
			strings.HasPrefix(l, "+++ ") && i > 0 && strings.HasPrefix(lines[i-1], "--- "),
			strings.HasPrefix(l, "diff --git "), strings.HasPrefix(l, "index "):
		case strings.HasPrefix(l, "@@"):
			out = append(out, Line{Hunk, l})
		case strings.HasPrefix(l, "-"):
			out = append(out, Line{Del, l})
		case strings.HasPrefix(l, "+"):
			out = append(out, Line{Add, l})
		case strings.HasPrefix(l, `\`), strings.HasPrefix(l, "("):
			out = append(out, Line{Note, l})
		default:
			if !strings.HasPrefix(l, " ") {
				l = " " + l
			}
			out = append(out, Line{Context, l})
		}
	}
	return out
}

// Stat counts the added and removed lines of a diff.
func Stat(lines []Line) (add, del int) {
	for _, l := range lines {
		switch l.Kind {
		case Add:
			add++
		case Del:
			del++
		}
	}
	return add, del
}
