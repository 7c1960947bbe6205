package jsonscan

// Stream judges one JSON value that arrives in pieces, without recursion
// and without scanning a byte twice: the input reader feeds it the lines
// of a document that starts with a lone "{" or "[" (a pretty-printed
// file), and learns after each line whether what it holds is still the
// start of a value (More), a whole value (Done) or not JSON (Bad). The
// data passed to Scan grows by appending; every piece must end between
// tokens (the reader adds each line's newline), which is always so, since
// no JSON token spans a line ending.
//
// In a top-level array, Scan notes where each element ends (Elems), so
// the elements can be handed on as they complete instead of at the end.
type Stream struct {
	i     int
	stack []byte // '}' or ']' per open container
	mode  byte   // what is expected next: see the mode constants
	empty bool   // just after '{' or '[': a closing bracket may come
	// elemStart is where the top-level array's current element starts.
	elemStart int
	// Elems are the [start, end) spans of the top-level array's elements
	// completed since the caller last emptied it.
	Elems [][2]int
	// End is where the value ends, once Done.
	End int
	// Glued reports a Bad that came after one whole value: text glued
	// straight after its closing bracket (stderr after a document printed
	// without a newline). The value is data[:End]; the text starts at
	// Rest.
	Glued bool
	// Rest is where the glued text starts, when Glued.
	Rest int
}

// Status is what a Stream knows of its data.
type Status int

// Statuses.
const (
	More Status = iota // the start of a value: more is needed
	Done               // one whole value, ending at End (white space may follow)
	Bad                // not JSON
)

const (
	modeValue = iota // a value
	modeKey          // a key (or '}' when empty)
	modeColon        // ':' after a key
	modeAfter        // ',' or the closing bracket, after a value in a container
	modeDone         // white space only
	modeBad
)

// Scan goes on from where the last call stopped, over data (the same data
// with more appended).
func (s *Stream) Scan(data []byte) Status {
	for s.mode != modeBad {
		i := skipWS(data, s.i)
		s.i = i
		if i == len(data) {
			if s.mode == modeDone {
				return Done
			}
			return More
		}
		c := data[i]
		switch s.mode {
		case modeDone:
			s.mode, s.Glued, s.Rest = modeBad, true, i
		case modeValue:
			if len(s.stack) == 1 && s.stack[0] == ']' && !(s.empty && c == ']') {
				s.elemStart = i
			}
			switch c {
			case '{', '[':
				close := byte('}')
				s.mode = modeKey
				if c == '[' {
					close, s.mode = ']', modeValue
				}
				s.stack = append(s.stack, close)
				s.i, s.empty = i+1, true
				continue
			case ']':
				if !s.empty || len(s.stack) == 0 || s.stack[len(s.stack)-1] != ']' {
					s.mode = modeBad
					continue
				}
				s.stack = s.stack[:len(s.stack)-1]
				s.i = i + 1
			case '"':
				j, ok := scanString(data, i+1)
				if !ok {
					s.mode = modeBad
					continue
				}
				s.i = j
			case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				j, ok := scanNumber(data, i)
				if !ok {
					s.mode = modeBad
					continue
				}
				s.i = j
			case 't', 'f', 'n':
				j, ok := scanLiteral(data, i)
				if !ok {
					s.mode = modeBad
					continue
				}
				s.i = j
			default:
				s.mode = modeBad
				continue
			}
			s.valueEnd()
		case modeKey:
			if c == '}' && s.empty {
				s.stack = s.stack[:len(s.stack)-1]
				s.i = i + 1
				s.valueEnd()
				continue
			}
			j, ok := 0, c == '"'
			if ok {
				j, ok = scanString(data, i+1)
			}
			if !ok {
				s.mode = modeBad
				continue
			}
			s.i, s.mode, s.empty = j, modeColon, false
		case modeColon:
			if c != ':' {
				s.mode = modeBad
				continue
			}
			s.i, s.mode = i+1, modeValue
		case modeAfter:
			end := s.stack[len(s.stack)-1]
			switch c {
			case ',':
				s.i, s.mode = i+1, modeValue
				if end == '}' {
					s.mode = modeKey
				}
			case end:
				s.stack = s.stack[:len(s.stack)-1]
				s.i = i + 1
				s.valueEnd()
			default:
				s.mode = modeBad
			}
		}
	}
	return Bad
}

// valueEnd: a value (scalar or container) ended at s.i.
func (s *Stream) valueEnd() {
	s.empty = false
	switch {
	case len(s.stack) == 0:
		s.mode, s.End = modeDone, s.i
	case len(s.stack) == 1 && s.stack[0] == ']':
		s.Elems = append(s.Elems, [2]int{s.elemStart, s.i})
		s.mode = modeAfter
	default:
		s.mode = modeAfter
	}
}

// Rebase tells the Stream that the caller dropped the first n bytes of its
// data (elements handed on): positions move back by n.
func (s *Stream) Rebase(n int) {
	s.i -= n
	s.elemStart -= n
	s.End -= n
	s.Rest -= n
	for k := range s.Elems {
		s.Elems[k][0] -= n
		s.Elems[k][1] -= n
	}
}
