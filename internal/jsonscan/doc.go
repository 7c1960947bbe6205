// Package jsonscan is agentfmt's one JSON reader: every byte of input
// that is read as JSON is read here, and every JSON string is scanned by
// one function (scanString, sixteen bytes at a time with internal/simd).
//
//   - Valid and Index validate a line (the grammar of gjson.Valid, without
//     its recursion); Index also notes where the top-level fields of an
//     object and its long strings are, in the same pass, for parsers.Line.
//   - Stream validates a value that arrives line by line (a pretty-printed
//     document) and hands on the elements of a top-level array.
//   - AppendCompact validates and compacts a value to one line (-o json).
//   - Fields and Elements walk an object or an array once, skipping the
//     long strings Index noted without a second scan; Value, Unescape and
//     its variants decode values as gjson does.
//
// Its views of memory without a copy are internal/view's, which holds all
// of agentfmt's unsafe code. Package parsers wraps it for its Line, so the
// parsers themselves stay plain Go. Nesting is kept on stacks of its own:
// a line nested millions of levels deep is judged in memory linear in its
// length and never overflows the goroutine stack (gjson.Valid recurses
// once per level: about 6 million levels exhaust Go's 1 GB stack, a fatal
// error no recover can catch). Input is untrusted: every validation of it
// goes through here.
//
// Everything here reads valid JSON as gjson does (the tests hold it to
// gjson and encoding/json); on anything else it stops early, never panics.
package jsonscan
