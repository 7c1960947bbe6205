package codex

import (
	"encoding/base64"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// cleanOutput prepares command output for display: Windows line endings
// become \n and invalid UTF-8 is replaced. It is kept whole; renderers cut
// previews.
func cleanOutput(s string) string {
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// mcpOutput is the text of an MCP tool result: its text blocks, images
// summarised, resources by their text or URI, and the structured content
// when there is nothing else.
func mcpOutput(result gjson.Result) string {
	var parts []string
	result.Get("content").ForEach(func(_, c gjson.Result) bool {
		switch c.Get("type").String() {
		case "text":
			parts = append(parts, c.Get("text").String())
		case "image", "audio":
			mt := c.Get("mimeType").String()
			if mt == "" {
				mt = c.Get("mime_type").String()
			}
			parts = append(parts, parsers.ImageSummary(mt, len(c.Get("data").String())))
		case "resource":
			r := c.Get("resource")
			if t := r.Get("text"); t.Exists() {
				parts = append(parts, t.String())
			} else if b := r.Get("blob"); b.Exists() {
				parts = append(parts, parsers.ImageSummary(r.Get("mimeType").String(), len(b.String())))
			} else {
				parts = append(parts, r.Get("uri").String())
			}
		case "resource_link":
			parts = append(parts, c.Get("uri").String())
		default:
			if t := c.Get("text"); t.Type == gjson.String {
				parts = append(parts, t.Str)
			}
		}
		return true
	})
	if len(parts) == 0 {
		for _, k := range []string{"structured_content", "structuredContent"} {
			if s := rawOrEmpty(result.Get(k)); s != "" {
				return s
			}
		}
	}
	return cleanOutput(strings.Join(parts, "\n"))
}

// mcpIsError reports a tool-level error result.
func mcpIsError(result gjson.Result) bool {
	return result.Get("isError").Bool() || result.Get("is_error").Bool()
}

// decodeChunk reads a legacy exec_command_output_delta chunk: base64 text
// in later builds, an array of byte values in early ones.
func decodeChunk(c gjson.Result) []byte {
	switch {
	case c.IsArray():
		var b []byte
		c.ForEach(func(_, v gjson.Result) bool {
			b = append(b, byte(v.Int()))
			return true
		})
		return b
	case c.Type == gjson.String:
		if b, err := base64.StdEncoding.DecodeString(c.Str); err == nil {
			return b
		}
		if b, err := base64.RawStdEncoding.DecodeString(c.Str); err == nil {
			return b
		}
		return []byte(c.Str)
	}
	return nil
}

// holdBack returns how many trailing bytes of b to keep for the next
// chunk: a UTF-8 sequence cut in the middle, or a \r that may start \r\n.
func holdBack(b []byte) int {
	n := len(b)
	if n == 0 {
		return 0
	}
	if b[n-1] == '\r' {
		return 1
	}
	// Find the start of the last rune (at most 3 bytes back).
	for i := n - 1; i >= 0 && i >= n-3; i-- {
		c := b[i]
		if c < 0x80 {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[i:]) {
				return 0
			}
			return n - i
		}
	}
	return 0
}

// chunk sends one legacy output chunk as a tool.output.delta, holding
// back a cut UTF-8 sequence until the next chunk of the same stream.
func (p *parser) chunk(id, stream string, data []byte) error {
	hk := id + "\x00" + stream
	if held := p.chunks[hk]; len(held) > 0 {
		data = append(append([]byte(nil), held...), data...)
		delete(p.chunks, hk)
	}
	if h := holdBack(data); h > 0 {
		p.chunks[hk] = append([]byte(nil), data[len(data)-h:]...)
		data = data[:len(data)-h]
	}
	if len(data) == 0 {
		return nil
	}
	return p.outputDelta(id, cleanOutput(string(data)))
}

// flushCall sends what is held back for one call (at its end).
func (p *parser) flushCall(id string) error {
	for _, stream := range []string{"stdout", "stderr", ""} {
		hk := id + "\x00" + stream
		if held, ok := p.chunks[hk]; ok {
			delete(p.chunks, hk)
			if err := p.outputDelta(id, cleanOutput(string(held))); err != nil {
				return err
			}
		}
	}
	return nil
}

// flushChunks sends everything held back (end of input).
func (p *parser) flushChunks() error {
	if len(p.chunks) == 0 {
		return nil
	}
	keys := make([]string, 0, len(p.chunks))
	for k := range p.chunks {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		id, _, _ := strings.Cut(k, "\x00")
		held := p.chunks[k]
		delete(p.chunks, k)
		if err := p.outputDelta(id, cleanOutput(string(held))); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) outputDelta(id, text string) error {
	if text == "" {
		return nil
	}
	if t := p.open[id]; t != nil {
		t.streamed = true
	}
	ev := p.out.New(streaming.KindToolOutputDelta)
	ev.ID = id
	ev.Text = text
	return p.out.Push()
}
