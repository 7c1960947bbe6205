package claude

import (
	"slices"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// The one-pass readers give what the gjson reads they replace gave, on
// any valid JSON value (the decoder validates every line).
var readValues = []string{
	`{"input_tokens":16,"cache_creation_input_tokens":11907,"cache_read_input_tokens":58826,"output_tokens":956,"server_tool_use":{"web_search_requests":0}}`,
	`{"output_tokens":5,"server_tool_use":{"input_tokens":1},"input_tokens":7}`,
	`{"input_tokens":"12","output_tokens":1e3,"output_tokens":5,"cache_read_input_tokens":-7,"cache_creation_input_tokens":12345678901234567890}`,
	`{"input_tokens":99999999999999999999,"output_tokens":-123456789012345678,"cache_read_input_tokens":1.5,"cache_creation_input_tokens":true}`,
	`{"input_tokens":-0,"output_tokens":"1e2","cache_read_input_tokens":null,"cache_creation_input_tokens":"x"}`,
	`{ "input_tokens" : 3 , "in\u0070ut_tokens":4, "description":"  a\nb ", "description":"later"}`,
	`{"description":5}`, `{"description":"T\u00e9st \"q\""}`, `{"description":{"a":1}}`, `{}`,
	`[1,2]`, `["Bash","Read"]`, `[ "A" , "", "B" ]`, `["a\"b","c"]`, `["A",{"name":"B"}]`, `[]`, `[[],{}]`,
	`{"#":5}`, `"x"`, `12`, `null`, `true`,
}

func TestUsageOf(t *testing.T) {
	for _, v := range readValues {
		g := gjson.Parse(v)
		want := streaming.Usage{
			InputTokens:      g.Get("input_tokens").Int(),
			OutputTokens:     g.Get("output_tokens").Int(),
			CacheReadTokens:  g.Get("cache_read_input_tokens").Int(),
			CacheWriteTokens: g.Get("cache_creation_input_tokens").Int(),
		}
		line := parsers.NewLine(`{"u":`+v+`}`, 1)
		if got := usageOf(line, line.Get("u").Raw); got != want {
			t.Errorf("usageOf(%s) = %+v, want %+v", v, got, want)
		}
		if got := usageOf(nil, v); got != want {
			t.Errorf("usageOf(nil, %s) = %+v, want %+v", v, got, want)
		}
	}
}

func TestToolTitle(t *testing.T) {
	for _, v := range readValues {
		want := ""
		if v[0] == '{' {
			if d := gjson.Get(v, "description"); d.Type == gjson.String {
				want = oneLine(d.Str)
			}
		}
		if got := toolTitle(nil, v); got != want {
			t.Errorf("toolTitle(%s) = %q, want %q", v, got, want)
		}
	}
}

func TestCountAndStrings(t *testing.T) {
	for _, v := range readValues {
		line := parsers.NewLine(`{"a":`+v+`}`, 1)
		a := line.Get("a")
		if got, want := countOf(line, a), a.Get("#").Int(); got != want {
			t.Errorf("countOf(%s) = %d, want %d", v, got, want)
		}
		var want []string
		for _, e := range a.Array() {
			if e.Type == gjson.String && e.Str != "" {
				want = append(want, e.Str)
			}
		}
		scratch := make([]string, 0, 8)
		got, ok := appendPlainStrings(scratch, a)
		if ok && !slices.Equal(got, want) {
			t.Errorf("appendPlainStrings(%s) = %q, want %q", v, got, want)
		}
		if !ok && (len(got) != 0 || slices.ContainsFunc(scratch[:cap(scratch)], func(s string) bool { return s != "" })) {
			t.Errorf("appendPlainStrings(%s) failed but left %q", v, scratch[:cap(scratch)])
		}
	}
}
