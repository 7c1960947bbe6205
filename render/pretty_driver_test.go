package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/palette"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/streaming"
)

// driver feeds events through a real Session into a pretty renderer (and,
// for comparisons, a plain one), with a clock and redraw ticks under the
// test's control.
type driver struct {
	t     testing.TB
	now   time.Time
	tick  chan time.Time
	out   bytes.Buffer
	pr    *prettyRenderer
	sess  *streaming.Session
	plain bytes.Buffer
	pl    *plainRenderer
	psess *streaming.Session

	every int // a tick after every n events (0: only explicit ticks)
	n     int

	// texts records the assistant text of each top-level and subagent
	// block as pushed, to check it on the emulated screen.
	texts map[string]*strings.Builder
	order []string
	tools []string
}

var epoch = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

func newDriver(t testing.TB, cfg Config) *driver {
	d := &driver{t: t, now: epoch, tick: make(chan time.Time, 1), texts: map[string]*strings.Builder{}}
	if cfg.Width == 0 {
		cfg.Width = 80
	}
	if cfg.Height == 0 {
		cfg.Height = 24
	}
	if cfg.palette.Dim == nil {
		cfg.palette = palette.New(true)
	}
	cfg.env.Now = func() time.Time { return d.now }
	cfg.env.Tick = d.tick
	r, err := New("pretty", &d.out, cfg)
	if err != nil {
		t.Fatal(err)
	}
	d.pr = r.(*prettyRenderer)
	d.sess = streaming.NewSession(d.pr, streaming.Options{})
	pcfg := cfg
	pcfg.Color, pcfg.palette = false, palette.Palette{}
	pr, _ := New("plain", &d.plain, pcfg)
	d.pl = pr.(*plainRenderer)
	d.psess = streaming.NewSession(d.pl, streaming.Options{})
	return d
}

func (d *driver) push(ev streaming.Event) {
	d.t.Helper()
	d.pushAs(streaming.Delta, ev)
}

// pushAs is push for an event its parser hands over as mode says.
func (d *driver) pushAs(mode streaming.Mode, ev streaming.Event) {
	d.t.Helper()
	if ev.Kind == streaming.KindTextDelta && ev.Role != streaming.RoleUser && mode == streaming.Delta {
		key := ev.Message + "/" + string(rune('0'+ev.Block))
		b := d.texts[key]
		if b == nil {
			b = &strings.Builder{}
			d.texts[key] = b
			d.order = append(d.order, key)
		}
		b.WriteString(ev.Text)
	}
	if ev.Kind == streaming.KindToolStart {
		d.tools = append(d.tools, ev.Name)
	}
	pe := ev
	if err := d.sess.PushAs(mode, &ev); err != nil {
		d.t.Fatal(err)
	}
	if err := d.psess.PushAs(mode, &pe); err != nil {
		d.t.Fatal(err)
	}
	d.n++
	if d.every > 0 && d.n%d.every == 0 {
		d.tickNow()
	}
}

// tickNow delivers one redraw tick; the next Handle or Flush draws.
func (d *driver) tickNow() {
	select {
	case d.tick <- d.now:
	default:
	}
}

// frame draws a frame now.
func (d *driver) frame() {
	d.tickNow()
	if err := d.pr.Flush(); err != nil {
		d.t.Fatal(err)
	}
}

func (d *driver) advance(dt time.Duration) { d.now = d.now.Add(dt) }

// stream pushes text as one delta per rune.
func (d *driver) stream(kind streaming.Kind, msg, text string) {
	for _, r := range text {
		d.push(streaming.Event{Kind: kind, Message: msg, Text: string(r)})
	}
}

// streamChunks pushes text in chunks of n bytes (may split runes).
func (d *driver) streamChunks(kind streaming.Kind, msg, parent, text string, n int) {
	for len(text) > 0 {
		k := min(n, len(text))
		d.push(streaming.Event{Kind: kind, Message: msg, Parent: parent, Text: text[:k]})
		text = text[k:]
	}
}

func (d *driver) text(msg, text string) { d.stream(streaming.KindTextDelta, msg, text) }

func (d *driver) toolStart(id, name, input string) {
	d.push(streaming.Event{Kind: streaming.KindToolStart, ID: id, Name: name, Input: input, Subject: subj(input)})
}

func (d *driver) toolEnd(id string, status streaming.ToolStatus, output string, exit *int) {
	d.push(streaming.Event{Kind: streaming.KindToolEnd, ID: id, Status: status, Output: output, ExitCode: exit})
}

// finish closes the stream as the command does and returns the outputs.
func (d *driver) finish(interrupted bool) (pretty, plain []byte) {
	d.t.Helper()
	if !interrupted {
		if err := d.sess.Close(); err != nil {
			d.t.Fatal(err)
		}
		if err := d.psess.Close(); err != nil {
			d.t.Fatal(err)
		}
	}
	out, reason := d.sess.Outcome()
	s := Summary{Outcome: out, Reason: reason, Interrupted: interrupted}
	if err := d.pr.Finish(s); err != nil {
		d.t.Fatal(err)
	}
	if err := d.pl.Finish(s); err != nil {
		d.t.Fatal(err)
	}
	return d.out.Bytes(), d.plain.Bytes()
}

// assistantTexts are the blocks of assistant text as a terminal shows
// them (sanitised), in order.
func (d *driver) assistantTexts() []string {
	var out []string
	for _, k := range d.order {
		out = append(out, sanitize.String(d.texts[k].String(), sanitize.Options{}))
	}
	return out
}

// assistantLines are the non-empty lines of assistantTexts.
func (d *driver) assistantLines() []string {
	var out []string
	for _, t := range d.assistantTexts() {
		for _, l := range strings.Split(t, "\n") {
			if strings.TrimSpace(l) != "" {
				out = append(out, l)
			}
		}
	}
	return out
}
