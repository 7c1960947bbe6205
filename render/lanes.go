package render

import (
	"fmt"
	"hash/fnv"
	"io"
	"sync"

	"github.com/agentfmt/agentfmt/internal/palette"
	"github.com/agentfmt/agentfmt/streaming"
)

// Several streams at once (agentfmt --follow A B, agentfmt watch; README,
// "Several agents at once"). Each stream has its own decoder and session, so
// the streaming contract holds per stream; their events meet in one View,
// which gives each stream a lane:
//
//   - pretty: a heading per stream (agent, project, session, state) with
//     the stream's live block under it, in one live region; what a stream
//     finishes goes to the scrollback under its tag (lanes_pretty.go);
//   - plain: every line begins with the stream's tag, in a stable colour
//     when colour is on, as `docker compose logs` does; whole lines only
//     (lanes_plain.go);
//   - json: every event carries "stream".
//
// A lane is a Renderer for one stream's events. Lanes are safe to use from
// one goroutine each, concurrently: the View serialises them, so that the
// events of one call (all the lines a tool call's end writes, a CI group
// with its content) are never cut by another stream's.

// Lane describes one of several streams.
type Lane struct {
	// Tag is the stream's short stable name ("claude·1a2b", a file's
	// name): the plain prefix, the json "stream", the pretty heading.
	Tag string
	// Agent, Project and Session describe the stream when known before
	// its first event (watch knows the session files); the stream's
	// session.start fills what is empty.
	Agent, Project, Session string
	// Saved: the stream is an agent's own session file (watch), whose
	// user may prompt it again: a run that ended waits for a prompt.
	Saved bool
}

// View is where several streams meet: one output, a lane per stream.
type View interface {
	// Lane returns the renderer of one more stream. Its Finish ends that
	// stream's lane (the others go on).
	Lane(l Lane) Renderer
	// Flush writes what is buffered; the command calls it when its
	// input is idle.
	Flush() error
	// Finish ends the output once every lane is finished (or the run is
	// interrupted, when lanes still open are finished as interrupted).
	Finish(interrupted bool) error
}

// viewFormats are the formats that show several streams at once.
var viewFormats = []string{"pretty", "plain", "json", "none"}

// NewView returns the view of several streams in format.
func NewView(format string, w io.Writer, cfg Config) (View, error) {
	cfg = cfg.withDefaults()
	switch format {
	case "json":
		return &jsonView{j: newJSON(ciWriter(format, cfg, w), cfg)}, nil
	case "plain":
		return newPlainView(w, cfg), nil
	case "pretty":
		return newPrettyView(ciWriter(format, cfg, w), cfg), nil
	case "none":
		return noneView{}, nil
	case "text", "markdown", "html":
		return nil, fmt.Errorf("-o %s shows one run: with several streams, use -o pretty, plain or json", format)
	}
	return nil, fmt.Errorf("unknown format %q", format)
}

// tagStyle is the stable colour of a stream's tag: the same tag gets the
// same colour in every run (red and dim are left to errors and chrome).
func tagStyle(p palette.Palette, tag string) func(string) string {
	styles := []func(string) string{p.Cyan, p.Magenta, p.Blue, p.Green, p.Yellow}
	h := fnv.New32a()
	h.Write([]byte(tag))
	return styles[h.Sum32()%uint32(len(styles))]
}

// jsonView is one JSON renderer for every stream; each event carries its
// stream's tag.
type jsonView struct {
	mu sync.Mutex
	j  *jsonRenderer
}

func (v *jsonView) Lane(l Lane) Renderer { return &jsonLane{v: v, tag: l.Tag} }

func (v *jsonView) Flush() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.j.Flush()
}

func (v *jsonView) Finish(bool) error { return v.Flush() }

type jsonLane struct {
	stateless
	headless
	v   *jsonView
	tag string
}

func (l *jsonLane) Handle(ev *streaming.Event) error {
	l.v.mu.Lock()
	defer l.v.mu.Unlock()
	old := ev.Stream
	ev.Stream = l.tag
	err := l.v.j.Handle(ev)
	ev.Stream = old
	return err
}

func (l *jsonLane) Flush() error { return l.v.Flush() }

func (l *jsonLane) Finish(Summary) error { return l.v.Flush() }
