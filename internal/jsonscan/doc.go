// Package jsonscan is agentfmt's hand-written JSON machinery, in one
// place: Index validates a line and notes where its top-level fields and
// long strings are in the same pass; Fields and Elements walk an object or
// an array once, skipping strings sixteen bytes at a time (internal/simd)
// and the long strings Index noted without a second scan; Unescape and
// its variants decode strings as gjson does, in one allocation or over
// their own text. Its views of memory without a copy are internal/view's,
// which holds all of agentfmt's unsafe code. Package parsers wraps it for
// its Line, so the parsers themselves stay plain Go.
//
// Everything here reads valid JSON as gjson does (the tests hold it to
// gjson); on anything else it stops early, never panics.
package jsonscan
