package sessions

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// Gemini CLI keeps one file per session in
// <gemini dir>/tmp/<project id>/chats/session-<time>-<id8>.json (one JSON
// document, up to v0.38) or .jsonl (records appended, v0.39+). <gemini dir>
// is $GEMINI_CLI_HOME/.gemini when that is set, else ~/.gemini. <project
// id> was the SHA-256 of the project's directory (hex) up to v0.28; since
// v0.29 it is a short name that <gemini dir>/projects.json maps the
// directory to, and that <gemini dir>/tmp/<id>/.project_root names the
// directory of. Subagent runs (chats/<parent id>/…) are not sessions of
// their own.

func geminiDir(o Options) string {
	if d := o.getenv("GEMINI_CLI_HOME"); d != "" {
		return filepath.Join(d, ".gemini")
	}
	if o.Home == "" {
		return ""
	}
	return filepath.Join(o.Home, ".gemini")
}

// geminiProjectIDs are the names Dir's folder may have under tmp/ (every
// folder's with All).
func geminiProjectIDs(o Options, gdir string) []string {
	if o.All {
		var ids []string
		ents, _ := os.ReadDir(filepath.Join(gdir, "tmp"))
		for _, e := range ents {
			if e.IsDir() {
				ids = append(ids, e.Name())
			}
		}
		return ids
	}
	return geminiLevelIDs(o, gdir)[0]
}

// geminiLevelIDs are the names the wanted directories' folders may have
// under tmp/, by level.
func geminiLevelIDs(o Options, gdir string) [][]string {
	w := o.want()
	ids := make([][]string, len(w.spellings))
	seen := map[string]bool{}
	add := func(level int, id string) {
		if id != "" && id != "." && id != ".." && !strings.ContainsAny(id, `/\`) && !seen[id] {
			seen[id] = true
			ids[level] = append(ids[level], id)
		}
	}
	registered := make([]bool, len(ids))
	var reg struct {
		Projects map[string]string `json:"projects"`
	}
	if b, err := readSmall(filepath.Join(gdir, "projects.json")); err == nil && json.Unmarshal(b, &reg) == nil {
		for level, sp := range w.spellings {
			for _, d := range sp {
				if id := reg.Projects[d]; id != "" {
					add(level, id)
					registered[level] = true
				}
			}
		}
	}
	for level, sp := range w.spellings {
		for _, d := range sp {
			sum := sha256.Sum256([]byte(d))
			add(level, hex.EncodeToString(sum[:]))
		}
	}
	if slices.Contains(registered, false) {
		// Not in the registry (yet): the folder that says it is the
		// directory's.
		tmp := filepath.Join(gdir, "tmp")
		ents, _ := os.ReadDir(tmp)
		for _, e := range ents {
			if !e.IsDir() {
				continue
			}
			if b, err := readSmall(filepath.Join(tmp, e.Name(), ".project_root")); err == nil {
				if level := o.levelOf(strings.TrimSpace(string(b))); level >= 0 && !registered[level] {
					add(level, e.Name())
				}
			}
		}
	}
	return ids
}

// readSmall reads a small bookkeeping file (at most 4 MiB of it).
func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, os.ErrNotExist
	}
	return io.ReadAll(io.LimitReader(f, 4<<20))
}

func geminiCandidates(o Options) ([]candidate, []string) {
	gdir := geminiDir(o)
	if gdir == "" {
		return nil, nil
	}
	keep := func(name string) bool {
		return strings.HasPrefix(name, "session-") && (strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl"))
	}
	describe := func(c *candidate) (Session, bool) { return describeGemini(c) }
	var cands []candidate
	var searched []string
	levels := [][]string{geminiProjectIDs(o, gdir)}
	if !o.All {
		levels = geminiLevelIDs(o, gdir)
	}
	for level, ids := range levels {
		for _, id := range ids {
			dir := filepath.Join(gdir, "tmp", id, "chats")
			if level == 0 {
				searched = append(searched, dir)
			}
			cands = append(cands, files(Gemini, dir, level, keep, describe)...)
		}
	}
	return cands, searched
}

func describeGemini(c *candidate) (Session, bool) {
	s := c.session()
	h, err := openHead(c.path)
	if err != nil {
		return s, false
	}
	defer h.close()
	line, ok := h.next()
	if !ok {
		return s, false
	}
	if first, ok := record(line); ok && jsonscan.Valid(bytes.TrimSpace(line)) {
		return describeGeminiLines(s, first, h)
	}
	// One pretty-printed document: read it with a decoder, from the top.
	if _, err := h.f.Seek(0, io.SeekStart); err != nil {
		return s, false
	}
	return describeGeminiDoc(s, io.LimitReader(h.f, headBytes))
}

// describeGeminiLines reads the JSONL generation: a header line, then
// message records ("$set" and "$rewindTo" lines change the history; the
// first prompt is what is wanted here).
func describeGeminiLines(s Session, header gjson.Result, h *head) (Session, bool) {
	if header.Get("kind").String() == "subagent" {
		return s, false
	}
	s.ID = header.Get("sessionId").String()
	s.Started = parseTime(header.Get("startTime").String())
	var fallback string
	if msgs := header.Get("messages"); msgs.IsArray() {
		// A whole legacy record on one line.
		msgs.ForEach(func(_, m gjson.Result) bool {
			s.Prompt, fallback = geminiPrompt(m, fallback)
			return s.Prompt == ""
		})
	}
	for s.Prompt == "" {
		line, ok := h.next()
		if !ok {
			break
		}
		r, ok := record(line)
		if !ok || !r.Get("id").Exists() {
			continue
		}
		s.Prompt, fallback = geminiPrompt(r, fallback)
	}
	if s.Prompt == "" {
		s.Prompt = oneLine(fallback)
	}
	return s, s.ID != ""
}

// describeGeminiDoc reads the JSON generation's document up to its first
// prompt.
func describeGeminiDoc(s Session, r io.Reader) (Session, bool) {
	dec := json.NewDecoder(r)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return s, false
	}
	var fallback string
	for (s.Prompt == "" || s.ID == "") && dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		key, _ := t.(string)
		switch key {
		case "sessionId", "startTime", "kind":
			var v string
			if dec.Decode(&v) != nil {
				break
			}
			switch key {
			case "sessionId":
				s.ID = v
			case "startTime":
				s.Started = parseTime(v)
			case "kind":
				if v == "subagent" {
					return s, false
				}
			}
		case "messages":
			if t, err := dec.Token(); err != nil || t != json.Delim('[') {
				break
			}
			for dec.More() {
				var m json.RawMessage
				if dec.Decode(&m) != nil {
					return finishGemini(s, fallback)
				}
				if s.Prompt == "" {
					s.Prompt, fallback = geminiPrompt(gjson.ParseBytes(m), fallback)
				} else if s.ID != "" {
					return finishGemini(s, fallback)
				}
			}
			if _, err := dec.Token(); err != nil { // ]
				return finishGemini(s, fallback)
			}
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return finishGemini(s, fallback)
			}
		}
	}
	return finishGemini(s, fallback)
}

func finishGemini(s Session, fallback string) (Session, bool) {
	if s.Prompt == "" {
		s.Prompt = oneLine(fallback)
	}
	return s, s.ID != ""
}

// geminiPrompt returns the prompt of a user message, or keeps a fallback (a
// slash command) when it is one.
func geminiPrompt(m gjson.Result, fallback string) (prompt, fb string) {
	if m.Get("type").String() != "user" {
		return "", fallback
	}
	text := geminiText(m.Get("displayContent"))
	if text == "" {
		text = geminiText(m.Get("content"))
	}
	switch {
	case text == "", strings.HasPrefix(text, "<session_context>"), strings.HasPrefix(text, "<hook_context>"):
		return "", fallback
	case strings.HasPrefix(text, "/") || strings.HasPrefix(text, "?"):
		if fallback == "" {
			fallback = text
		}
		return "", fallback
	}
	return oneLine(text), fallback
}

// geminiText is a content's text: a string or a Part array.
func geminiText(c gjson.Result) string {
	if c.Type == gjson.String {
		return strings.TrimSpace(c.String())
	}
	var parts []string
	c.ForEach(func(_, p gjson.Result) bool {
		if t := p.Get("text"); t.Type == gjson.String {
			parts = append(parts, t.String())
		}
		return true
	})
	return strings.TrimSpace(strings.Join(parts, " "))
}
