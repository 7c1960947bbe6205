package parsers

import "testing"

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
