package parsers

import (
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

func TestStartsOver(t *testing.T) {
	t.Parallel()
	var none StartsOver
	if none.At("") || none.At("a") {
		t.Error("a run that opened nothing starts over")
	}
	var named StartsOver
	named.Opened("") // an opening record with no name: the next named one counts
	named.Opened("a")
	named.Opened("b") // a later step of the same run
	for key, want := range map[string]bool{"a": true, "b": false, "": false} {
		if got := named.At(key); got != want {
			t.Errorf("opened at a: At(%q) = %v, want %v", key, got, want)
		}
	}
	var anyOne StartsOver
	anyOne.OpenedAny()
	if !anyOne.At("") || !anyOne.At("x") {
		t.Error("after OpenedAny, an opening record does not start over")
	}
}

func TestAddUsage(t *testing.T) {
	t.Parallel()
	sum := streaming.Usage{InputTokens: 1, OutputTokens: 2, CacheReadTokens: 3, CacheWriteTokens: 4, CostUSD: 0.5, ContextWindow: 9}
	AddUsage(&sum, streaming.Usage{InputTokens: 10, OutputTokens: 20, CacheReadTokens: 30, CacheWriteTokens: 40, CostUSD: 0.25, HasCost: true, ContextWindow: 7})
	AddUsage(&sum, streaming.Usage{InputTokens: 100})
	want := streaming.Usage{InputTokens: 111, OutputTokens: 22, CacheReadTokens: 33, CacheWriteTokens: 44, CostUSD: 0.75, HasCost: true, ContextWindow: 9}
	if sum != want {
		t.Errorf("sum = %+v, want %+v", sum, want)
	}
}
