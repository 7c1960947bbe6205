package render

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/agentfmt/agentfmt/streaming"
)

// plainView is the plain output of several streams: a Plain renderer per
// stream, each writing into its lane, which hands whole lines to the view
// with the stream's tag before them:
//
//	claude·1a2b │ ● session 1a2b… · claude · claude-sonnet-4-5 · /src/app
//	codex·019f  │ ▸ Bash go test ./...
//	claude·1a2b │ The flaky test waits on a timer; I will give it a fake clock.
//
// A line a stream has not finished (streaming text) waits in its lane,
// so two streams are never mixed in one line; when the stream stays idle
// for partialWait, it is shown as a line of its own (its end, when it
// comes, starts the next line).
//
// CI markers: the view stops GitHub workflow commands once for the whole
// output and resumes them at its end; a lane's annotations resume them for
// their one line through the view (ciMarkers.lane). A tool call's group
// (##[group] … ##[endgroup], GitLab's sections) is written within one event
// of one stream, and the view lets no other stream write meanwhile: groups
// never nest or interleave, and each group's title names its stream.
type plainView struct {
	mu  sync.Mutex
	cfg Config
	out *bufio.Writer
	// ci are the view's own markers, as a single stream's Plain has them:
	// GitHub's stop-commands for the whole output and the escaper of every
	// line written (the tags' too), GitLab's section name prefix.
	ci    ciMarkers
	tagW  int // the widest tag so far: the bars line up
	lanes int
}

// laneBuffer is a lane's own output buffer: it is flushed into the view at
// every idle moment of its stream, and there may be fifty lanes.
const laneBuffer = 16 << 10

func newPlainView(w io.Writer, cfg Config) *plainView {
	v := &plainView{cfg: cfg}
	v.ci, v.out = newCIMarkers(cfg, w)
	return v
}

func (v *plainView) Lane(l Lane) Renderer {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.lanes++
	l.Tag = cleanTag(l.Tag)
	ln := &plainLane{v: v, tag: l.Tag, style: tagStyle(v.cfg.palette, l.Tag), tagW: cells(l.Tag)}
	v.tagW = max(v.tagW, ln.tagW)
	ln.p = newPlain(v.cfg)
	m := ciMarkers{ci: v.cfg.CI, now: v.cfg.env.Now, lane: v, tag: l.Tag}
	if v.cfg.CI == CIGitLab {
		m.prefix = fmt.Sprintf("%s_%d", v.ci.prefix, v.lanes)
	}
	m.w = bufio.NewWriterSize(ln, laneBuffer)
	ln.p.ci, ln.p.w = m, m.w
	return ln
}

// raw writes agentfmt's own marker lines as they are: between whole lines
// of the lanes, never escaped.
func (v *plainView) raw(s string) {
	if v.ci.esc == nil {
		v.out.WriteString(s) // (GitLab's sections: nothing to escape)
		return
	}
	v.ci.raw(s)
}

// command writes a live GitHub workflow command (an annotation of a
// lane), as the view's markers write one.
func (v *plainView) command(cmd string) { v.ci.command(cmd) }

func (v *plainView) Flush() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.out.Flush()
}

// Finish resumes workflow commands (GitHub) and flushes. Every lane has
// been finished.
func (v *plainView) Finish(bool) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.ci.finish()
	return v.out.Flush()
}

// plainLane is one stream of a plainView: its Plain renderer writes here,
// and whole lines go on to the view.
type plainLane struct {
	headless
	v     *plainView
	p     *plainRenderer
	tag   string
	tagW  int
	style func(string) string
	line  []byte // the start of a line whose end has not come
	pre   []byte // the prefix, made for the view's tagW at the time
	preW  int
	// A line left unfinished is shown once its stream has been idle for
	// partialWait (timer): a hung agent's last words are in the log. Its
	// end then starts a line of its own (broken), unless it is only the
	// line's end. wrote is when the line last grew.
	timer  *time.Timer
	wrote  time.Time
	broken bool
}

// partialWait is how long a stream's unfinished line waits for its end
// before it is shown as a line (with one stream, plain shows it at once
// and finishes it in place; with several, lines are whole).
func (v *plainView) partialWait() time.Duration {
	if v.cfg.env.PartialWait > 0 {
		return v.cfg.env.PartialWait
	}
	return time.Second
}

// Write takes what the lane's renderer wrote (the view's lock is held)
// and writes its whole lines to the view, each after the tag.
func (l *plainLane) Write(b []byte) (int, error) {
	n := len(b)
	if l.broken && len(b) > 0 {
		// The end of a line shown unfinished: a newline alone is that
		// line's end, already written.
		l.broken = false
		if b[0] == '\n' {
			b = b[1:]
		}
	}
	if len(b) > 0 {
		l.wrote = time.Now()
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			l.line = append(l.line, b...)
			break
		}
		l.emit(b[:i])
		b = b[i+1:]
	}
	if _, err := l.v.out.Write(nil); err != nil {
		return 0, err
	}
	return n, nil
}

// emit writes the line held in l.line followed by rest, after the tag.
func (l *plainLane) emit(rest []byte) {
	out := l.v.out
	if l.preW != l.v.tagW || l.pre == nil {
		l.preW = l.v.tagW
		l.pre = append(l.pre[:0], l.style(l.tag+strings.Repeat(" ", l.v.tagW-l.tagW))...)
		l.pre = append(l.pre, ' ')
		l.pre = append(l.pre, l.v.cfg.palette.Dim("│")...)
	}
	out.Write(l.pre)
	if len(l.line) > 0 || len(rest) > 0 {
		out.WriteByte(' ')
		out.Write(l.line)
		out.Write(rest)
	}
	out.WriteByte('\n')
	l.line = l.line[:0]
}

func (l *plainLane) Handle(ev *streaming.Event) error {
	l.v.mu.Lock()
	defer l.v.mu.Unlock()
	return l.p.Handle(ev)
}

// Flush writes the lane's whole lines and the view's buffer (a line not
// finished waits for its end).
func (l *plainLane) Flush() error {
	l.v.mu.Lock()
	defer l.v.mu.Unlock()
	if err := l.p.Flush(); err != nil {
		return err
	}
	if len(l.line) > 0 && l.timer == nil {
		l.timer = time.AfterFunc(l.v.partialWait(), l.showPartial)
	}
	return l.v.out.Flush()
}

// showPartial shows the unfinished line once it has waited partialWait
// for its end.
func (l *plainLane) showPartial() {
	l.v.mu.Lock()
	defer l.v.mu.Unlock()
	l.timer = nil
	if len(l.line) == 0 {
		return
	}
	if wait := l.v.partialWait() - time.Since(l.wrote); wait > 0 {
		l.timer = time.AfterFunc(wait, l.showPartial)
		return
	}
	l.emit(nil)
	l.broken = true
	_ = l.v.out.Flush()
}

// Finish ends the stream's lane: its closing lines, and the end of a line
// it left unfinished.
func (l *plainLane) Finish(s Summary) error {
	l.v.mu.Lock()
	defer l.v.mu.Unlock()
	err := l.p.Finish(s)
	if len(l.line) > 0 {
		l.emit(nil)
	}
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	if ferr := l.v.out.Flush(); err == nil {
		err = ferr
	}
	return err
}

// UseState gives the lane's renderer its stream's session state.
func (l *plainLane) UseState(st streaming.State) { l.p.UseState(st) }
