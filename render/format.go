package render

import "strings"

// splitLines splits output into lines, dropping one trailing newline.
func splitLines(s string) []string {
	s = strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// previewLines is the head and tail of output lines: n lines at most, with the
// number left out between them.
func previewLines(lines []string, n int) (head []string, omitted int, tail []string) {
	if n <= 0 || len(lines) <= n {
		return lines, 0, nil
	}
	h := (n + 1) / 2
	t := n - h
	return lines[:h], len(lines) - n, lines[len(lines)-t:]
}

// previewCleaned is Preview(Lines(clean(out)), n) without cleaning or
// splitting the lines that are left out: only the head and tail lines are
// found (from each end) and cleaned. clean must turn a CR before a LF into
// nothing and keep every LF (as the sanitiser does).
func previewCleaned(out string, n int, clean func(string) string) (head []string, omitted int, tail []string) {
	lines, h, omitted := previewText(nil, out, n, clean)
	if omitted == 0 {
		return lines, 0, nil
	}
	return lines[:h:h], omitted, lines[h:]
}

// previewText is PreviewText with the head and tail lines one after the
// other in lines, the first h of them the head, in buf's storage (a
// buffer to reuse).
func previewText(buf []string, out string, n int, clean func(string) string) (lines []string, h, omitted int) {
	// Lines drops one trailing newline; the sanitiser drops the CR of a
	// CRLF.
	if strings.HasSuffix(out, "\n") {
		out = strings.TrimSuffix(out[:len(out)-1], "\r")
		if out == "" {
			return nil, 0, 0
		}
	}
	if out == "" {
		return nil, 0, 0
	}
	lines = buf[:0]
	total := strings.Count(out, "\n") + 1
	if n <= 0 || total <= n {
		for {
			i := strings.IndexByte(out, '\n')
			if i < 0 {
				break
			}
			lines = append(lines, out[:i])
			out = out[i+1:]
		}
		lines = append(lines, out)
		return cleanLines(lines, clean), len(lines), 0
	}
	h = (n + 1) / 2
	for range h {
		i := strings.IndexByte(out, '\n')
		lines = append(lines, out[:i])
		out = out[i+1:]
	}
	lines = append(lines, make([]string, n-h)...)
	for k := n - 1; k >= h; k-- {
		i := strings.LastIndexByte(out, '\n')
		lines[k] = out[i+1:]
		out = out[:i]
	}
	// Every head line ends before a LF; so does every tail line but the
	// last (whose LF, if any, was trimmed above).
	for i := range lines {
		if i < h || i < n-1 {
			lines[i] = strings.TrimSuffix(lines[i], "\r")
		}
		lines[i] = clean(lines[i])
	}
	return lines, h, total - n
}

// cleanLines cleans lines split at LF, each of which but the last ended
// before a LF.
func cleanLines(lines []string, clean func(string) string) []string {
	for i, l := range lines {
		if i < len(lines)-1 {
			l = strings.TrimSuffix(l, "\r")
		}
		lines[i] = clean(l)
	}
	return lines
}
