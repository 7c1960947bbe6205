package codex

import (
	"testing"

	"github.com/tidwall/gjson"
)

func TestErrorText(t *testing.T) {
	for in, want := range map[string]string{
		"plain message": "plain message",
		`{"type":"error","status":400,"error":{"type":"invalid_request_error","message":"bad model"}}`: "invalid_request_error (400): bad model",
		`{"error":{"message":"quota"}}`:          "quota",
		`{"status":503,"message":"unavailable"}`: "HTTP 503: unavailable",
		`{"error":"denied"}`:                     "denied",
		`{"no":"message"}`:                       `{"no":"message"}`,
		`{not json`:                              `{not json`,
	} {
		if got := errorText(in); got != want {
			t.Errorf("errorText(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestJSONHelpers(t *testing.T) {
	if got := jsonObject("a", `1`, "b", "", "c", `"x"`); got != `{"a":1,"c":"x"}` {
		t.Errorf("jsonObject = %s", got)
	}
	if got := jsonObject("a", ""); got != "" {
		t.Errorf("empty jsonObject = %q", got)
	}
}

func TestShellJoin(t *testing.T) {
	args := gjson.Parse(`["bash","-lc","cat 'a b'.txt","", "x=1"]`).Array()
	if got, want := shellJoin(args), `bash -lc 'cat '\''a b'\''.txt' '' x=1`; got != want {
		t.Errorf("shellJoin = %s, want %s", got, want)
	}
}

func TestHoldBack(t *testing.T) {
	for in, want := range map[string]int{"": 0, "abc": 0, "a\r": 1, "caf\xc3": 1, "caf\xc3\xa9": 0, "\xe2\x9c": 2, "\xf0\x9f\x98": 3, "\xf0\x9f\x98\x80": 0, "\x80\x80\x80": 0} {
		if got := holdBack([]byte(in)); got != want {
			t.Errorf("holdBack(%q) = %d, want %d", in, got, want)
		}
	}
}
