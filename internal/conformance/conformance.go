// Package conformance holds, per agent, an independent reading of real
// captures: the assistant texts a capture holds and the exit status its
// run calls for. The conformance test (cmd's TestCorpus) renders every
// capture under ../shared/corpus and checks agentfmt's output against it.
//
// The extractors are deliberately simple and separate from the parsers:
// they read the capture with a few gjson paths, so a parser bug does not
// hide itself by being repeated here.
package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
)

// Expect is what a capture should render to.
type Expect struct {
	// Texts are the assistant texts (answers) of the capture; each must
	// appear exactly once in the json output's text.delta concatenation
	// and at least once in plain output. Whitespace-only texts are skipped.
	Texts []string
	// Exit is the exit status the capture's outcome calls for: 0 success,
	// 1 the agent reported failure, 3 the stream ended before the run did.
	Exit int
	// Answer, when not empty, is the final answer as the capture holds it;
	// -o text prints it without its leading blank lines and trailing line
	// ends (see Shown), which json keeps.
	Answer string
}

// Shown is answer as -o text, plain and pretty show it: the blank lines
// before its first line (OpenCode 1.14 begins answers with "\n\n") and the
// line ends after its last left out.
func Shown(answer string) string {
	answer = strings.TrimRight(answer, "\n")
	for {
		i := strings.IndexByte(answer, '\n')
		if i < 0 || strings.TrimSpace(answer[:i]) != "" {
			return answer
		}
		answer = answer[i+1:]
	}
}

// Extractor reads one capture file of its agent.
type Extractor func(data []byte, name string) Expect

var (
	mu         sync.Mutex
	extractors = map[string]Extractor{}
)

// Register adds the extractor for a corpus folder (claude, qwen, codex, …).
func Register(folder string, x Extractor) {
	mu.Lock()
	defer mu.Unlock()
	extractors[folder] = x
}

// Lookup returns the extractor for a corpus folder.
func Lookup(folder string) (Extractor, bool) {
	mu.Lock()
	defer mu.Unlock()
	x, ok := extractors[folder]
	return x, ok
}

// Folders lists the folders with an extractor, sorted.
func Folders() []string {
	mu.Lock()
	defer mu.Unlock()
	var out []string
	for k := range extractors {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// RepoDir finds the repository's folder (the one holding go.mod), walking
// up from the working directory. It returns "" when there is none.
func RepoDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// CorpusDir finds ../shared/corpus beside the repository (RepoDir). It
// returns "" when there is none.
func CorpusDir() string {
	repo := RepoDir()
	if repo == "" {
		return ""
	}
	c := filepath.Join(repo, "..", "shared", "corpus")
	if st, err := os.Stat(c); err == nil && st.IsDir() {
		return c
	}
	return ""
}

// Captures lists the capture files of a corpus folder: *.jsonl, *.json,
// *.ndjson, and *.txt (an agent's stdout and stderr as one file).
func Captures(folder string) []string {
	c := CorpusDir()
	if c == "" {
		return nil
	}
	var out []string
	for _, pat := range []string{"*.jsonl", "*.ndjson", "*.json", "*.txt"} {
		m, _ := filepath.Glob(filepath.Join(c, folder, pat))
		out = append(out, m...)
	}
	sort.Strings(out)
	return out
}

// objects returns the JSON objects of a capture, one per line; blank,
// non-JSON and invalid lines are left out.
func objects(data []byte) []gjson.Result {
	var out []gjson.Result
	for _, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' || !gjson.ValidBytes(line) {
			continue
		}
		out = append(out, gjson.ParseBytes(line))
	}
	return out
}

// documents returns the JSON values of a capture that holds whole
// documents (a pretty-printed object, an array of events, or values one
// after another), an array giving its elements. Lines before the first
// that starts with '{' or '[' (log lines) are skipped, and reading stops
// at the first text that is not JSON (stderr glued after the document).
func documents(data []byte) []gjson.Result {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	for len(data) > 0 {
		t := bytes.TrimLeft(data, " \t\r\n")
		if len(t) > 0 && (t[0] == '{' || t[0] == '[' && jsonArrayStart(t[1:])) {
			data = t
			break
		}
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil
		}
		data = data[i+1:]
	}
	var out []gjson.Result
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return out
		}
		v := gjson.ParseBytes(raw)
		if v.IsArray() {
			out = append(out, v.Array()...)
		} else {
			out = append(out, v)
		}
	}
}

// jsonArrayStart reports what follows a '[' that opens an array: a value
// or the end of the line ("[INFO] …" is a log line).
func jsonArrayStart(rest []byte) bool {
	rest = bytes.TrimLeft(rest, " \t\r")
	return len(rest) == 0 || bytes.IndexByte([]byte("{[\"]\n"), rest[0]) >= 0
}

// onceEach keeps the texts that are not blank and occur once in all of
// them together: a text repeated, or inside another, cannot be checked to
// be shown exactly once.
func onceEach(texts []string) []string {
	all := strings.Join(texts, "\x00")
	var out []string
	for _, t := range texts {
		if strings.TrimSpace(t) != "" && strings.Count(all, t) == 1 {
			out = append(out, t)
		}
	}
	return out
}
