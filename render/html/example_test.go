package html_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/render/html"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example renders a few events as a page: one self-contained HTML file,
// written item by item as the events come. (Here only the lines that
// carry the run's words are printed.)
func Example() {
	var page strings.Builder
	r := html.New(&page, render.Config{})
	for _, ev := range []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "s1", Model: "claude-sonnet-4-5", CWD: "/work"},
		{Kind: streaming.KindMessageStart, Message: "m1", Role: streaming.RoleAssistant},
		{Kind: streaming.KindTextDelta, Message: "m1", Role: streaming.RoleAssistant, Text: "The tests **pass**.\n"},
		{Kind: streaming.KindMessageStop, Message: "m1", Role: streaming.RoleAssistant},
		{Kind: streaming.KindResult, OK: true, Turns: 1},
	} {
		if err := r.Handle(&ev); err != nil {
			panic(err)
		}
	}
	if err := r.Finish(render.Summary{Outcome: streaming.Success}); err != nil {
		panic(err)
	}
	for _, line := range strings.Split(page.String(), "\n") {
		if strings.Contains(line, "<title>") || strings.Contains(line, "pass") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// <title>agentfmt · claude · claude-sonnet-4-5</title>
	// <p>The tests <strong>pass</strong>.</p>
}
