package render

import (
	"strconv"

	"github.com/agentfmt/agentfmt/internal/diffview"
	"github.com/agentfmt/agentfmt/internal/palette"
	"github.com/agentfmt/agentfmt/streaming"
)

// editDiff is what a finished tool call shows of its file edits in place
// of its output: the unified diff of the changes, when the call succeeded
// and the changes are known (lines added or removed; edits that only name
// files, a Codex change list, leave the output). The file line is left
// out when the call changes one file that its own line already names.
// ok is false when the output is shown instead.
func editDiff(status streaming.ToolStatus, edits []streaming.FileEdit, subject string) (lines []diffview.Line, add, del int, ok bool) {
	if len(edits) == 0 || status != streaming.ToolOK {
		return nil, 0, 0, false
	}
	all := diffview.Lines(edits)
	add, del = diffview.Stat(all)
	if add+del == 0 {
		return nil, 0, 0, false
	}
	files := 0
	for _, l := range all {
		if l.Kind == diffview.File {
			files++
		}
	}
	// The file is named already by the call's line, unless it is renamed.
	named := files == 1 && edits[0].To == "" && (edits[0].Path == subject || edits[0].Op == streaming.EditModify)
	lines = all[:0:0]
	for _, l := range all {
		if l.Kind == diffview.File && named {
			continue
		}
		lines = append(lines, l)
	}
	return lines, add, del, true
}

// appendDiffStat appends "+3 −1", the lines a diff adds and removes.
func appendDiffStat(b []byte, add, del int) []byte {
	b = strconv.AppendInt(append(b, '+'), int64(add), 10)
	return strconv.AppendInt(append(b, " −"...), int64(del), 10)
}

// diffLines is the diff of a tool call's edits as plain shows it, in
// buf's storage: each line sanitised and coloured by its kind, at most n
// of them (0: all), the head and tail one after the other in lines, the
// first h of them the head, with the number left out between them.
func (p *plainRenderer) diffLines(buf []string, diff []diffview.Line, n int) (lines []string, h, omitted int) {
	lines = buf[:0]
	for _, l := range diff {
		lines = append(lines, styleDiffLine(p.p, l.Kind, p.clean(l.Text)))
	}
	head, omitted, tail := previewLines(lines, n)
	h = len(head)
	return append(head, tail...), h, omitted
}

// styleDiffLine colours a line of a diff by its kind: removed red, added
// green, hunk separators and notes dim, file names bold.
func styleDiffLine(p palette.Palette, k diffview.Kind, s string) string {
	switch k {
	case diffview.File:
		return p.Bold(s)
	case diffview.Hunk, diffview.Note:
		return p.Dim(s)
	case diffview.Del:
		return p.Red(s)
	case diffview.Add:
		return p.Green(s)
	}
	return s
}
