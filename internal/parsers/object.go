package parsers

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Object is a JSON object's fields, found in one pass over its text. A
// parser that reads several fields of one object (a Codex item, say)
// scans it once this way, where each gjson Get scans it again from its
// start, past every long value (a command's output) before the key it
// wants. Get answers as gjson's Get does: the first field of a name, and
// a dotted path goes on below it.
//
// An Object is reused: Reset reads another object into it.
type Object struct {
	Raw  string // the object's JSON text ("" when it is not an object)
	n    int
	more bool // fields past objectMax: Get asks gjson
	keys [objectMax]string
	vals [objectMax]string
}

// objectMax is how many fields an Object holds; the objects parsers read
// field by field have fewer.
const objectMax = 32

// Reset reads raw, a JSON value's text, into o: its fields when it is an
// object (valid JSON, as the decoder's lines are), none otherwise.
func (o *Object) Reset(raw string) *Object {
	o.n, o.more, o.Raw = 0, false, ""
	if t := strings.TrimSpace(raw); t == "" || t[0] != '{' {
		return o
	}
	o.Raw = raw
	for f := FieldsOf(raw); f.Next(); {
		if o.n == objectMax {
			o.more = true
			break
		}
		o.keys[o.n], o.vals[o.n] = f.Key, f.Raw
		o.n++
	}
	return o
}

// IsObject reports whether o holds an object.
func (o *Object) IsObject() bool { return o.Raw != "" }

// raw is the text of the first field key ("" when there is none).
func (o *Object) raw(key string) (string, bool) {
	for i := 0; i < o.n; i++ {
		if o.keys[i] == key {
			return o.vals[i], true
		}
	}
	if o.more {
		if r := gjson.Get(o.Raw, gjson.Escape(key)); r.Exists() {
			return r.Raw, true
		}
	}
	return "", false
}

// Get returns the value at path: a key, or keys joined by dots (a path
// with any other gjson syntax is given to gjson whole).
func (o *Object) Get(path string) gjson.Result {
	if o.Raw == "" {
		return gjson.Result{}
	}
	if !simplePath(path) {
		return gjson.Get(o.Raw, path)
	}
	key, rest, nested := strings.Cut(path, ".")
	v, ok := o.raw(key)
	if !ok {
		return gjson.Result{}
	}
	if nested {
		return gjson.Get(v, rest)
	}
	return Value(v)
}

// Str is the string at path ("" when there is none, or it is not a
// string).
func (o *Object) Str(path string) string {
	if v := o.Get(path); v.Type == gjson.String {
		return v.Str
	}
	return ""
}

// simplePath reports whether path is names of letters, digits, '_' and
// '-' joined by single dots: the paths Get answers itself.
func simplePath(path string) bool {
	prev := byte('.')
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case c == '.':
			if prev == '.' {
				return false
			}
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
		default:
			return false
		}
		prev = c
	}
	return prev != '.'
}
