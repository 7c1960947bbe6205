package parsers_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/streaming"
)

// TestReadAll: Decoder.ReadAll reads what the command's reader reads — a
// BOM and CRLF, one JSON array of events spread over lines, a line far
// longer than bufio.Scanner's 64 KiB — and returns a read error.
func TestReadAll(t *testing.T) {
	long := strings.Repeat("x", 200<<10)
	for _, tc := range []struct {
		name, in, answer string
	}{
		{"bom and crlf", "\ufeff" + `{"type":"system","subtype":"init","session_id":"s","model":"m","cwd":"/","tools":[]}` + "\r\n" +
			`{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s"}` + "\r\n", "ok"},
		{"array over lines", "[\n" + `{"type":"system","subtype":"init","session_id":"s","model":"m","cwd":"/","tools":[]},` + "\n" +
			`{"type":"result","subtype":"success","is_error":false,"result":"in an array","session_id":"s"}` + "\n]\n", "in an array"},
		{"long line", `{"type":"system","subtype":"init","session_id":"s","model":"m","cwd":"/","tools":[]}` + "\n" +
			`{"type":"result","subtype":"success","is_error":false,"result":"` + long + `","session_id":"s"}`, long},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sess := streaming.NewSession(streaming.HandlerFunc(func(*streaming.Event) error { return nil }), streaming.Options{})
			dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{}, sess)
			if err != nil {
				t.Fatal(err)
			}
			if err := dec.ReadAll(strings.NewReader(tc.in)); err != nil {
				t.Fatal(err)
			}
			if err := sess.Close(); err != nil {
				t.Fatal(err)
			}
			if o, why := sess.Outcome(); o != streaming.Success || sess.FinalAnswer() != tc.answer {
				t.Errorf("outcome %v (%s), answer of %d bytes, want success and %d bytes", o, why, len(sess.FinalAnswer()), len(tc.answer))
			}
		})
	}
	t.Run("read error", func(t *testing.T) {
		sess := streaming.NewSession(streaming.HandlerFunc(func(*streaming.Event) error { return nil }), streaming.Options{})
		dec, _ := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{}, sess)
		boom := errors.New("boom")
		if err := dec.ReadAll(io.MultiReader(strings.NewReader("{\"type\":\"x\"}\n"), errReader{boom})); !errors.Is(err, boom) {
			t.Errorf("err %v, want boom", err)
		}
	})
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
