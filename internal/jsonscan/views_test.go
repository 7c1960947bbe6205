package jsonscan

import "testing"

// TestOffsetWithin: a part of a string is found where it starts; an equal
// string elsewhere in memory, an empty one, or one that runs past the end
// is not a part of it.
func TestOffsetWithin(t *testing.T) {
	buf := []byte(`{"a":"hello","b":"hello"}`)
	line := View(buf)
	part := line[18:23]
	if off, ok := Offset(line, part); !ok || off != 18 {
		t.Errorf("Offset of a part: %d %v, want 18 true", off, ok)
	}
	other := string([]byte("hello")) // the same text, other memory
	if _, ok := Offset(line, other); ok {
		t.Error("Offset found a string that is not a part of the line")
	}
	if _, ok := Offset(line, ""); ok {
		t.Error("Offset found the empty string")
	}
	if _, ok := Offset(line[:20], line[18:23]); ok {
		t.Error("Offset took a string that runs past the end for a part")
	}
	if !Within(part, buf) || Within(other, buf) || Within("", buf) {
		t.Error("Within disagrees with Offset")
	}
	b := Bytes(View(buf))
	b[2] = 'z'
	if line[2] != 'z' {
		t.Error("Bytes is not a view of the string's memory")
	}
}
