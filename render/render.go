// Package render turns streaming events into output for a person (pretty,
// plain), a CI log (plain with GitHub or GitLab markers), a script (json,
// text) or a document (markdown). Renderers know nothing of any agent's
// wire format: they read only streaming events.
package render

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/agentfmt/agentfmt/internal/palette"
	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/streaming"
)

// Formats lists the output formats, in the order --help shows them.
// ("html" lives in render/html, which registers itself: a program using
// it imports that package.)
var Formats = []string{"pretty", "plain", "json", "text", "markdown", "html", "none"}

// ThinkingMode says how much thinking to show.
type ThinkingMode string

// Thinking modes.
const (
	ThinkingSummary ThinkingMode = "summary"
	ThinkingFull    ThinkingMode = "full"
	ThinkingNone    ThinkingMode = "none"
)

// ToolsMode says how much tool output to show.
type ToolsMode string

// Tool modes.
const (
	ToolsPreview ToolsMode = "preview"
	ToolsFull    ToolsMode = "full"
	ToolsNone    ToolsMode = "none"
)

// CI names the CI system whose log markers plain output uses.
type CI string

// CI systems.
const (
	CINone   CI = "none"
	CIGitHub CI = "github"
	CIGitLab CI = "gitlab"
)

// Config is what every renderer is told.
type Config struct {
	Width      int  // terminal cells
	Height     int  // terminal rows (pretty); 0 if unknown
	Color      bool // colour the output (SGR sequences)
	Thinking   ThinkingMode
	Tools      ToolsMode
	ToolLines  int
	AllowColor bool // let SGR sequences of tool output through
	Timestamps bool
	CI         CI
	Sentences  bool   // json: text.sentence events
	Until      string // completion marker to strip
	// TermSize re-reads the terminal size (pretty, on Resize); nil when the
	// output is not a terminal.
	TermSize func() (width, height int, ok bool)
	// Resize delivers a value when the terminal size changes (SIGWINCH).
	Resize <-chan os.Signal
	// NoReflow says the terminal cuts rows that a narrower window no
	// longer holds instead of re-wrapping them (xterm, the Linux console,
	// GNU screen): pretty then counts one row for each when it erases its
	// live region after a resize. Most terminals re-wrap (tmux, VTE,
	// kitty, iTerm2, WezTerm, Alacritty, Windows Terminal).
	NoReflow bool
	// Terminal reports that the output is a terminal (text sanitises the
	// answer then; other renderers always do).
	Terminal bool
	// Static: pretty draws no live region and moves no cursor; it writes
	// what is finished, as rows and newlines, in order (its output goes
	// through a pager, which shows colour but obeys no cursor movement).
	Static bool

	// env is what the command sets that an embedder does not (the clock,
	// the redraw ticker): internal/renderenv.
	env renderenv.Env
	// drawHook, when set (tests), sees every frame's rows before the
	// pretty screen writer draws them.
	drawHook func(width int, commit, live []row)
	// palette is the colours of Color (withDefaults).
	palette palette.Palette
}

func init() {
	renderenv.Install(func(cfg any, e renderenv.Env) { cfg.(*Config).env = e })
}

// Summary is what the command knows at the end of input.
type Summary struct {
	Outcome     streaming.Outcome
	Reason      string
	Answer      string // the final answer: set for the renderers that show it (text)
	Stats       streaming.Stats
	Interrupted bool
	// Stopped: only the reading stopped (Ctrl-C under --follow or
	// watch, which read files an agent writes on its own): the run was
	// not seen to end and goes on. Renderers write no outcome for it
	// (the command says on stderr that following stopped), and leave
	// the run as it was last seen.
	Stopped bool
	// UntilMissing is set when --until was given and the final answer
	// lacks the marker.
	UntilMissing bool
	// NoResult: no result event ended the run, yet Outcome is a failure
	// ('agentfmt run': the agent exited non-zero or was killed without
	// one; Reason says how). Finish writes the failure line a result
	// would have written.
	NoResult bool
}

// Renderer consumes the session's events. Every renderer has every
// method, so the command never asks which a renderer has.
type Renderer interface {
	streaming.Handler
	// UseState gives the renderer the session's state (the session calls
	// it before the first event; streaming.StateUser).
	UseState(st streaming.State)
	// Heading puts a heading naming an input above its events when
	// several are read one after the other (pretty, plain, markdown: as
	// head and tail do, "==> a.jsonl <=="). json names the input in each
	// event instead ("file"); text and html ignore it: html's runs need
	// no file name between them.
	Heading(name string) error
	// Flush writes what is buffered; the command calls it when its input
	// has nothing more buffered.
	Flush() error
	// Finish writes the end of the output (summary line, final answer)
	// and flushes.
	Finish(s Summary) error
}

// Constructor builds a renderer on w.
type Constructor func(w io.Writer, cfg Config) Renderer

var registry = map[string]Constructor{}

// Register adds a format (used by renderers living in other files or
// packages).
func Register(name string, c Constructor) { registry[name] = c }

// New returns the renderer for a format.
func New(format string, w io.Writer, cfg Config) (Renderer, error) {
	c, ok := registry[format]
	if !ok {
		return nil, fmt.Errorf("unknown format %q", format)
	}
	cfg = cfg.withDefaults()
	return c(ciWriter(format, cfg, w), cfg), nil
}

// withDefaults fills what cfg leaves unset: 100 columns, previews of 6
// lines, thinking summarised, tool previews, no CI, no colour, the clock.
func (cfg Config) withDefaults() Config {
	if cfg.Width <= 0 {
		cfg.Width = 100
	}
	if cfg.ToolLines <= 0 {
		cfg.ToolLines = 6
	}
	if cfg.Thinking == "" {
		cfg.Thinking = ThinkingSummary
	}
	if cfg.Tools == "" {
		cfg.Tools = ToolsPreview
	}
	if cfg.CI == "" {
		cfg.CI = CINone
	}
	if cfg.palette.Dim == nil {
		cfg.palette = palette.New(cfg.Color)
	}
	if cfg.env.Now == nil {
		cfg.env.Now = time.Now
	}
	return cfg
}

// stateless is embedded by the renderers that read nothing of the
// session's state.
type stateless struct{}

func (stateless) UseState(streaming.State) {}

// headless is embedded by the renderers that put no heading above an
// input (text, none and the lanes of several streams, whose own headings
// name their streams).
type headless struct{}

func (headless) Heading(string) error { return nil }
