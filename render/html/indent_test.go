package html

import "testing"

// Tool inputs are shown indented, one member per line (issue 24 item 15).
func TestIndentJSON(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"command":"go test ./...","description":"Run"}`:                            "{\n  \"command\": \"go test ./...\",\n  \"description\": \"Run\"\n}",
		`{"todos": [{"content": "a, b: {c}", "status": "done"}], "e": {}, "f": [ ]}`: "{\n  \"todos\": [\n    {\n      \"content\": \"a, b: {c}\",\n      \"status\": \"done\"\n    }\n  ],\n  \"e\": {},\n  \"f\": []\n}",
		`{"q":"say \"hi\", {x}\\"}`:                                                  "{\n  \"q\": \"say \\\"hi\\\", {x}\\\\\"\n}",
		`"just a string"`:                                                            `"just a string"`,
		`[1,2]`:                                                                      "[\n  1,\n  2\n]",
		`{"broken": `:                                                                `{"broken": `,
		`not json {`:                                                                 `not json {`,
	} {
		if got := indentJSON(in); got != want {
			t.Errorf("indentJSON(%s) =\n%s\nwant\n%s", in, got, want)
		}
	}
}
