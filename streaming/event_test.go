package streaming

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentfmt/agentfmt/internal/view"
)

// TestCloneSharesNothing fills every string of an event (its fields, and
// those of its slices and pointers) with a view of one buffer, clones the
// event and overwrites the buffer: the clone must not change. A string
// field added to Event and forgotten in Clone fails it.
func TestCloneSharesNothing(t *testing.T) {
	t.Parallel()
	buf := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	var ev Event
	n := 0
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			off := n % 30
			n++
			v.SetString(view.String(buf[off : off+5]))
		case reflect.Struct:
			if v.Type().PkgPath() == "time" {
				return
			}
			for i := 0; i < v.NumField(); i++ {
				fill(v.Field(i))
			}
		case reflect.Slice:
			s := reflect.MakeSlice(v.Type(), 2, 2)
			for i := 0; i < 2; i++ {
				fill(s.Index(i))
			}
			v.Set(s)
		case reflect.Pointer:
			p := reflect.New(v.Type().Elem())
			fill(p.Elem())
			v.Set(p)
		case reflect.Int, reflect.Int64:
			n++
			v.SetInt(int64(n))
		}
	}
	fill(reflect.ValueOf(&ev).Elem())
	c := ev.Clone()
	before, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	for i := range buf {
		buf[i] = '#'
	}
	after, _ := json.Marshal(c)
	if string(before) != string(after) {
		t.Fatalf("the clone changed with the original's memory:\n%s\nwas\n%s", after, before)
	}
	if orig, _ := json.Marshal(ev); string(orig) == string(before) {
		t.Fatal("the buffer was not overwritten under the original")
	}
}
