package input

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tidwall/gjson"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

// got is a line as a test compares it.
type got struct {
	text      string
	n         int
	noNewline bool
	skipped   int64
	element   bool
}

func (g got) String() string {
	s := fmt.Sprintf("%d:%q", g.n, g.text)
	if g.noNewline {
		s += " nonl"
	}
	if g.skipped > 0 {
		s += fmt.Sprintf(" skipped=%d", g.skipped)
	}
	if g.element {
		s += " elem"
	}
	return s
}

func readAll(t testing.TB, r io.Reader, max int) ([]got, error) {
	t.Helper()
	rd := NewReader(r, max)
	var out []got
	for i := 0; i < 1e6; i++ {
		l, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, got{string(l.Bytes), l.N, l.NoNewline, l.Skipped, l.Element})
	}
	t.Fatal("reader does not end")
	return nil, nil
}

func TestReaderLines(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		max  int
		want []got
	}{
		{"empty", "", 0, nil},
		{"lines", "a\nb\n", 0, []got{{text: "a", n: 1}, {text: "b", n: 2}}},
		{"crlf", "a\r\nb\r\n", 0, []got{{text: "a", n: 1}, {text: "b", n: 2}}},
		{"lone cr kept inside", "a\rb\n", 0, []got{{text: "a\rb", n: 1}}},
		{"bom at the start of every line", "\xef\xbb\xbf{}\n\xef\xbb\xbfx\r\n\xef\xbb\xbf{\"a\":1}\na\xef\xbb\xbf\n", 0,
			[]got{{text: "{}", n: 1}, {text: "x", n: 2}, {text: `{"a":1}`, n: 3}, {text: "a\xef\xbb\xbf", n: 4}}},
		{"bom and crlf", "\xef\xbb\xbfbanner\r\n{\"a\":1}\r\n", 0, []got{{text: "banner", n: 1}, {text: `{"a":1}`, n: 2}}},
		{"blank lines", "a\n\n\r\n  \nb\n", 0,
			[]got{{text: "a", n: 1}, {text: "", n: 2}, {text: "", n: 3}, {text: "  ", n: 4}, {text: "b", n: 5}}},
		{"last line without newline", "a\nb", 0, []got{{text: "a", n: 1}, {text: "b", n: 2, noNewline: true}}},
		{"last line cr without newline", "a\r", 0, []got{{text: "a", n: 1, noNewline: true}}},
		{"only a newline", "\n", 0, []got{{text: "", n: 1}}},
		{"invalid utf-8 kept", "\xff\xfe\x00\n", 0, []got{{text: "\xff\xfe\x00", n: 1}}},
		{"max: equal kept, longer skipped", "12345\n123456\r\n12345\r\nabc", 5,
			[]got{{text: "12345", n: 1}, {n: 2, skipped: 6}, {text: "12345", n: 3}, {text: "abc", n: 4, noNewline: true}}},
		{"max: last line skipped", "ok\n1234567", 5, []got{{text: "ok", n: 1}, {n: 2, skipped: 7, noNewline: true}}},
		{"max: crlf skipped line counts without its ending", "1234567\r\nok\n", 5, []got{{n: 1, skipped: 7}, {text: "ok", n: 2}}},
		{"info banner is not an array", "[INFO] starting\n{\"a\":1}\n", 0,
			[]got{{text: "[INFO] starting", n: 1}, {text: `{"a":1}`, n: 2}}},
		{"compact array", `[{"a":1},{"b":2}]` + "\n", 0,
			[]got{{text: `{"a":1}`, n: 1, element: true}, {text: `{"b":2}`, n: 1, element: true}}},
		{"compact array with bom, then lines", "\xef\xbb\xbf[{\"a\":1}, {\"b\":2}]\n{\"c\":3}\nbanner", 0,
			[]got{{text: `{"a":1}`, n: 1, element: true}, {text: `{"b":2}`, n: 1, element: true},
				{text: `{"c":3}`, n: 2}, {text: "banner", n: 3, noNewline: true}}},
		{"empty array then lines", "[]\nx\n", 0, []got{{text: "x", n: 2}}},
		{"empty array alone", "[ ]", 0, nil},
		{"pretty-printed array", "[\n  {\n    \"a\": 1\n  },\n  {\"b\": [1,\n 2]}\n]\n", 0,
			[]got{{text: "{\n    \"a\": 1\n  }", n: 2, element: true}, {text: "{\"b\": [1,\n 2]}", n: 5, element: true}}},
		{"pretty-printed array, crlf", "[\r\n  {\"a\": 1},\r\n  {\"b\": 2}\r\n]\r\n", 0,
			[]got{{text: `{"a": 1}`, n: 2, element: true}, {text: `{"b": 2}`, n: 3, element: true}}},
		{"[ then invalid content: the elements so far, then lines", "[\n{\"a\":1}\nnot json\n{\"b\":", 0,
			[]got{{text: `{"a":1}`, n: 2, element: true}, {text: "not json", n: 3}, {text: `{"b":`, n: 4, noNewline: true}}},
		{"[ then NDJSON: the first line an element, then lines", "[\n{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n", 0,
			[]got{{text: `{"a":1}`, n: 2, element: true}, {text: `{"b":2}`, n: 3}, {text: `{"c":3}`, n: 4}}},
		{"lone { then NDJSON: lines", "{\n{\"b\":2}\n{\"c\":3}\n", 0,
			[]got{{text: "{", n: 1}, {text: `{"b":2}`, n: 2}, {text: `{"c":3}`, n: 3}}},
		{"[{ cut off: the element, then the rest", "[{\"type\":\"x\"},\n{\"type\":", 0,
			[]got{{text: `{"type":"x"}`, n: 1, element: true}, {text: `{"type":`, n: 2, noNewline: true}}},
		{"array followed by more lines", "[\n{\"a\":1}\n]\n{\"b\":2}\n", 0,
			[]got{{text: `{"a":1}`, n: 2, element: true}, {text: `{"b":2}`, n: 4}}},
		{"array with a skipped line falls back", "[\n{\"a\":\"0123456789\"}\n]\n", 10,
			[]got{{text: "[", n: 1}, {n: 2, skipped: 18}, {text: "]", n: 3}}},
		{"array on the second line is a line", "x\n[{\"a\":1}]\n", 0, []got{{text: "x", n: 1}, {text: `[{"a":1}]`, n: 2}}},
		// gemini -o json 2>&1: stderr glued to the closing brace.
		{"text glued after a document", "{\n \"a\": 1\n}Ripgrep is not available.\n(node:1) warning\n", 0,
			[]got{{text: "{\n \"a\": 1\n}", n: 1, element: true}, {text: "Ripgrep is not available.", n: 3}, {text: "(node:1) warning", n: 4}}},
		{"text glued after a document, no newline", "{\n \"a\": 1\n}  oops", 0,
			[]got{{text: "{\n \"a\": 1\n}", n: 1, element: true}, {text: "oops", n: 3, noNewline: true}}},
		{"text glued after an array", "[\n{\"a\":1}\n]x\n", 0,
			[]got{{text: `{"a":1}`, n: 2, element: true}, {text: "x", n: 3}}},
		{"a document glued after a document", "{\n \"a\": 1\n}{\"b\":2}\n", 0,
			[]got{{text: "{\n \"a\": 1\n}", n: 1, element: true}, {text: `{"b":2}`, n: 3}}},
		// openclaw agent --json with log lines before the document.
		{"a document after log lines", "Gateway agent failed; falling back\n\n{\n \"payloads\": []\n}\n", 0,
			[]got{{text: "Gateway agent failed; falling back", n: 1}, {text: "", n: 2}, {text: "{\n \"payloads\": []\n}", n: 3, element: true}}},
		{"a document after a [tag] log line", "[agents] security: not sandboxed\n{\n \"payloads\": []\n}\n", 0,
			[]got{{text: "[agents] security: not sandboxed", n: 1}, {text: "{\n \"payloads\": []\n}", n: 2, element: true}}},
		{"a lone { after JSON is a line", "{\"a\":1}\n{\n{\"b\":2}\n", 0,
			[]got{{text: `{"a":1}`, n: 1}, {text: "{", n: 2}, {text: `{"b":2}`, n: 3}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, r := range []struct {
				name string
				r    io.Reader
			}{{"whole", strings.NewReader(c.in)}, {"one byte at a time", iotest.OneByteReader(strings.NewReader(c.in))}} {
				lines, err := readAll(t, r.r, c.max)
				if err != nil {
					t.Fatalf("%s: %v", r.name, err)
				}
				if fmt.Sprint(lines) != fmt.Sprint(c.want) {
					t.Errorf("%s:\n got %v\nwant %v", r.name, lines, c.want)
				}
			}
		})
	}
}

func TestReaderLongLine(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("0123456789abcdef", 5<<20/16) // 5 MiB
	in := "first\n" + `{"data":"` + long + `"}` + "\r\nlast"
	lines, err := readAll(t, strings.NewReader(in), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 3 || lines[1].text != `{"data":"`+long+`"}` || lines[1].n != 2 || lines[2].text != "last" {
		t.Fatalf("got %d lines", len(lines))
	}
}

// TestReaderCRLFAtBufferEdge puts the CR of a CRLF at the last byte of the
// reader's 64 KiB buffer.
func TestReaderCRLFAtBufferEdge(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("x", 64<<10-1)
	in := line + "\r\nnext\n"
	lines, err := readAll(t, strings.NewReader(in), len(line))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || lines[0].text != line || lines[0].skipped != 0 || lines[1].text != "next" {
		t.Errorf("got %v", lines)
	}
	lines, _ = readAll(t, strings.NewReader(in), len(line)-1)
	if len(lines) != 2 || lines[0].skipped != int64(len(line)) || lines[1].text != "next" {
		t.Errorf("max-1: got %v", lines)
	}
}

// endless produces n bytes of 'x' without allocating, then tail.
type endless struct {
	n    int64
	tail string
}

func (e *endless) Read(p []byte) (int, error) {
	if e.n > 0 {
		k := min(int64(len(p)), e.n)
		for i := range p[:k] {
			p[i] = 'x'
		}
		e.n -= k
		return int(k), nil
	}
	if e.tail == "" {
		return 0, io.EOF
	}
	k := copy(p, e.tail)
	e.tail = e.tail[k:]
	return k, nil
}

// TestReaderSkipsWithoutHolding reads a 100 MB line over the limit: it is
// skipped, counted, and never held in memory (the bytes allocated while
// reading it stay far below its size), and the next line is read.
func TestReaderSkipsWithoutHolding(t *testing.T) {
	size := int64(100 << 20)
	if testing.Short() {
		size = 8 << 20
	}
	src := &endless{n: size, tail: "\nafter\n"}
	rd := NewReader(src, 1<<20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	l, err := rd.Next()
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if l.Skipped != size || len(l.Bytes) != 0 || l.N != 1 {
		t.Fatalf("line 1: skipped %d (want %d), %d bytes", l.Skipped, size, len(l.Bytes))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("reading a skipped %d MB line allocated %d MB", size>>20, alloc>>20)
	}
	l, err = rd.Next()
	if err != nil || string(l.Bytes) != "after" || l.N != 2 {
		t.Fatalf("line 2: %q %v", l.Bytes, err)
	}
	if _, err := rd.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("end: %v", err)
	}
}

// TestReaderSkippedFirstLineNoArray: a skipped first line starting with
// "[" does not make the reader read the whole input as an array.
func TestReaderSkippedFirstLineNoArray(t *testing.T) {
	t.Parallel()
	in := "[" + strings.Repeat(" ", 100) + "\n{\"a\":1}\n"
	lines, err := readAll(t, strings.NewReader(in), 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []got{{n: 1, skipped: 101}, {text: `{"a":1}`, n: 2}}
	if fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Errorf("got %v", lines)
	}
}

// failing returns data, then err, and err again on every later read.
type failing struct {
	data string
	err  error
}

func (f *failing) Read(p []byte) (int, error) {
	if f.data != "" {
		n := copy(p, f.data)
		f.data = f.data[n:]
		return n, nil
	}
	return 0, f.err
}

// onceFailing returns data, then err once, then io.EOF (as the command's
// feeder does after a read error or an interrupt).
type onceFailing struct {
	data   string
	err    error
	failed bool
}

func (f *onceFailing) Read(p []byte) (int, error) {
	if f.data != "" {
		n := copy(p, f.data)
		f.data = f.data[n:]
		return n, nil
	}
	if !f.failed {
		f.failed = true
		return 0, f.err
	}
	return 0, io.EOF
}

func TestReaderReadError(t *testing.T) {
	t.Parallel()
	boom := errors.New("disk on fire")
	for _, src := range []io.Reader{&failing{data: "a\npartial", err: boom}, &onceFailing{data: "a\npartial", err: boom}} {
		rd := NewReader(src, 0)
		l, err := rd.Next()
		if err != nil || string(l.Bytes) != "a" {
			t.Fatalf("%T line 1: %q %v", src, l.Bytes, err)
		}
		l, err = rd.Next()
		if err != nil || string(l.Bytes) != "partial" || !l.NoNewline {
			t.Fatalf("%T line 2: %q %v", src, l.Bytes, err)
		}
		if rd.Buffered() == 0 {
			t.Errorf("%T: Buffered 0 with an error waiting", src)
		}
		for i := 0; i < 2; i++ {
			if _, err := rd.Next(); !errors.Is(err, boom) {
				t.Fatalf("%T call %d: err %v, want the read error", src, i, err)
			}
		}
	}
	// An error with nothing read before it.
	rd := NewReader(&failing{err: boom}, 0)
	if _, err := rd.Next(); !errors.Is(err, boom) {
		t.Errorf("err %v", err)
	}
	// An error inside a pretty-printed array: the lines so far, then it.
	rd = NewReader(&onceFailing{data: "[\n{\"a\":1},\n", err: boom}, 0)
	var texts []string
	var err error
	for {
		var l Line
		l, err = rd.Next()
		if err != nil {
			break
		}
		texts = append(texts, string(l.Bytes))
	}
	if !errors.Is(err, boom) || strings.Join(texts, "|") != `{"a":1}` {
		t.Errorf("array then error: %q %v", texts, err)
	}
}

func TestReaderBuffered(t *testing.T) {
	t.Parallel()
	rd := NewReader(strings.NewReader("a\nb\n"), 0)
	if _, err := rd.Next(); err != nil {
		t.Fatal(err)
	}
	if rd.Buffered() == 0 {
		t.Error("Buffered 0 with a line waiting")
	}
	rd.Next()
	if rd.Buffered() != 0 {
		t.Error("Buffered not 0 at the end")
	}
	rd = NewReader(strings.NewReader(`[{"a":1},{"b":2}]`), 0)
	rd.Next()
	if rd.Buffered() == 0 {
		t.Error("Buffered 0 with an element waiting")
	}
}

// expectedLines is the specification the fuzz target checks the reader
// against: the input split at '\n', each line without a leading BOM and
// one trailing '\r'.
func expectedLines(data []byte) [][]byte {
	if len(data) == 0 || bytes.Equal(data, []byte("\xef\xbb\xbf")) {
		return nil
	}
	lines := bytes.Split(data, []byte("\n"))
	if last := lines[len(lines)-1]; len(last) == 0 || bytes.Equal(last, []byte("\xef\xbb\xbf")) {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = bytes.TrimSuffix(bytes.TrimPrefix(l, []byte("\xef\xbb\xbf")), []byte("\r"))
	}
	return lines
}

func checkReader(t *testing.T, data []byte, max int) {
	rd := NewReader(iotest.HalfReader(bytes.NewReader(data)), max)
	want := expectedLines(data)
	var lines []Line
	for {
		l, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		l.Bytes = append([]byte(nil), l.Bytes...)
		lines = append(lines, l)
		if len(lines) > len(data)+1 {
			t.Fatal("more lines than bytes")
		}
	}
	first := 0 // lines of want served as elements
	if len(want) > 0 && (max == 0 || len(want[0]) <= max) && isArrayStart(want[0]) && gjson.ValidBytes(want[0]) {
		// A first line holding a whole array: its elements, then lines.
		n := 0
		gjson.ParseBytes(want[0]).ForEach(func(_, v gjson.Result) bool {
			if n >= len(lines) || !lines[n].Element || lines[n].N != 1 || string(lines[n].Bytes) != v.Raw {
				t.Fatalf("element %d: %+v, want %q", n, lines, v.Raw)
			}
			n++
			return true
		})
		lines, want, first = lines[n:], want[1:], 1
	} else if body := bytes.Join(want, []byte("\n")); len(want) > 0 && isArrayStart(want[0]) &&
		(max == 0 || len(want[0]) <= max) && gjson.ValidBytes(body) && !tooLong(want, max) {
		// A pretty-printed array: its elements, each valid JSON, in order
		// (and the blank lines after it, read as lines).
		lines = dropBlank(lines)
		arr := gjson.ParseBytes(body).Array()
		if len(lines) != len(arr) {
			t.Fatalf("%d elements, want %d", len(lines), len(arr))
		}
		prev := 0
		for i, l := range lines {
			if !l.Element || string(l.Bytes) != arr[i].Raw || l.N < prev {
				t.Fatalf("bad element %+v", l)
			}
			prev = l.N
		}
		return
	}
	if body := bytes.Join(want, []byte("\n")); len(want) > 0 && isObjectStart(want[0]) &&
		gjson.ValidBytes(body) && !tooLong(want, max) {
		// One pretty-printed object: one value.
		lines = dropBlank(lines)
		if len(lines) != 1 || !lines[0].Element || string(lines[0].Bytes) != string(bytes.TrimSpace(body)) {
			t.Fatalf("object read as %+v", lines)
		}
		return
	}
	if first == 0 && len(want) > 0 && (max == 0 || len(want[0]) <= max) && (isArrayStart(want[0]) || isObjectStart(want[0])) ||
		docAfterText(want, max) {
		// A document that is not one value as a whole: elements handed
		// on as they completed (each valid JSON), values, and lines as they
		// came (each the rest of its input line), in order.
		prev := 0
		for _, l := range lines {
			switch {
			case l.N < prev || l.N > len(want):
				t.Fatalf("line numbered %d after %d (%d lines)", l.N, prev, len(want))
			case l.Element:
				if !gjson.ValidBytes(l.Bytes) {
					t.Fatalf("element %q is not JSON", l.Bytes)
				}
			case l.Skipped > 0:
			case !bytes.HasSuffix(want[l.N-1], l.Bytes):
				t.Fatalf("line %d: %q, not the rest of %q", l.N, l.Bytes, want[l.N-1])
			}
			prev = l.N
		}
		return
	}
	// Lines: every byte accounted for, in order; only over-long lines
	// skipped, only the last without a newline.
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d", len(lines), len(want))
	}
	for i, l := range lines {
		if l.N != first+i+1 {
			t.Fatalf("line %d numbered %d", i+1, l.N)
		}
		w := want[i]
		switch {
		case l.Skipped > 0:
			if l.Skipped != int64(len(w)) || len(w) <= max || len(l.Bytes) != 0 {
				t.Fatalf("line %d: skipped %d, want the %d-byte line kept (max %d)", l.N, l.Skipped, len(w), max)
			}
		case !bytes.Equal(l.Bytes, w):
			t.Fatalf("line %d: %q, want %q", l.N, l.Bytes, w)
		case max > 0 && len(w) > max:
			t.Fatalf("line %d: %d bytes kept over max %d", l.N, len(w), max)
		}
		last := i == len(lines)-1
		if l.NoNewline != (last && !bytes.HasSuffix(data, []byte("\n"))) {
			t.Fatalf("line %d: NoNewline %v", l.N, l.NoNewline)
		}
	}
}

// docAfterText reports a lone "{" or "[" line after a text line (blank
// lines between): the reader may read a document from there.
func docAfterText(lines [][]byte, max int) bool {
	text := false
	for _, l := range lines {
		t := bytes.TrimSpace(l)
		switch {
		case max > 0 && len(l) > max:
			text = false
		case len(t) == 0:
		case text && (string(t) == "{" || string(t) == "["):
			return true
		default:
			text = t[0] != '{' && !isArrayStart(t)
		}
	}
	return false
}

func tooLong(lines [][]byte, max int) bool {
	for _, l := range lines {
		if max > 0 && len(l) > max {
			return true
		}
	}
	return false
}

func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"a\nb\n", "a\r\nb", "\xef\xbb\xbf{}\r\n", "\n\n\r\n", "[\n{\"a\":1}\n]\n", `[{"a":1},{"b":2}]`,
		"[INFO] x\n", "[\n{\"a\":\ntrunc", "log\n{\n\"a\": 1\n}glued\n", "1234567890\nab\r\n", "\r\r\n\r", "[]\n[]\n", "\xff\x00\x1b]0;t\x07\n",
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(4))
	}
	f.Fuzz(func(t *testing.T, data []byte, max uint8) {
		checkReader(t, data, int(max))
	})
}

// TestReaderLongLineHeldOnce: a line over OwnedMin is held once. Where
// the system lends a region (see region) it grows there in place: reading
// it allocates next to nothing on the heap (joining it from pieces
// allocated twice its size), and the line after it is read correctly while
// the region is reused. Elsewhere it is joined from pieces, handed over
// (Owned) and not overwritten by the lines after it; reading it allocates
// about twice its size, not the several times growing one buffer would.
func TestReaderLongLineHeldOnce(t *testing.T) {
	t.Run("region", func(t *testing.T) { checkLongLine(t, false) })
	t.Run("pieces", func(t *testing.T) { checkLongLine(t, true) }) // as where there is no region
}

func checkLongLine(t *testing.T, noRegion bool) {
	size := 32 << 20
	src := io.MultiReader(&endless{n: int64(size), tail: "\r\n"}, strings.NewReader("short\nyyyyyyyy\n"),
		&endless{n: int64(size / 2), tail: "\n"}, strings.NewReader("end\n"))
	rd := NewReader(src, 0)
	rd.reg.none = noRegion
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	l, err := rd.Next()
	runtime.ReadMemStats(&after)
	if err != nil || len(l.Bytes) != size || bytes.Count(l.Bytes, []byte("x")) != size {
		t.Fatalf("long line: %d bytes, %v", len(l.Bytes), err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	inRegion := !rd.reg.none
	if (runtime.GOOS == "linux" || runtime.GOOS == "darwin") && !inRegion && !noRegion {
		t.Errorf("no region on %s: the long line was joined from pieces", runtime.GOOS)
	}
	switch {
	case inRegion && (l.Owned || alloc > uint64(size)/4): // (r.buf grows to OwnedMin)
		t.Errorf("a %d MiB line read into the region allocated %d MiB on the heap (owned %v)", size>>20, alloc>>20, l.Owned)
	case !inRegion && (!l.Owned || alloc > uint64(size)*5/2):
		t.Errorf("reading a %d MiB line allocated %d MiB (owned %v)", size>>20, alloc>>20, l.Owned)
	}
	long := l.Bytes
	for _, want := range []string{"short", "yyyyyyyy"} {
		l, err = rd.Next()
		if err != nil || l.Owned || string(l.Bytes) != want {
			t.Fatalf("short line: %q owned %v, %v", l.Bytes, l.Owned, err)
		}
	}
	if !inRegion && bytes.Count(long, []byte("x")) != size {
		t.Errorf("the long line was overwritten by the lines after it")
	}
	// A second long line, in the region the first was in.
	l, err = rd.Next()
	if err != nil || len(l.Bytes) != size/2 || bytes.Count(l.Bytes, []byte("x")) != size/2 {
		t.Fatalf("second long line: %d bytes, %v", len(l.Bytes), err)
	}
	if l, err = rd.Next(); err != nil || string(l.Bytes) != "end" {
		t.Fatalf("last line: %q, %v", l.Bytes, err)
	}
}

// TestReaderElementsOwned: the elements of a JSON array file are owned.
func TestReaderElementsOwned(t *testing.T) {
	t.Parallel()
	rd := NewReader(strings.NewReader(`[{"a":1}]`), 0)
	if l, _ := rd.Next(); !l.Owned || !l.Element {
		t.Errorf("element: %+v", l)
	}
}

// TestReaderLongLineLimitRegion: the region holds the longest line kept
// and its line ending; a longer line is skipped and the region reused.
func TestReaderLongLineLimitRegion(t *testing.T) {
	t.Parallel()
	max := 2 << 20
	src := io.MultiReader(&endless{n: int64(max + 1), tail: "\r\n"}, &endless{n: int64(max), tail: "\r\n"},
		strings.NewReader("a\n"), &endless{n: int64(max - 1), tail: "\r"})
	rd := NewReader(src, max)
	for i, want := range []struct {
		n       int
		skipped int64
	}{{0, int64(max + 1)}, {max, 0}, {1, 0}, {max - 1, 0}} {
		l, err := rd.Next()
		if err != nil || len(l.Bytes) != want.n || l.Skipped != want.skipped {
			t.Fatalf("line %d: %d bytes, skipped %d, %v; want %d, %d", i+1, len(l.Bytes), l.Skipped, err, want.n, want.skipped)
		}
	}
	if _, err := rd.Next(); err != io.EOF {
		t.Fatalf("after the last line: %v", err)
	}
}

// TestBufferedIgnoresAPartialLine: a writer that sent one whole line and
// the start of the next must see the whole line's output at once, so the
// command flushes: Buffered is 0 while only a partial line waits.
func TestBufferedIgnoresAPartialLine(t *testing.T) {
	t.Parallel()
	r := NewReader(strings.NewReader("{\"a\":1}\n{\"b\":"), 0)
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if n := r.Buffered(); n != 0 {
		t.Errorf("Buffered() = %d with only a partial line waiting, want 0", n)
	}
	r = NewReader(strings.NewReader("{\"a\":1}\n{\"b\":2}\n"), 0)
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if n := r.Buffered(); n == 0 {
		t.Errorf("Buffered() = 0 with a whole line waiting")
	}
}

// TestPrettyPrintedObject: a whole input that is one pretty-printed JSON
// object (gemini --output-format json) is one value, and so is each of
// several in a row; an object that is not valid stays lines.
func TestPrettyPrintedObject(t *testing.T) {
	t.Parallel()
	read := func(in string) []Line {
		r := NewReader(strings.NewReader(in), 0)
		var out []Line
		for {
			l, err := r.Next()
			if err != nil {
				return out
			}
			l.Bytes = append([]byte(nil), l.Bytes...)
			out = append(out, l)
		}
	}
	one := read("{\n  \"response\": \"hi\",\n  \"stats\": {}\n}\n")
	if len(one) != 1 || !strings.Contains(string(one[0].Bytes), `"response": "hi"`) || one[0].N != 1 {
		t.Errorf("one object: got %d lines %+v", len(one), one)
	}
	two := read("{\n\"a\":1\n}\n{\n\"b\":2\n}\n")
	if len(two) != 2 || two[1].N != 4 || !two[1].Element {
		t.Errorf("two objects: got %+v, want two values", two)
	}
	bad := read("{\n\"a\":\n")
	if len(bad) != 2 {
		t.Errorf("invalid object: got %d lines, want 2", len(bad))
	}
}

// dropBlank drops the lines of white space only that follow a document.
func dropBlank(lines []Line) []Line {
	var out []Line
	for _, l := range lines {
		if l.Element || len(bytes.TrimSpace(l.Bytes)) > 0 || l.Skipped > 0 {
			out = append(out, l)
		}
	}
	return out
}
