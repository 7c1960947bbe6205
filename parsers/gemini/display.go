package gemini

import "strings"

// shellDisplay is a shell result in a saved chat as a person reads it:
// what the command printed, without the frame Gemini CLI puts around it
// for the model —
//
//	Command: ls -l
//	Directory: (root)
//	Output: total 0
//	Error: (none)
//	Exit Code: 0
//	Signal: 0
//	Background PIDs: (none)
//	Process Group PGID: 26593
//
// (older versions: Stdout: and Stderr: for Output:). An error or stderr
// other than (none) or (empty) stays, on its own line after the output;
// a command that printed nothing reads "(empty)", as the frame says. It is
// "" for an output that is not so framed.
func shellDisplay(out string) string {
	if !strings.HasPrefix(out, "Command: ") {
		return ""
	}
	start := -1
	for _, k := range [...]string{"\nOutput: ", "\nStdout: "} {
		if i := strings.Index(out, k); i >= 0 && (start < 0 || i < start) {
			start = i + len(k)
		}
	}
	if start < 0 {
		return ""
	}
	lines := strings.Split(out[start:], "\n")
	// The fields after the output, one line each, from the end.
	var kept []string
	trailer := 0
	for len(lines) > 1 {
		last := lines[len(lines)-1]
		key := frameKey(last)
		if key == "" {
			break
		}
		if v := strings.TrimSpace(last[len(key):]); (key == "Error: " || key == "Stderr: ") && v != "(none)" && v != "(empty)" && v != "" {
			kept = append([]string{last}, kept...)
		}
		lines = lines[:len(lines)-1]
		trailer++
	}
	if trailer < 2 {
		return "" // not the frame (or not all of it)
	}
	body := strings.Join(lines, "\n")
	if strings.TrimSpace(body) == "(empty)" {
		body = ""
	}
	if len(kept) > 0 {
		if body != "" {
			body += "\n"
		}
		body += strings.Join(kept, "\n")
	}
	if body == "" {
		return "(empty)"
	}
	return body
}

// frameKey is the field of a shell result's frame that line starts, or "".
func frameKey(line string) string {
	for _, k := range [...]string{"Stderr: ", "Error: ", "Exit Code: ", "Signal: ", "Background PIDs: ", "Process Group PGID: "} {
		if strings.HasPrefix(line, k) {
			return k
		}
	}
	return ""
}
